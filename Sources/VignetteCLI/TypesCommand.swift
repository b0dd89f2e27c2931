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
            let rows = types.map { t in
                [t.identifier, t.preferredFilenameExtension.map { "." + $0 } ?? "-", t.preferredMIMEType ?? "-", t.localizedDescription]
            }
            for line in Self.table(rows, caps: [48, 12, 48]) { out.write(line + "\n") }
        }
        out.flush()
    }

    /// Rows as aligned columns, two spaces apart: each column as wide as its widest cell up to its
    /// cap (the last column is not padded). A longer cell is shown whole and pushes the rest of
    /// its row, never cut.
    static func table(_ rows: [[String]], caps: [Int]) -> [String] {
        let widths = caps.indices.map { c in min(caps[c], rows.map { $0[c].count }.max() ?? 0) }
        return rows.map { row in
            var line = ""
            for (c, cell) in row.enumerated() {
                line += cell
                if c < widths.count, c < row.count - 1 { line += String(repeating: " ", count: max(0, widths[c] - cell.count)) + "  " }
            }
            return line
        }
    }
}
