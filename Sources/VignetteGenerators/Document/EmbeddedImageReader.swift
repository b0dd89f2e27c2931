import VignetteCore
import VignetteImaging

/// Decodes a JPEG or PNG stored inside a zip-based document at the requested size.
struct EmbeddedImageReader {
    /// Decodes images (and resolves their types by content).
    let thumbnailer: ImageThumbnailer
    /// Most uncompressed bytes of an embedded image read.
    var maxBytes: Int = ZipEntryReader.defaultMaxBytes

    /// The archive and its directory, or a failure naming what is wrong with the zip.
    static func open(_ input: GeneratorInput) throws -> (FileSample, ZipDirectory) {
        let sample = try input.randomAccess()
        guard let directory = ZipDirectory(sample) else {
            throw VignetteError(.corrupt, "no valid zip central directory (end record missing or damaged)")
        }
        return (sample, directory)
    }

    /// The entry's bytes, capped (for small XML parts too).
    func contents(of entry: ZipDirectory.Entry, in sample: FileSample, limit: Int? = nil) throws -> [UInt8] {
        try ZipEntryReader(sample: sample, maxBytes: limit ?? maxBytes).contents(of: entry)
    }

    /// A thumbnail of the image stored in `entry`; declines when it is not a JPEG or PNG.
    func thumbnail(of entry: ZipDirectory.Entry, in sample: FileSample, request: ThumbnailRequest) throws -> GeneratedThumbnail {
        let bytes = try contents(of: entry, in: sample)
        let type = thumbnailer.resolver.resolve(bytes: bytes, filename: nil).type
        let catalog = thumbnailer.resolver.catalog
        guard catalog.conforms(type, to: "public.jpeg") || catalog.conforms(type, to: "public.png") else {
            throw VignetteError(.declined, "\(entry.name) is \(type.localizedDescription), not a JPEG or PNG image")
        }
        do {
            let image = try thumbnailer.thumbnail(bytes: bytes, type: type, request: request)
            return GeneratedThumbnail(bitmap: image.bitmap, warnings: image.warnings)
        } catch let error as VignetteError where error.code == .refused {
            // Only the stored picture is over the limits: a generator that renders the document
            // itself may still draw it, so this is no refusal of the file.
            throw VignetteError(.limitExceeded, "\(entry.name): \(error.reason)")
        }
    }
}
