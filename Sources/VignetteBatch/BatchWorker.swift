import Foundation
import VignetteCache
import VignetteCore
public import VignetteGenerators
import VignetteImaging

/// Makes (or skips) the thumbnail of one file: the cache decisions of a batch; shared by the worker threads.
public final class BatchWorker: @unchecked Sendable {
    let pipeline: ThumbnailPipeline
    let destination: BatchDestination
    let force: Bool
    let retryFailed: Bool
    let dryRun: Bool

    /// The fail-entry key that tells a recorded fallback icon from a real failure.
    static let outcomeKey = "Vignette::Outcome"

    /// A worker writing to `destination`: `force` remakes valid thumbnails, `retryFailed` retries
    /// recorded failures, `dryRun` only says what would be done.
    public init(pipeline: ThumbnailPipeline, destination: BatchDestination, force: Bool, retryFailed: Bool, dryRun: Bool) {
        self.pipeline = pipeline
        self.destination = destination
        self.force = force
        self.retryFailed = retryFailed
        self.dryRun = dryRun
    }

    /// The request for the largest thumbnail of a file: the largest flavor's box, or --size and --crop.
    var request: ThumbnailRequest {
        switch destination {
        case .cache(_, let flavors): ThumbnailRequest(maxPixelSize: flavors.map(\.pixelSize).max() ?? ThumbnailFlavor.large.pixelSize)
        case .folder(_, let size, _, let crop): ThumbnailRequest(maxPixelSize: size, crop: crop)
        }
    }

    /// Processes one file; never throws (every problem becomes a failed outcome).
    public func process(_ file: WalkedFile) -> BatchOutcome {
        let start = Date()
        var outcome: BatchOutcome
        do {
            outcome = try run(file)
        } catch {
            outcome = BatchOutcome(path: file.displayPath, result: .failed, error: Self.reason(error))
            outcome.errorCode = (error as? VignetteError)?.code ?? .io
        }
        outcome.seconds = Date().timeIntervalSince(start)
        return outcome
    }

    private func run(_ file: WalkedFile) throws -> BatchOutcome {
        let source = try SourceFile(path: file.absolutePath)
        switch destination {
        case .cache(let cache, let flavors):
            var needed = flavors
            if !force {
                needed = []
                for flavor in flavors {
                    switch cache.state(of: source, flavor: flavor) {
                    case .valid:
                        continue
                    case .failed(let entry) where !retryFailed:
                        // The fail entry is shared by every flavor: a recorded icon means "no
                        // generator for this type", nothing to redo in any of them.
                        let icon = entry.text[Self.outcomeKey] == "icon"
                        return BatchOutcome(path: file.displayPath, result: icon ? .upToDate : .knownFailure)
                    default:
                        needed.append(flavor)
                    }
                }
            }
            let first = cache.thumbnailPath(for: source, flavor: flavors[0])
            if needed.isEmpty { return BatchOutcome(path: file.displayPath, result: .upToDate, thumbnail: first) }
            if dryRun {
                return BatchOutcome(
                    path: file.displayPath, result: .wouldGenerate, thumbnail: cache.thumbnailPath(for: source, flavor: needed[0]))
            }
            return try generate(file, source: source, sizes: needed.map(\.pixelSize)) { renderings in
                if renderings[0].isFallbackIcon {
                    // The desktop draws its own type icons: the cache gets a fail entry instead of ours,
                    // so the file is not retried until it changes (or --retry-failed).
                    let outcome = renderings[0].problem == nil ? "icon" : "failed"
                    try cache.storeFailure(for: source, mimeType: renderings[0].mimeType, extra: [(Self.outcomeKey, outcome)])
                    return nil
                }
                for (flavor, rendered) in zip(needed, renderings) {
                    try cache.store(
                        rendered.thumbnail.bitmap, for: source, flavor: flavor, mimeType: rendered.mimeType,
                        imageSize: rendered.thumbnail.originalSize)
                }
                return first
            } failed: { input in
                let mime = input.map { self.pipeline.registry.catalog.preferredMIMEType(of: $0.type) }
                _ = try? cache.storeFailure(for: source, mimeType: mime, extra: [(Self.outcomeKey, "failed")])
            }
        case .folder(let dir, let size, let output, let crop):
            let target = dir + "/" + file.relativePath + "." + output.format.fileExtension
            if !force, Self.folderThumbnailIsCurrent(target, source: source, size: size, crop: crop, format: output.format) {
                return BatchOutcome(path: file.displayPath, result: .upToDate, thumbnail: target)
            }
            if dryRun { return BatchOutcome(path: file.displayPath, result: .wouldGenerate, thumbnail: target) }
            return try generate(file, source: source, sizes: [size]) { renderings in
                let rendered = renderings[0]
                let text =
                    ThumbnailKeys.text(
                        for: source, mimeType: rendered.mimeType, imageSize: rendered.thumbnail.originalSize,
                        software: "vignette \(VignetteVersion.string)") + [(Self.sizeKey, String(size))]
                    + (crop == .fit ? [] : [(Self.cropKey, crop.rawValue)])
                // zlib level 1 (as in the cache): cheaper to write, barely larger.
                let bytes = try output.encode(rendered.thumbnail.bitmap, text: text, compression: 1)
                let parent = (target as NSString).deletingLastPathComponent
                if !FileManager.default.fileExists(atPath: parent) {
                    try DirectoryMaker.create(parent, purpose: "cannot create the output directory")
                }
                try AtomicFile.write(bytes, to: target)
                // The thumbnail carries its original's modification time: equal means up to date.
                Self.setModificationTime(target, source)
                return target
            } failed: { _ in
            }
        }
    }

    /// Runs the pipeline once for every size in `sizes` (one decode, at the largest) and `store`;
    /// sorts the result into generated, icon or failed.
    private func generate(
        _ file: WalkedFile, source: SourceFile, sizes: [Int], store: ([RenderedThumbnail]) throws -> String?,
        failed: (GeneratorInput?) -> Void
    ) throws -> BatchOutcome {
        var input: GeneratorInput? = nil
        let renderings: [RenderedThumbnail]
        do {
            let opened = try pipeline.input(path: file.absolutePath)
            input = opened
            renderings = try pipeline.render(opened, request: request, sizes: sizes)
        } catch {
            if Self.isAboutTheContent(error) { failed(input) }
            throw error
        }
        // A failure to write (a full disk, a read-only cache) is no fact about the file: it gets
        // no fail entry, so the next run tries again.
        let written: String?
        do {
            written = try store(renderings)
        } catch let error as VignetteError {
            // The error names the thumbnail; the outcome names the file, so say what was written where.
            throw VignetteError(error.code, path: file.displayPath, "its thumbnail could not be written: \(error.description)")
        }
        let rendered = renderings[0]
        if let problem = rendered.problem {
            // A generator failed on the file (a damaged image, a limit): the icon is no success.
            var outcome = BatchOutcome(
                path: file.displayPath, result: .failed, generator: rendered.generator, thumbnail: written, error: problem.description)
            outcome.errorCode = problem.errorCode ?? .corrupt
            return outcome
        }
        return BatchOutcome(
            path: file.displayPath, result: rendered.isFallbackIcon ? .icon : .generated, generator: rendered.generator,
            thumbnail: written)
    }

    /// Whether `error` says something about the file's content (damaged, over a limit), which a
    /// fail entry may record until the file changes, rather than about reaching it (missing,
    /// unreadable, an I/O error), which may pass without the file changing.
    static func isAboutTheContent(_ error: any Error) -> Bool {
        guard let code = (error as? VignetteError)?.code else { return true }
        return ![.notFound, .isDirectory, .notRegularFile, .brokenSymlink, .permissionDenied, .io, .invalidRequest].contains(code)
    }

    /// The error's reason without the path (outcomes carry the path themselves).
    static func reason(_ error: any Error) -> String {
        if let e = error as? VignetteError { return e.reason }
        return "\(error)"
    }

    /// The PNG key that records the `--size` an `--out` thumbnail was made at.
    static let sizeKey = "Vignette::Request::Size"

    /// The PNG key that records an `--out` thumbnail's `--crop` (absent for `fit`).
    static let cropKey = "Vignette::Request::Crop"

    /// Whether an `--out` thumbnail is up to date: a PNG's keys match the file (as in the cache), the
    /// size and the crop asked for; other formats (which have no keys) have exactly the file's
    /// modification time.
    static func folderThumbnailIsCurrent(_ path: String, source: SourceFile, size: Int, crop: ThumbnailCrop, format: ImageFormat)
        -> Bool
    {
        guard format == .png else { return modificationMatches(path, source) }
        guard let entry = CacheEntry(path: path) else { return false }
        return entry.isValid(for: source) && entry.text[sizeKey] == String(size) && (entry.text[cropKey] ?? "fit") == crop.rawValue
    }

    /// Whether `path` exists with exactly `source`'s modification time.
    static func modificationMatches(_ path: String, _ source: SourceFile) -> Bool {
        var st = stat()
        guard stat(path, &st) == 0 else { return false }
        return Int(st.st_mtim.tv_sec) == source.modificationSeconds && Int(st.st_mtim.tv_nsec) == source.modificationNanoseconds
    }

    /// Gives `path` the modification time of `source`.
    static func setModificationTime(_ path: String, _ source: SourceFile) {
        let time = timespec(tv_sec: source.modificationSeconds, tv_nsec: source.modificationNanoseconds)
        var times = [time, time]
        _ = utimensat(AT_FDCWD, path, &times, 0)
    }
}
