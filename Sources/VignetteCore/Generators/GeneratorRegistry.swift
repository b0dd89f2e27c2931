import Foundation

/// The generators Vignette knows, and the choice among them for a file.
///
/// Candidates for a file are the generators with a type the file conforms to, ranked:
/// 1. the most specific matching type first (nearest in the file's conformance chain:
///    a generator for `public.jpeg` beats one for `public.image` beats one for `public.data`);
/// 2. then higher priority;
/// 3. then later registration (custom generators, registered after the built-ins, win ties).
///
/// Candidates are tried in order; a generator over its limits is skipped, one that declines
/// or fails passes the file on, and the first success wins. Register a fallback for
/// `public.item` and every file gets an answer. A failure coded `.refused` (a pixel bomb) is
/// final: after it only fallback generators are tried.
public final class GeneratorRegistry: @unchecked Sendable {
    /// A registered generator and its place in registration order.
    struct Entry {
        let generator: any Generator
        let order: Int
    }

    private let lock = NSLock()
    private var entries: [Entry] = []
    /// The catalog used for conformance.
    public let catalog: TypeCatalog

    /// Creates an empty registry over a type catalog.
    public init(catalog: TypeCatalog = .builtIn) {
        self.catalog = catalog
    }

    /// Adds a generator; a later registration wins ties of specificity and priority.
    /// A generator with the identifier of one already registered replaces it.
    public func register(_ generator: any Generator) {
        lock.lock()
        defer { lock.unlock() }
        entries.removeAll { $0.generator.identifier == generator.identifier }
        entries.append(Entry(generator: generator, order: (entries.map(\.order).max() ?? -1) + 1))
    }

    /// Every registered generator, in registration order.
    public var generators: [any Generator] {
        lock.lock()
        defer { lock.unlock() }
        return entries.map(\.generator)
    }

    /// What a generator can do.
    public enum Capability: String, Sendable, CaseIterable {
        /// Draws thumbnails (`ThumbnailGenerating`).
        case thumbnail
        /// Writes text previews (`PreviewGenerating`).
        case preview

        /// Whether `generator` can do this (without a dynamic cast: see `Generator.asThumbnailGenerator`).
        func offered(by generator: any Generator) -> Bool {
            switch self {
            case .thumbnail: generator.asThumbnailGenerator != nil
            case .preview: generator.asPreviewGenerator != nil
            }
        }
    }

    /// A generator that could handle a file, with why it ranks where it does.
    public struct Candidate: Sendable {
        /// The generator.
        public let generator: any Generator
        /// The declared type the file matched.
        public let matchedType: String
        /// Steps from the file's type up to `matchedType` (0: the same type).
        public let distance: Int
        /// Registration order (higher is later).
        public let order: Int
        /// Why the generator will not be tried (over its limits), if so.
        public let skipReason: String?
    }

    /// The ranked candidates for a file of `type` and `size` bytes, skipped ones included (with reasons).
    public func candidates(for type: UniformType, size: Int?, capability: Capability) -> [Candidate] {
        let chain = catalog.supertypes(of: type).map(\.identifier)
        var result: [Candidate] = []
        for entry in snapshot() where capability.offered(by: entry.generator) {
            let matches = entry.generator.supportedTypes.compactMap { t in chain.firstIndex(of: t).map { (t, $0) } }
            guard let best = matches.min(by: { $0.1 < $1.1 }) else { continue }
            var skip: String? = nil
            if let size, let max = entry.generator.limits.maxFileBytes, size > max {
                skip = "file is \(ByteCount.text(size)), over this generator's limit of \(ByteCount.text(max))"
            }
            result.append(
                Candidate(generator: entry.generator, matchedType: best.0, distance: best.1, order: entry.order, skipReason: skip))
        }
        return result.sorted { a, b in
            // The fallback answers last whatever its distance: a type with a short path to
            // public.item (JavaScript, through public.executable) would otherwise reach it
            // before public.text, and get an icon instead of its text.
            let aLast = a.generator.priority <= .fallback
            if aLast != (b.generator.priority <= .fallback) { return !aLast }
            if a.distance != b.distance { return a.distance < b.distance }
            if a.generator.priority != b.generator.priority { return a.generator.priority > b.generator.priority }
            return a.order > b.order
        }
    }

    /// What happened to one candidate when a file was processed.
    public struct Attempt: Sendable, CustomStringConvertible {
        /// The outcome of trying a generator.
        public enum Outcome: Sendable, Equatable {
            /// It produced the result.
            case succeeded
            /// It was not tried: over its limits.
            case skipped(String)
            /// It looked and passed the file on.
            case declined(String)
            /// It failed; the next candidate was tried.
            case failed(String)
        }
        /// The generator's identifier.
        public let generator: String
        /// What happened.
        public let outcome: Outcome
        /// The error code of a failure (`.refused` for a pixel bomb), so edges can tell refusals from damage.
        public var errorCode: VignetteError.Code? = nil

        /// Whether the generator failed or was skipped (as opposed to succeeding or declining).
        public var isProblem: Bool {
            switch outcome {
            case .failed, .skipped: true
            case .succeeded, .declined: false
            }
        }

        /// "image: failed: corrupt JPEG: …".
        public var description: String {
            switch outcome {
            case .succeeded: "\(generator): succeeded"
            case .skipped(let why): "\(generator): skipped: \(why)"
            case .declined(let why): "\(generator): declined: \(why)"
            case .failed(let why): "\(generator): failed: \(why)"
            }
        }
    }

    /// A thumbnail from the best candidate that succeeds, with every attempt made.
    ///
    /// With `allowFallback` false, generators of `.fallback` priority are not tried, so a file
    /// no real generator can draw is an error rather than an icon.
    /// - Throws: the failure of the best-ranked candidate that was tried or skipped (naming the
    ///   file), or `unsupported` when no generator handles the type.
    public func thumbnail(
        for input: GeneratorInput, request: ThumbnailRequest, allowFallback: Bool = true
    ) throws -> (GeneratedThumbnail, generator: String, attempts: [Attempt]) {
        try run(input, capability: .thumbnail, allowFallback: allowFallback) { generator in
            // `candidates` kept only generators that draw thumbnails.
            try generator.asThumbnailGenerator!.makeThumbnail(for: input, request: request)
        }
    }

    /// A text preview from the best candidate that succeeds, with every attempt made.
    public func preview(
        for input: GeneratorInput, request: PreviewRequest, allowFallback: Bool = true
    ) throws -> (TextPreview, generator: String, attempts: [Attempt]) {
        try run(input, capability: .preview, allowFallback: allowFallback) { generator in
            try generator.asPreviewGenerator!.makePreview(for: input, request: request)
        }
    }

    private func run<Result>(
        _ input: GeneratorInput, capability: Capability, allowFallback: Bool, _ body: (any Generator) throws -> Result
    ) throws -> (Result, generator: String, attempts: [Attempt]) {
        var attempts: [Attempt] = []
        // The best-ranked candidate's problem explains the outcome best ("image: corrupt JPEG"),
        // better than the last one's.
        var firstProblem: VignetteError? = nil
        var refusedBy: String? = nil
        for candidate in candidates(for: input.type, size: input.size, capability: capability) {
            if !allowFallback && candidate.generator.priority <= .fallback { continue }
            let id = candidate.generator.identifier
            if let refusedBy, candidate.generator.priority > .fallback {
                attempts.append(Attempt(generator: id, outcome: .skipped("not tried: \(refusedBy) refused the file")))
                continue
            }
            if let skip = candidate.skipReason {
                attempts.append(Attempt(generator: id, outcome: .skipped(skip)))
                if firstProblem == nil { firstProblem = VignetteError(.limitExceeded, skip) }
                continue
            }
            do {
                let result = try body(candidate.generator)
                attempts.append(Attempt(generator: id, outcome: .succeeded))
                return (result, id, attempts)
            } catch let error as VignetteError where error.code == .declined {
                attempts.append(Attempt(generator: id, outcome: .declined(error.reason)))
            } catch let error as VignetteError {
                attempts.append(Attempt(generator: id, outcome: .failed(error.reason), errorCode: error.code))
                if firstProblem == nil || error.code == .refused { firstProblem = error }
                if error.code == .refused { refusedBy = id }
            } catch {
                attempts.append(Attempt(generator: id, outcome: .failed("\(error)"), errorCode: .io))
                if firstProblem == nil { firstProblem = VignetteError(.io, "\(error)") }
            }
        }
        let why =
            firstProblem?.reason
            ?? "no \(capability == .thumbnail ? "thumbnail" : "preview") generator for \(input.type.localizedDescription) (\(input.type.identifier), \(catalog.preferredMIMEType(of: input.type)))"
        throw VignetteError(firstProblem?.code ?? .unsupported, path: input.displayName, why)
    }

    private func snapshot() -> [Entry] {
        lock.lock()
        defer { lock.unlock() }
        return entries
    }
}
