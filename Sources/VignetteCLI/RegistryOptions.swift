import ArgumentParser
import Foundation
import VignetteCore
import VignetteGenerators
import VignetteImaging

/// Options that choose the known types and generators, shared by every command that previews.
struct RegistryOptions: ParsableArguments {
    // CatalogOptions' options, declared again rather than as a nested `@OptionGroup`: ArgumentParser reflects,
    // casts and decodes every option group on each parse, about 1.5 million instructions of the 24 million a
    // thumbnail's parse costs, mostly scans of the program's whole conformance table. Help and parsing are the same.
    @Option(name: .customLong("types"), parsing: .unconditionalSingleValue, help: CatalogOptions.typeFilesHelp)
    var typeFiles: [String] = []

    @Option(name: .customLong("generators"), parsing: .unconditionalSingleValue, help: CatalogOptions.generatorDirectoriesHelp)
    var generatorDirectories: [String] = []

    @Flag(name: .customLong("no-system-types"), help: CatalogOptions.noSystemTypesHelp)
    var noSystemTypes = false

    @Option(
        name: .long, parsing: .unconditional,
        help: "Refuse images with more pixels than this many million (from the header, before decoding).")
    var maxMegapixels: Double = 100

    /// `--max-file-megabytes` when not given.
    static let defaultMaxFileMegabytes: Double = 512

    @Option(name: .long, parsing: .unconditional, help: "Refuse input files larger than this many megabytes (image decoding).")
    var maxFileMegabytes = Self.defaultMaxFileMegabytes

    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp(
            "Decode memory, in megabytes, that all images being made at once may hold: an image needing more alone is refused, others wait their turn (default: a quarter of physical memory).",
            valueName: "MB"))
    var maxMemory: Double?

    @Flag(name: .long, help: "Ignore freedesktop .thumbnailer files ($XDG_DATA_HOME/thumbnailers, $XDG_DATA_DIRS/thumbnailers).")
    var noSystemThumbnailers = false

    func validate() throws {
        try OptionBounds.positive(maxMegapixels, "--max-megapixels", atMost: 1_000_000)
        try OptionBounds.positive(maxFileMegabytes, "--max-file-megabytes", atMost: 1_000_000_000, "megabytes")
        if let maxMemory { try OptionBounds.positive(maxMemory, "--max-memory", atMost: 1_000_000_000, "megabytes") }
    }

    /// Image decoding caps from the options (every call shares one memory budget).
    var imageLimits: ImageLimits {
        let budget = maxMemory.map { Int($0 * 1_000_000) } ?? Int(ProcessInfo.processInfo.physicalMemory / 4)
        return ImageLimits(
            maxPixels: Int(maxMegapixels * 1_000_000), maxFileBytes: Int(maxFileMegabytes * 1_000_000),
            memoryBudget: MemoryBudget.shared(bytes: budget))
    }

    /// The catalog and a registry holding the built-in generators, then the external ones
    /// (system thumbnailers, shipped and user manifests); manifest problems go to stderr.
    func makeRegistry(writingTypeCache: Bool = true) throws -> GeneratorRegistry {
        try load(writingTypeCache: writingTypeCache).registry
    }

    /// Everything loading found: catalog, registry, and the generators left out because their program is absent.
    func load(writingTypeCache: Bool = true) throws -> GeneratorLoader.Result {
        try CatalogSelection(typeFiles: typeFiles, generatorDirectories: generatorDirectories, noSystemTypes: noSystemTypes).load(
            systemThumbnailers: !noSystemThumbnailers, options: .init(imageLimits: imageLimits), writingTypeCache: writingTypeCache)
    }
}
