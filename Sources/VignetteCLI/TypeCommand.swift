import ArgumentParser
import Foundation
import VignetteCore

/// `vignette type FILE...`: identify files.
struct TypeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "type",
        abstract: "Identify the content type of files.",
        discussion: """
            For each file, prints the type identifier, its preferred MIME type and the types it \
            conforms to. The bytes decide (a PNG named .jpg is a PNG); the name refines generic \
            content (text named .md is Markdown); a name never makes text a binary type, nor \
            binary data a text type. Besides the built-in types, the system's shared-mime-info \
            packages ($XDG_DATA_DIRS/mime/packages, $XDG_DATA_HOME/mime/packages) are read; \
            --explain names the package when one decided. A file that cannot be read gets one \
            line on stderr naming it and the reason; the others are still answered, and the exit \
            status is 1. A FILE of - is standard input, typed by its content (and by \
            --stdin-name's extension).

            Examples:
              vignette type photo.jpg
              vignette type --mime * > types.tsv
              vignette type --json --explain download.bin
              curl -s https://example.org/file | vignette type -
            """
    )

    @Flag(name: .long, help: "Print exactly PATH<TAB>MIME per file.")
    var mime = false

    @Flag(name: .long, help: "Print a JSON array with one object per file.")
    var json = false

    @Flag(name: .long, help: "Also say how each type was decided.")
    var explain = false

    // CatalogOptions' options, declared here rather than as an `@OptionGroup` for the reason RegistryOptions gives:
    // an option group costs each parse about 1.5 million instructions.
    @Option(name: .customLong("types"), parsing: .unconditionalSingleValue, help: CatalogOptions.typeFilesHelp)
    var typeFiles: [String] = []

    @Option(name: .customLong("generators"), parsing: .unconditionalSingleValue, help: CatalogOptions.generatorDirectoriesHelp)
    var generatorDirectories: [String] = []

    @Flag(name: .customLong("no-system-types"), help: CatalogOptions.noSystemTypesHelp)
    var noSystemTypes = false

    @Option(name: .long, parsing: .unconditional, help: StandardInput.nameHelp)
    var stdinName: String?

    @Argument(help: ArgumentHelp("Files to identify (- for standard input).", valueName: "FILE"))
    var files: [String]

    func validate() throws {
        try StandardInput.validate(files, name: stdinName)
        if mime && json { throw ValidationError("--mime and --json cannot be used together") }
    }

    func run() throws {
        let catalog = try CatalogSelection(typeFiles: typeFiles, generatorDirectories: generatorDirectories, noSystemTypes: noSystemTypes)
            .catalog()
        // Kept to the end of the process: freeing its tables when run() returns costs about a millisecond, for nothing.
        _ = Unmanaged.passRetained(catalog)
        let resolver = TypeResolver(catalog: catalog)
        let out = OutputBuffer()
        var failed = false
        var objects: [[String: Any]] = []
        for path in files {
            do {
                let result =
                    StandardInput.means(path)
                    ? try StandardInput.input(path, name: stdinName, limit: StandardInput.typingLimit, resolver: resolver).resolution
                    : try resolver.resolve(path: path)
                let mimeType = catalog.preferredMIMEType(of: result.type)
                if mime {
                    out.write("\(path)\t\(mimeType)\n")
                } else if json {
                    objects.append(Self.jsonObject(path: path, result: result, catalog: catalog, explain: explain))
                } else {
                    let parents = catalog.supertypes(of: result.type).dropFirst().map(\.identifier)
                    var line = "\(path): \(result.type.identifier) (\(mimeType))"
                    if !parents.isEmpty { line += "; conforms to " + parents.joined(separator: ", ") }
                    out.write(line + "\n")
                    if explain {
                        out.write("  \(result.type.localizedDescription); decided by \(result.evidence)")
                        if let text = result.text { out.write("; \(text.encoding.displayName) text") }
                        if let system = Self.systemSource(result, catalog: catalog) { out.write("; " + system) }
                        out.write("\n")
                    }
                }
            } catch {
                failed = true
                out.flush()
                Diagnostics.report(error)
                if json { objects.append(["path": path, "error": Diagnostics.jsonObject(error)]) }
            }
        }
        if json { out.write(JSONOutput.string(objects) + "\n") }
        out.flush()
        if failed { throw ExitCode(1) }
    }

    static func jsonObject(path: String, result: TypeResolution, catalog: TypeCatalog, explain: Bool) -> [String: Any] {
        var object: [String: Any] = [
            "path": path,
            "identifier": result.type.identifier,
            "mime": catalog.preferredMIMEType(of: result.type),
            "description": result.type.localizedDescription,
            "conformsTo": catalog.supertypes(of: result.type).dropFirst().map(\.identifier),
        ]
        if let text = result.text { object["encoding"] = text.encoding.displayName }
        if explain {
            object["evidence"] = result.evidence.description
            if let system = systemSource(result, catalog: catalog) { object["systemDatabase"] = system }
        }
        return object
    }

    /// Where the system MIME database took part: the package whose rule decided, or that declares the type.
    static func systemSource(_ result: TypeResolution, catalog: TypeCatalog) -> String? {
        if let file = result.source { return "rule from the system MIME database (\(file))" }
        if case .system(let file)? = catalog.origin(of: result.type) { return "type from the system MIME database (\(file))" }
        return nil
    }
}
