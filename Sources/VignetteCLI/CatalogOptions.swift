import ArgumentParser
import VignetteCore

/// Options that choose which type declarations (and generator manifests, which may declare types) are known.
struct CatalogOptions: ParsableArguments {
    /// The help of `--types`, shared with RegistryOptions.
    static let typeFilesHelp = ArgumentHelp(
        "A custom type declaration file (JSON, see README); may be repeated.",
        valueName: "FILE")

    /// The help of `--generators`, shared with RegistryOptions.
    static let generatorDirectoriesHelp = ArgumentHelp(
        "A folder of generator manifests (*.json, see Generators/README.md), after the shipped ones and $XDG_DATA_HOME/vignette/generators; may be repeated. $VIGNETTE_GENERATORS lists more (colon-separated).",
        valueName: "DIR")

    /// The help of `--no-system-types`, shared with RegistryOptions.
    static let noSystemTypesHelp = ArgumentHelp(
        "Do not read the system's shared-mime-info packages ($XDG_DATA_DIRS/mime/packages); also VIGNETTE_SYSTEM_TYPES=0.")

    @Option(name: .customLong("types"), parsing: .unconditionalSingleValue, help: typeFilesHelp)
    var typeFiles: [String] = []

    @Option(name: .customLong("generators"), parsing: .unconditionalSingleValue, help: generatorDirectoriesHelp)
    var generatorDirectories: [String] = []

    @Flag(name: .customLong("no-system-types"), help: noSystemTypesHelp)
    var noSystemTypes = false

    /// What the options chose.
    var selection: CatalogSelection {
        CatalogSelection(typeFiles: typeFiles, generatorDirectories: generatorDirectories, noSystemTypes: noSystemTypes)
    }

    /// The catalog commands resolve types with: declarations plus the types generator manifests declare.
    func catalog() throws -> TypeCatalog {
        try selection.catalog()
    }
}
