import Foundation
import VignetteCore
import VignetteGenerators

/// Which type declarations and generator manifests are known: what CatalogOptions (and RegistryOptions, which
/// declares the same options) chose on the command line.
struct CatalogSelection {
    /// `--types` files, in the order given.
    var typeFiles: [String]
    /// `--generators` folders, in the order given.
    var generatorDirectories: [String]
    /// `--no-system-types`.
    var noSystemTypes: Bool

    /// The built-in catalog, the system MIME database, and custom declarations from `--types`
    /// and `$VIGNETTE_TYPES` (colon-separated). Problems in system packages are warnings.
    func declaredCatalog(writingTypeCache: Bool = true, environment: [String: String]) throws -> TypeCatalog {
        let fromEnvironment = (environment["VIGNETTE_TYPES"] ?? "").split(separator: ":").map(String.init)
        let files = fromEnvironment + typeFiles
        let base: TypeCatalog
        if !noSystemTypes, environment["VIGNETTE_SYSTEM_TYPES"] != "0" {
            let (catalog, problems) = TypeCatalog.builtInWithSystem(environment: environment, writingCache: writingTypeCache)
            for problem in problems { Diagnostics.warn(path: problem.path ?? "", problem.reason) }
            base = catalog
        } else {
            base = TypeCatalog.builtIn
        }
        do {
            return try base.adding(declarationFiles: files)
        } catch let error as VignetteError {
            // A variable set long ago is easily forgotten: say where a file nobody typed came from.
            guard let path = error.path, fromEnvironment.contains(path), !typeFiles.contains(path) else { throw error }
            throw VignetteError(error.code, path: path, error.reason + " (named in $VIGNETTE_TYPES)")
        }
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
