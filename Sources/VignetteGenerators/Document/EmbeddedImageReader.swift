import VignetteCore
import VignetteImaging

/// Decodes a JPEG or PNG (or, where allowed, a Windows metafile) stored inside a zip-based document
/// at the requested size.
struct EmbeddedImageReader {
    /// Decodes images (and resolves their types by content).
    let thumbnailer: ImageThumbnailer
    /// Most uncompressed bytes of an embedded image read.
    var maxBytes: Int = ZipEntryReader.defaultMaxBytes
    /// Whether a picture of one colour all over is declined (an Office preview that shows
    /// nothing, as every file python-docx and python-pptx write carries), so that a generator
    /// drawing the document itself answers instead.
    var declinesBlank = false
    /// How far apart two channel values may be in a picture that counts as one colour (JPEG noise).
    static let blankTolerance: UInt8 = 3
    /// Whether a WMF or EMF is drawn too (Office's own previews are often metafiles).
    var drawsMetafiles = false

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

    /// A thumbnail of the image stored in `entry`; declines when it is not a JPEG or PNG (or a
    /// metafile, when `drawsMetafiles`).
    func thumbnail(of entry: ZipDirectory.Entry, in sample: FileSample, request: ThumbnailRequest) throws -> GeneratedThumbnail {
        try thumbnail(of: try contents(of: entry, in: sample), named: entry.name, request: request)
    }

    /// The same for `bytes` already read from the entry called `name`.
    func thumbnail(of bytes: [UInt8], named name: String, request: ThumbnailRequest) throws -> GeneratedThumbnail {
        let type = thumbnailer.resolver.resolve(bytes: bytes, filename: nil).type
        let catalog = thumbnailer.resolver.catalog
        let metafile =
            drawsMetafiles && (catalog.conforms(type, to: "com.microsoft.emf") || catalog.conforms(type, to: "com.microsoft.wmf"))
        guard catalog.conforms(type, to: "public.jpeg") || catalog.conforms(type, to: "public.png") || metafile else {
            let wanted = drawsMetafiles ? "a JPEG, PNG or Windows metafile" : "a JPEG or PNG image"
            throw VignetteError(.declined, "\(name) is \(type.localizedDescription), not \(wanted)")
        }
        do {
            let image = try thumbnailer.thumbnail(bytes: bytes, type: type, request: request)
            if declinesBlank, Self.isBlank(image.bitmap) {
                throw VignetteError(.declined, "\(name) is blank (one colour all over)")
            }
            return GeneratedThumbnail(bitmap: image.bitmap, warnings: image.warnings)
        } catch let error as VignetteError where error.code == .refused {
            // Only the stored picture is over the limits: a generator that renders the document
            // itself may still draw it, so this is no refusal of the file.
            throw VignetteError(.limitExceeded, "\(name): \(error.reason)")
        }
    }

    /// Whether every pixel of `bitmap` has the first pixel's colour, within `blankTolerance`.
    static func isBlank(_ bitmap: Bitmap) -> Bool {
        let p = bitmap.pixels
        guard p.count >= 4 else { return false }
        let first = (p[0], p[1], p[2], p[3])
        func near(_ a: UInt8, _ b: UInt8) -> Bool { (a > b ? a - b : b - a) <= blankTolerance }
        for i in stride(from: 0, to: p.count - 3, by: 4) {
            guard near(p[i], first.0), near(p[i + 1], first.1), near(p[i + 2], first.2), near(p[i + 3], first.3) else { return false }
        }
        return true
    }
}
