/// A command line as an argv list with freedesktop placeholders, checked when loaded.
///
/// Placeholders, anywhere inside an argument: `%i` input path, `%u` input URI, `%o` output
/// path, `%s` size in pixels, `%m` MIME type, `%%` a literal `%`. Each argument stays one
/// argument after expansion: nothing is ever split or given to a shell.
public struct ExecTemplate: Sendable, Equatable {
    /// The arguments as written (placeholders unexpanded); the first is the program.
    public let arguments: [String]

    /// The placeholder letters Vignette knows.
    public static let placeholders: [Character] = ["i", "u", "o", "s", "m", "%"]

    /// Checks `arguments`: a plain program name first, and only known placeholders.
    ///
    /// - Throws: `TemplateProblem` naming the argument (index) and what is wrong.
    public init(_ arguments: [String]) throws {
        guard let first = arguments.first else { throw TemplateProblem(index: nil, reason: "is empty; give the program and its arguments") }
        if first.isEmpty || first.contains("%") {
            throw TemplateProblem(index: 0, reason: "the program name must be a plain name or path, not \"\(first)\"")
        }
        for (index, argument) in arguments.enumerated() {
            var chars = argument.makeIterator()
            while let c = chars.next() {
                guard c == "%" else { continue }
                guard let code = chars.next() else {
                    throw TemplateProblem(index: index, reason: "ends with a lone %; write %% for a literal percent sign")
                }
                if !Self.placeholders.contains(code) {
                    throw TemplateProblem(index: index, reason: "unknown placeholder %\(code) (known: %i %u %o %s %m %%)")
                }
            }
        }
        self.arguments = arguments
    }

    /// Placeholder letters used (without `%%`).
    public var usedPlaceholders: Set<Character> {
        var used: Set<Character> = []
        for argument in arguments {
            var chars = argument.makeIterator()
            while let c = chars.next() {
                if c == "%", let code = chars.next(), code != "%" { used.insert(code) }
            }
        }
        return used
    }

    // Not through `usedPlaceholders`: the first Set<Character> a process makes costs the runtime
    // a scan of every conformance record in the program, and every command checks the manifests.
    /// Whether the command names its input (`%i` or `%u`).
    public var takesInput: Bool { uses("i") || uses("u") }

    /// Whether the command writes to a named output file (`%o`).
    public var writesOutputFile: Bool { uses("o") }

    /// Whether an argument holds the placeholder `%code` (not `%%`).
    func uses(_ code: Character) -> Bool {
        for argument in arguments {
            var chars = argument.makeIterator()
            while let c = chars.next() {
                if c == "%", let next = chars.next(), next != "%", next == code { return true }
            }
        }
        return false
    }

    /// The argv with placeholders replaced by `values` (keyed by letter).
    public func expand(_ values: [Character: String]) -> [String] {
        arguments.map { argument in
            var out = ""
            var chars = argument.makeIterator()
            while let c = chars.next() {
                guard c == "%", let code = chars.next() else {
                    out.append(c)
                    continue
                }
                out += code == "%" ? "%" : values[code] ?? ""
            }
            return out
        }
    }

    /// What is wrong with a command line: the argument (index) and why.
    public struct TemplateProblem: Error, Sendable, Equatable {
        /// The index of the bad argument, or nil when the list as a whole is wrong.
        public let index: Int?
        /// The reason, a lower-case sentence fragment.
        public let reason: String
    }
}
