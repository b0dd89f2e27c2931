import Foundation
import VignetteCore
import VignetteGenerators

/// Paths to the fixtures and inputs over them.
enum GeneratorFixtures {
    static let root: String = {
        Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.path
    }()

    static let registry = BuiltInGenerators.makeRegistry()

    static func path(_ relative: String) -> String { root + "/" + relative }

    /// An input over the fixture file, its type resolved with the built-in catalog.
    static func input(_ relative: String) throws -> GeneratorInput {
        try GeneratorInput(path: path(relative), resolver: TypeResolver(catalog: registry.catalog))
    }

    /// An input over the fixture's bytes, as an upload with the given name.
    static func upload(_ relative: String, as name: String? = nil) throws -> GeneratorInput {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path(relative))))
        return GeneratorInput(
            bytes: bytes, filename: name ?? (relative as NSString).lastPathComponent, resolver: TypeResolver(catalog: registry.catalog))
    }
}
