import ArgumentParser
import Foundation
import VignetteCore
import VignetteGenerators

/// Options that choose which type declarations (and generator manifests, which may declare types) are known.
struct CatalogOptions: ParsableArguments {
    @Option(
        name: .customLong("types"),
        help: ArgumentHelp(
            "A custom type declaration file (JSON, see README); may be repeated.",
            valueName: "FILE"))
    var typeFiles: [String] = []

    @Option(
        name: .customLong("generators"),
        help: ArgumentHelp(
            "A folder of generator manifests (*.json, see Generators/README.md), after the shipped ones and $XDG_DATA_HOME/vignette/generators; may be repeated. $VIGNETTE_GENERATORS lists more (colon-separated).",
            valueName: "DIR"))
    var generatorDirectories: [String] = []

    @Flag(
        name: .customLong("no-system-types"),
        help: "Do not read the system's shared-mime-info packages ($XDG_DATA_DIRS/mime/packages); also VIGNETTE_SYSTEM_TYPES=0.")
    var noSystemTypes = false

    /// The built-in catalog, the system MIME database, and custom declarations from `--types`
    /// and `$VIGNETTE_TYPES` (colon-separated). Problems in system packages are warnings.
    func declaredCatalog(writingTypeCache: Bool = true, environment: [String: String]) throws -> TypeCatalog {
        var files = typeFiles
        if let env = environment["VIGNETTE_TYPES"], !env.isEmpty {
            files = env.split(separator: ":").map(String.init) + files
        }
        let base: TypeCatalog
        if !noSystemTypes, environment["VIGNETTE_SYSTEM_TYPES"] != "0" {
            let (catalog, problems) = TypeCatalog.builtInWithSystem(environment: environment, writingCache: writingTypeCache)
            for problem in problems { Diagnostics.warn(path: problem.path ?? "", problem.reason) }
            base = catalog
        } else {
            base = TypeCatalog.builtIn
        }
        return try base.adding(declarationFiles: files)
    }

    /// Built-ins, `--types` files and the manifests' generators, with problems reported on stderr.
    func load(systemThumbnailers: Bool, options: BuiltInGenerators.Options = .init(), writingTypeCache: Bool = true) throws
        -> GeneratorLoader.Result
    {
        // Read once: each read of ProcessInfo's environment builds a new dictionary of every variable.
        let environment = ProcessInfo.processInfo.environment
        let configuration = GeneratorLoader.Configuration.standard(
            baseCatalog: try declaredCatalog(writingTypeCache: writingTypeCache, environment: environment), builtInOptions: options,
            extra: generatorDirectories, systemThumbnailers: systemThumbnailers, environment: environment)
        let result = GeneratorLoader.load(configuration)
        // A broken manifest never stops the command: say what is wrong and go on without it.
        for warning in result.warnings { Diagnostics.report(warning) }
        return result
    }

    /// The catalog commands resolve types with: declarations plus the types generator manifests declare.
    func catalog() throws -> TypeCatalog {
        try load(systemThumbnailers: false).catalog
    }
}
