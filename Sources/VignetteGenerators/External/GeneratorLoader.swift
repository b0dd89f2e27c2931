import Foundation
public import VignetteCore
import VignetteImaging

/// Builds the catalog and registry a program uses: built-ins, then external generators.
///
/// Order, later overriding earlier (same identifier replaces; equal rank goes to the later):
/// built-in generators; freedesktop `.thumbnailer` files (priority `generic`, so built-ins win
/// for types they handle); manifests in the shipped `Generators/`, then
/// `$XDG_DATA_HOME/vignette/generators`, then `--generators`/`$VIGNETTE_GENERATORS`.
/// Types declared by manifests join the catalog before anything is resolved. A broken
/// manifest becomes a warning and never stops the others.
public enum GeneratorLoader {
    /// Where to look, and for what.
    public struct Configuration: Sendable {
        /// The catalog to extend (built-in types plus any `--types` files).
        public var baseCatalog: TypeCatalog
        /// Settings for the built-in generators.
        public var builtInOptions: BuiltInGenerators.Options
        /// Manifest folders, lowest precedence first; a missing folder is a warning only when `required`.
        public var manifestDirectories: [Folder]
        /// Folders of `.thumbnailer` files, highest precedence first (freedesktop order); empty turns them off.
        public var thumbnailerDirectories: [String]
        /// The environment (PATH for `tryExec`); nil in the initialisers means this process's.
        public var environment: [String: String]

        /// Creates a configuration.
        public init(
            baseCatalog: TypeCatalog = .builtIn, builtInOptions: BuiltInGenerators.Options = .init(),
            manifestDirectories: [Folder] = [], thumbnailerDirectories: [String] = [],
            environment: [String: String]? = nil
        ) {
            self.baseCatalog = baseCatalog
            self.builtInOptions = builtInOptions
            self.manifestDirectories = manifestDirectories
            self.thumbnailerDirectories = thumbnailerDirectories
            self.environment = environment ?? ProcessInfo.processInfo.environment
        }

        /// The standard places: shipped `Generators/`, `$XDG_DATA_HOME/vignette/generators`, then
        /// `$VIGNETTE_GENERATORS` (colon-separated) and `extra` (`--generators`), which must exist;
        /// `.thumbnailer` files from `$XDG_DATA_HOME/thumbnailers` and `$XDG_DATA_DIRS/thumbnailers`
        /// unless `systemThumbnailers` is false.
        public static func standard(
            baseCatalog: TypeCatalog = .builtIn, builtInOptions: BuiltInGenerators.Options = .init(),
            extra: [String] = [], systemThumbnailers: Bool = true,
            environment: [String: String]? = nil
        ) -> Configuration {
            let environment = environment ?? ProcessInfo.processInfo.environment
            let xdg = XDGDirectories(environment: environment)
            let dataHome = xdg.dataHome
            let dataDirs = xdg.dataDirectories
            var folders: [Folder] = []
            if let shipped = BuiltInResources.directory(named: "Generators") { folders.append(Folder(shipped)) }
            folders.append(Folder(dataHome + "/vignette/generators"))
            let fromEnv = (environment["VIGNETTE_GENERATORS"] ?? "").split(separator: ":").map(String.init)
            folders += fromEnv.map { Folder($0, required: true, namedIn: "$VIGNETTE_GENERATORS") }
            folders += extra.map { Folder($0, required: true) }
            return Configuration(
                baseCatalog: baseCatalog, builtInOptions: builtInOptions, manifestDirectories: folders,
                thumbnailerDirectories: systemThumbnailers ? [dataHome + "/thumbnailers"] + dataDirs.map { $0 + "/thumbnailers" } : [],
                environment: environment)
        }
    }

    /// A folder to scan.
    public struct Folder: Sendable, Equatable {
        /// Its path.
        public var path: String
        /// Whether its absence is worth a warning (the user named it).
        public var required: Bool
        /// Where the user named it when not on the command line ("$VIGNETTE_GENERATORS"), for the warning.
        public var namedIn: String?
        /// Creates a folder entry.
        public init(_ path: String, required: Bool = false, namedIn: String? = nil) {
            self.path = path
            self.required = required
            self.namedIn = namedIn
        }
    }

    /// A generator that was found but not loaded because its program is absent.
    public struct Skipped: Sendable, Equatable {
        /// The generator's identifier.
        public let identifier: String
        /// The manifest or `.thumbnailer` file.
        public let origin: String
        /// Why, e.g. "ffmpegthumbnailer is not installed".
        public let reason: String
        /// What it would have made.
        public let kind: ExternalGeneratorSpec.Kind
        /// The types it would have answered for.
        public let types: [String]
    }

    /// What loading produced.
    public struct Result: Sendable {
        /// The built-in catalog plus the manifests' types.
        public let catalog: TypeCatalog
        /// Built-in and external generators.
        public let registry: GeneratorRegistry
        /// Problems with manifests and `.thumbnailer` files (each names its file), in the order found.
        public let warnings: [VignetteError]
        /// Generators left out because their program is absent.
        public let skipped: [Skipped]
    }

    /// Loads everything the configuration names.
    public static func load(_ configuration: Configuration) -> Result {
        var warnings: [VignetteError] = []
        var manifests: [GeneratorManifest] = []
        for folder in configuration.manifestDirectories {
            guard let files = listing(folder, suffix: ".json", warnings: &warnings) else { continue }
            for file in files {
                do { manifests.append(try GeneratorManifest.load(contentsOf: file)) } catch let error as VignetteError {
                    warnings.append(error)
                } catch {
                    warnings.append(VignetteError(.invalidDeclaration, path: file, "\(error)"))
                }
            }
        }
        let (catalog, accepted) = addTypes(of: manifests, to: configuration.baseCatalog, warnings: &warnings)
        let registry = BuiltInGenerators.makeRegistry(catalog: catalog, options: configuration.builtInOptions)
        var skipped: [Skipped] = []
        let finder = ProgramFinder(environment: configuration.environment)
        let imageLimits = configuration.builtInOptions.imageLimits
        // Freedesktop precedence: the first folder wins, so register it last (same identifier replaces).
        for dir in configuration.thumbnailerDirectories.reversed() {
            for file in listing(Folder(dir), suffix: ".thumbnailer", warnings: &warnings) ?? [] {
                do {
                    let entry = try ThumbnailerFile.load(contentsOf: file)
                    let spec = thumbnailerSpec(entry, catalog: catalog)
                    if let why = finder.missingReason(program: entry.tryExec ?? entry.exec.arguments[0], exec: entry.exec) {
                        skipped.append(Skipped(identifier: spec.identifier, origin: file, reason: why, kind: .thumbnail, types: spec.types))
                        continue
                    }
                    registry.register(ExternalThumbnailGenerator(spec: spec, catalog: catalog, imageLimits: imageLimits))
                } catch let error as VignetteError {
                    warnings.append(error)
                } catch {
                    warnings.append(VignetteError(.invalidDeclaration, path: file, "\(error)"))
                }
            }
        }
        for manifest in accepted {
            let g = manifest.generator
            if let unknown = g.types.enumerated().first(where: { catalog.type(withIdentifier: $0.element) == nil }) {
                warnings.append(
                    GeneratorManifest.problem(
                        manifest.path, "generator.types[\(unknown.offset)]", "unknown content type \(unknown.element)"))
                continue
            }
            var types = g.types
            for mime in g.mimeTypes {
                let id = catalog.type(forMIMEType: mime).identifier
                if !types.contains(id) { types.append(id) }
            }
            var spec = ExternalGeneratorSpec(
                identifier: g.identifier, kind: g.kind, types: types, exec: g.exec, tryExec: g.tryExec, priority: g.priority,
                timeoutSeconds: g.timeoutSeconds, maxFileBytes: g.maxFileBytes,
                maxMemoryBytes: g.maxMemoryBytes ?? ExternalGeneratorSpec.defaultMaxMemoryBytes, origin: manifest.path)
            spec.maxCPUSeconds = g.maxCPUSeconds
            spec.maxWriteBytes = g.maxWriteBytes ?? ExternalGeneratorSpec.defaultMaxWriteBytes
            spec.maxProcesses = g.maxProcesses ?? ExternalGeneratorSpec.defaultMaxProcesses
            spec.environment = g.environment
            spec.sandbox = g.sandbox
            if let why = finder.missingReason(program: g.tryExec ?? g.exec.arguments[0], exec: g.exec) {
                skipped.append(Skipped(identifier: g.identifier, origin: manifest.path, reason: why, kind: g.kind, types: types))
                continue
            }
            switch g.kind {
            case .thumbnail: registry.register(ExternalThumbnailGenerator(spec: spec, catalog: catalog, imageLimits: imageLimits))
            case .text, .html: registry.register(ExternalPreviewGenerator(spec: spec, catalog: catalog, imageLimits: imageLimits))
            }
        }
        return Result(catalog: catalog, registry: registry, warnings: warnings, skipped: skipped)
    }

    /// The catalog with every manifest's types; a manifest whose types cannot join is dropped with a warning.
    static func addTypes(
        of manifests: [GeneratorManifest], to base: TypeCatalog, warnings: inout [VignetteError]
    ) -> (TypeCatalog, [GeneratorManifest]) {
        let declaring = manifests.filter {
            !($0.declarations.types + $0.declarations.exportedTypes + $0.declarations.importedTypes).isEmpty
        }
        if let all = try? base.adding(files: declaring.map { ($0.path, $0.declarations) }) { return (all, manifests) }
        // Some manifest is at fault: add them one at a time to name it and keep the rest.
        var catalog = base
        var accepted: [GeneratorManifest] = []
        for manifest in manifests {
            guard declaring.contains(where: { $0.path == manifest.path }) else {
                accepted.append(manifest)
                continue
            }
            do {
                catalog = try catalog.adding(files: [(manifest.path, manifest.declarations)])
                accepted.append(manifest)
            } catch let error as VignetteError {
                warnings.append(error.path == nil ? error.about(manifest.path) : error)
            } catch {
                warnings.append(VignetteError(.invalidDeclaration, path: manifest.path, "\(error)"))
            }
        }
        return (catalog, accepted)
    }

    /// A `.thumbnailer` file as a generator: `thumbnailer:NAME`, priority generic, its MIME types as content types.
    static func thumbnailerSpec(_ entry: ThumbnailerFile, catalog: TypeCatalog) -> ExternalGeneratorSpec {
        var types: [String] = []
        for mime in entry.mimeTypes {
            let id = catalog.type(forMIMEType: mime.lowercased()).identifier
            if !types.contains(id) { types.append(id) }
        }
        let name = ((entry.path as NSString).lastPathComponent as NSString).deletingPathExtension
        return ExternalGeneratorSpec(
            identifier: "thumbnailer:" + name, kind: .thumbnail, types: types, exec: entry.exec, tryExec: entry.tryExec,
            priority: .generic, origin: entry.path)
    }

    /// The sorted files ending in `suffix` directly in `folder`; nil (with a warning if required) when it cannot be listed.
    static func listing(_ folder: Folder, suffix: String, warnings: inout [VignetteError]) -> [String]? {
        guard let names = DirectoryListing.names(in: folder.path) else {
            if folder.required { warnings.append(unreadable(folder)) }
            return nil
        }
        let base = folder.path.hasSuffix("/") ? String(folder.path.dropLast()) : folder.path
        return names.filter { $0.hasSuffix(suffix) && !$0.hasPrefix(".") }.sorted().map { base + "/" + $0 }
    }

    /// Why a generators folder the user named cannot be listed: "no such folder", "not a folder of
    /// generator manifests", "folder cannot be read: permission denied", with "(named in
    /// $VIGNETTE_GENERATORS)" when it came from there.
    static func unreadable(_ folder: Folder) -> VignetteError {
        var st = stat()
        let reason: String
        let code: VignetteError.Code
        if stat(folder.path, &st) != 0 {
            let saved = errno
            code = saved == ENOENT || saved == ENOTDIR ? .notFound : .permissionDenied
            reason = code == .notFound ? "no such folder" : "cannot be read: \(String(cString: strerror(saved)).lowercased())"
        } else if st.st_mode & S_IFMT != S_IFDIR {
            code = .notFound
            reason = "not a folder of generator manifests"
        } else {
            code = .permissionDenied
            reason = "folder cannot be read: permission denied"
        }
        return VignetteError(code, path: folder.path, reason + (folder.namedIn.map { " (named in \($0))" } ?? ""))
    }

}
