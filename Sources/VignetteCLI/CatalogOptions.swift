import ArgumentParser
import Foundation
import VignetteCore

/// Options that choose which type declarations are known.
struct CatalogOptions: ParsableArguments {
    @Option(
        name: .customLong("types"),
        help: ArgumentHelp(
            "A custom type declaration file (JSON, see README); may be repeated.",
            valueName: "FILE"))
    var typeFiles: [String] = []

    /// The built-in catalog plus custom declarations from `--types` and `$VIGNETTE_TYPES` (colon-separated).
    func catalog() throws -> TypeCatalog {
        var files = typeFiles
        if let env = ProcessInfo.processInfo.environment["VIGNETTE_TYPES"], !env.isEmpty {
            files = env.split(separator: ":").map(String.init) + files
        }
        return try TypeCatalog.builtIn.adding(declarationFiles: files)
    }
}
