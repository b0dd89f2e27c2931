import ArgumentParser
import Foundation
import VignetteCore
import VignetteGenerators

/// `vignette which FILE`: the type chain, the ranked generators, the one chosen and why.
struct WhichCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "which",
        abstract: "Show which generator previews a file, and why the others were passed over.",
        discussion: """
            Prints the file's content type and its conformance chain, then for thumbnails and \
            for text previews the candidate generators in the order they are tried: the most \
            specific matching type first, then higher priority, then later registration (custom \
            generators win ties over built-in ones). The candidates are really run, so a \
            generator that declines or fails says why, and one over its limits says which. A \
            generator for the file's type that was not loaded (its program is missing or not \
            executable) is listed last, marked "-", with the reason.

            Examples:
              vignette which photo.jpg
              vignette which --json --generators ~/my-generators drawing.palette
              vignette which --stdin-name report.pdf - < attachment
            """
    )

    @Flag(name: .long, help: "Print a JSON object.")
    var json = false

    @Option(name: [.short, .customLong("size")], parsing: .unconditional, help: "Thumbnail size to try.")
    var size = 256

    @Option(name: .long, parsing: .unconditional, help: StandardInput.nameHelp)
    var stdinName: String?

    @OptionGroup var registryOptions: RegistryOptions

    @Argument(help: ArgumentHelp("A file of any kind (- for standard input).", valueName: "FILE"))
    var file: String

    func validate() throws {
        try StandardInput.validate([file], name: stdinName)
        try OptionBounds.within(size, 1...ThumbnailCommand.maxPixels, "--size")
    }

    func run() throws {
        let loaded = try registryOptions.load()
        let registry = loaded.registry
        let catalog = registry.catalog
        let input = try StandardInput.input(
            file, name: stdinName, limit: registryOptions.imageLimits.maxFileBytes, resolver: TypeResolver(catalog: catalog))
        let chain = catalog.supertypes(of: input.type).map(\.identifier)
        var sections: [(GeneratorRegistry.Capability, [GeneratorRegistry.Candidate], [GeneratorRegistry.Attempt], String?)] = []
        let unloaded = Self.unloaded(loaded.skipped, chain: chain)
        for capability in GeneratorRegistry.Capability.allCases {
            let candidates = registry.candidates(for: input.type, size: input.size, capability: capability)
            var attempts: [GeneratorRegistry.Attempt] = []
            var chosen: String? = nil
            do {
                switch capability {
                case .thumbnail:
                    (_, chosen, attempts) = try registry.thumbnail(for: input, request: ThumbnailRequest(maxPixelSize: size))
                case .preview:
                    (_, chosen, attempts) = try registry.preview(for: input, request: PreviewRequest(maxBytes: 16 << 10, maxLines: 200))
                }
            } catch {
                chosen = nil
            }
            sections.append((capability, candidates, attempts, chosen))
        }
        if json {
            var object: [String: Any] = [
                "path": file, "type": input.type.identifier, "description": input.type.localizedDescription,
                "mime": catalog.preferredMIMEType(of: input.type), "conformsTo": Array(chain.dropFirst()),
                "evidence": input.resolution.evidence.description,
            ]
            if let system = TypeCommand.systemSource(input.resolution, catalog: catalog) { object["systemDatabase"] = system }
            for (capability, candidates, attempts, chosen) in sections {
                object[capability.rawValue] =
                    [
                        "chosen": chosen as Any,
                        "candidates": candidates.enumerated().map { rank, c in
                            [
                                "rank": rank + 1, "generator": c.generator.identifier, "matchedType": c.matchedType,
                                "distance": c.distance, "priority": c.generator.priority.description, "origin": c.generator.origin,
                                "outcome": Self.outcome(of: c, attempts: attempts, chosen: chosen),
                            ] as [String: Any]
                        },
                        "notLoaded": unloaded.filter { $0.capability == capability }.map {
                            [
                                "generator": $0.skipped.identifier, "matchedType": $0.matchedType, "origin": $0.skipped.origin,
                                "reason": $0.skipped.reason,
                            ]
                        },
                    ] as [String: Any]
            }
            print(JSONOutput.string(object))
            return
        }
        var text = "\(file)\n"
        text +=
            "  type:        \(input.type.identifier) (\(input.type.localizedDescription)), MIME \(catalog.preferredMIMEType(of: input.type))\n"
        text += "  decided by:  \(input.resolution.evidence)"
        if let system = TypeCommand.systemSource(input.resolution, catalog: catalog) { text += "; " + system }
        text += "\n"
        text += "  chain:       \(chain.joined(separator: " → "))\n"
        for (capability, candidates, attempts, chosen) in sections {
            text += "\(capability.rawValue): \(chosen.map { "\($0) answers" } ?? "nothing answers")\n"
            let idWidth = candidates.map(\.generator.identifier.count).max() ?? 0
            let typeWidth = candidates.map { Self.match($0).count }.max() ?? 0
            for (rank, c) in candidates.enumerated() {
                let id = c.generator.identifier.padding(toLength: idWidth, withPad: " ", startingAt: 0)
                let match = Self.match(c).padding(toLength: typeWidth, withPad: " ", startingAt: 0)
                let priority = c.generator.priority.description.padding(toLength: 9, withPad: " ", startingAt: 0)
                text += "  \(rank + 1). \(id)  \(match)  \(priority)  \(Self.outcome(of: c, attempts: attempts, chosen: chosen))\n"
            }
            // A generator written for this type but not loaded is what its author is looking for.
            for u in unloaded where u.capability == capability {
                text += "  -  \(u.skipped.identifier)  \(u.matchedType)  not loaded: \(u.skipped.reason) (\(u.skipped.origin))\n"
            }
        }
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// A generator left out at loading that would have been a candidate for the file's type.
    struct Unloaded {
        let skipped: GeneratorLoader.Skipped
        let capability: GeneratorRegistry.Capability
        /// The type of the chain it names, as `match` shows one.
        let matchedType: String
    }

    /// The left-out generators whose types meet `chain` (the file's type first), most specific first.
    static func unloaded(_ skipped: [GeneratorLoader.Skipped], chain: [String]) -> [Unloaded] {
        skipped.compactMap { s -> (Int, Unloaded)? in
            guard let distance = chain.firstIndex(where: s.types.contains) else { return nil }
            let capability: GeneratorRegistry.Capability = s.kind == .thumbnail ? .thumbnail : .preview
            return (distance, Unloaded(skipped: s, capability: capability, matchedType: match(chain[distance], distance: distance)))
        }.sorted { $0.0 < $1.0 }.map(\.1)
    }

    /// `public.jpeg (exact)` or `public.image (1 step up)`.
    static func match(_ c: GeneratorRegistry.Candidate) -> String {
        match(c.matchedType, distance: c.distance)
    }

    /// `TYPE (exact)`, `TYPE (1 step up)`, `TYPE (N steps up)`.
    static func match(_ type: String, distance: Int) -> String {
        switch distance {
        case 0: "\(type) (exact)"
        case 1: "\(type) (1 step up)"
        default: "\(type) (\(distance) steps up)"
        }
    }

    /// What happened to a candidate: chosen, declined/failed/skipped with the reason, or not tried.
    static func outcome(of c: GeneratorRegistry.Candidate, attempts: [GeneratorRegistry.Attempt], chosen: String?) -> String {
        guard let attempt = attempts.first(where: { $0.generator == c.generator.identifier }) else {
            return chosen.map { "not tried: \($0) answered first" } ?? "not tried"
        }
        switch attempt.outcome {
        case .succeeded: return "chosen"
        case .skipped(let why): return "skipped: \(why)"
        case .declined(let why): return "declined: \(why)"
        case .failed(let why): return "failed: \(why)"
        }
    }
}
