import ArgumentParser
import Foundation
import VignetteCore

/// `vignette types`: list the known type declarations.
struct TypesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "types",
        abstract: "List the known content types.",
        discussion: """
            Lists every declared type: identifier, preferred extension and MIME type, and \
            description. With --tree, types are indented under the type they conform to (a type \
            with several parents appears under its first and names the others).

            Examples:
              vignette types | grep -i image
              vignette types --tree
              vignette types --json --types my-types.json
            """
    )

    @Flag(name: .long, help: "Show the conformance hierarchy.")
    var tree = false

    @Flag(name: .long, help: "Print the declarations as JSON.")
    var json = false

    @OptionGroup var catalogOptions: CatalogOptions

    func validate() throws {
        if tree && json { throw ValidationError("--tree and --json cannot be used together") }
    }

    func run() throws {
        let catalog = try catalogOptions.catalog()
        let out = OutputBuffer()
        let types = catalog.allTypes
        if json {
            let objects: [[String: Any]] = types.map { t in
                let d = t.declaration
                var o: [String: Any] = [
                    "identifier": d.identifier, "conformsTo": d.conformsTo, "description": d.description,
                    "extensions": d.extensions, "mimeTypes": catalog.mimeTypes(of: t),
                    "origin": catalog.origin(of: t)?.description ?? "dynamic",
                ]
                if let icon = catalog.genericIcon(of: t) { o["genericIcon"] = icon }
                if !d.filenames.isEmpty { o["filenames"] = d.filenames }
                if !d.signatures.isEmpty { o["signatures"] = d.signatures.count }
                return o
            }
            out.write(JSONOutput.string(objects) + "\n")
        } else if tree {
            var children: [String: [UniformType]] = [:]
            var roots: [UniformType] = []
            for t in types {
                if let parent = t.declaration.conformsTo.first { children[parent, default: []].append(t) } else { roots.append(t) }
            }
            func walk(_ t: UniformType, depth: Int) {
                var line = String(repeating: "  ", count: depth) + t.identifier
                let others = t.declaration.conformsTo.dropFirst()
                if !others.isEmpty { line += "  (also " + others.joined(separator: ", ") + ")" }
                out.write(line + "\n")
                for c in children[t.identifier] ?? [] { walk(c, depth: depth + 1) }
            }
            for r in roots { walk(r, depth: 0) }
        } else {
            let width = types.map(\.identifier.count).max() ?? 0
            for t in types {
                let ext = t.preferredFilenameExtension.map { "." + $0 } ?? "-"
                let mime = t.preferredMIMEType ?? "-"
                let id = t.identifier.padding(toLength: width, withPad: " ", startingAt: 0)
                out.write(
                    "\(id)  \(ext.padding(toLength: 10, withPad: " ", startingAt: 0)) \(mime.padding(toLength: 44, withPad: " ", startingAt: 0)) \(t.localizedDescription)\n"
                )
            }
        }
        out.flush()
    }
}
