import ArgumentParser
import Foundation
import VignetteCore
import VignetteGenerators

/// `vignette generators`: the registered generators, their types, priorities, limits and origin.
struct GeneratorsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generators",
        abstract: "List the generators: what they make, for which types, at what priority and limits, from where.",
        discussion: """
            Built-in generators are compiled in; external ones come from manifests in the \
            generator directories and from freedesktop .thumbnailer files (see README). For \
            one file, `vignette which FILE` shows which of them is chosen.

            Examples:
              vignette generators
              vignette generators --json | jq '.[].identifier'
              vignette generators --mime-types
            """
    )

    @Flag(name: .long, help: "Print a JSON array.")
    var json = false

    @Flag(
        name: .long,
        help: "Print only the MIME types some thumbnail generator pictures, one a line (what the D-Bus thumbnailer's GetSupported answers)."
    )
    var mimeTypes = false

    @OptionGroup var registryOptions: RegistryOptions

    func run() throws {
        let loaded = try registryOptions.load()
        let registry = loaded.registry
        if mimeTypes {
            FileHandle.standardOutput.write(Data(registry.picturedMIMETypes().map { $0 + "\n" }.joined().utf8))
            return
        }
        // Most preferred first, as a reader scanning for "who handles X" expects.
        let generators = registry.generators.reversed().sorted { $0.priority > $1.priority }
        if json {
            print(
                JSONOutput.string(
                    generators.map { g in
                        var o: [String: Any] = [
                            "identifier": g.identifier, "capabilities": Self.capabilities(g), "types": g.supportedTypes,
                            "priority": g.priority.description, "priorityValue": g.priority.rawValue, "origin": g.origin,
                        ]
                        if let max = g.limits.maxFileBytes { o["maxFileBytes"] = max }
                        if let t = g.limits.timeoutSeconds { o["timeoutSeconds"] = t }
                        if let spec = Self.externalSpec(g) { o["sandbox"] = ExternalSandbox.describe(spec) }
                        return o
                    }))
            return
        }
        var text = ""
        for g in generators {
            text += "\(g.identifier)  [\(Self.capabilities(g).joined(separator: ", "))]  priority \(g.priority)  from \(g.origin)\n"
            text += "  types:  \(g.supportedTypes.joined(separator: ", "))\n"
            var limits: [String] = []
            if let max = g.limits.maxFileBytes { limits.append("files up to \(ByteCount.text(max))") }
            if let t = g.limits.timeoutSeconds { limits.append("\(t.formatted()) s per run") }
            if !limits.isEmpty { text += "  limits: \(limits.joined(separator: ", "))\n" }
            if let spec = Self.externalSpec(g) { text += "  sandbox: \(ExternalSandbox.describe(spec))\n" }
        }
        if !loaded.skipped.isEmpty {
            text += "not loaded:\n"
            for s in loaded.skipped { text += "  \(s.identifier)  from \(s.origin): \(s.reason)\n" }
        }
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// The spec of an external generator, nil for one compiled in.
    static func externalSpec(_ g: any Generator) -> ExternalGeneratorSpec? {
        (g as? ExternalThumbnailGenerator)?.spec ?? (g as? ExternalPreviewGenerator)?.spec
    }

    static func capabilities(_ g: any Generator) -> [String] {
        GeneratorRegistry.Capability.allCases.filter { c in
            switch c {
            case .thumbnail: g.asThumbnailGenerator != nil
            case .preview: g.asPreviewGenerator != nil
            }
        }.map(\.rawValue)
    }
}
