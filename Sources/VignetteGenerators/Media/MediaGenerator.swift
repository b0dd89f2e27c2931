public import VignetteCore
public import VignetteImaging

/// Audio and video files as what they hold: duration, container, streams and tags as the
/// preview; a frame about 10 % in that is not black (video) or the embedded cover (audio) as the
/// thumbnail; read by FFmpeg's libraries in a child process (`MediaReader`).
///
/// In a child rather than in-process with the same limits: demuxers and decoders are a large
/// body of C parsing hostile input, and only a process boundary turns a crash, a hang or runaway
/// memory into an error. The libraries are loaded with `dlopen` there only, so no command pays
/// for loading libavcodec and its eighty dependencies unless it reads a media file. Files are
/// read where they lie (a film is never loaded whole); uploads are read from memory.
public struct MediaGenerator: BuiltInGenerator, ThumbnailGenerating, PreviewGenerating {
    /// `media`.
    public let identifier = "media"
    /// Audio and video (`public.audio`, `public.movie` and their subtypes).
    public let supportedTypes = ["public.audiovisual-content"]

    private let readerLimits: MediaReader.Limits
    private let thumbnailer: ImageThumbnailer

    /// A generator decoding covers with `imageLimits` and reading within `limits`.
    public init(catalog: TypeCatalog, imageLimits: ImageLimits = .standard, limits: MediaReader.Limits = MediaReader.Limits()) {
        self.readerLimits = limits
        self.thumbnailer = ImageThumbnailer(resolver: TypeResolver(catalog: catalog), limits: imageLimits)
    }

    /// A frame about 10 % in that is not black, else the cover picture at the requested size;
    /// declines a file with neither (audio without a cover).
    public func makeThumbnail(for input: GeneratorInput, request: ThumbnailRequest) throws -> GeneratedThumbnail {
        let contents = try read(input, thumbnailSide: max(request.targetPixels, 1))
        let warnings = contents.thumbnailNote.map { [$0] } ?? []
        switch contents.thumbnail {
        case .frame(let bitmap, _, _):
            return GeneratedThumbnail(bitmap: bitmap, warnings: warnings, originalSize: contents.streams(.video).first?.displaySize)
        case .picture(let bytes):
            let type = thumbnailer.resolver.resolve(bytes: bytes, filename: nil).type
            do {
                let image = try thumbnailer.thumbnail(bytes: bytes, type: type, request: request)
                return GeneratedThumbnail(bitmap: image.bitmap, warnings: warnings + image.warnings)
            } catch let error as VignetteError {
                throw VignetteError(error.code, "the cover picture: \(error.reason)")
            }
        case nil:
            let why = contents.thumbnailNote ?? "no picture in the file"
            // A file with video whose frames cannot be decoded is damaged; audio without a cover
            // simply has nothing to show, and the next generator (the icon) answers.
            throw VignetteError(contents.streams(.video).isEmpty ? .declined : .corrupt, why)
        }
    }

    /// Duration, container, bit rate, one line a stream, then the tags.
    public func makePreview(for input: GeneratorInput, request: PreviewRequest) throws -> TextPreview {
        MediaPreview(try read(input, thumbnailSide: 0)).preview
    }

    private func read(_ input: GeneratorInput, thumbnailSide: Int) throws -> MediaContents {
        do {
            // The reader is a fork of this process: the descriptor path of an opened input
            // (/proc/self/fd/N) names the same file there.
            if let path = input.path { return try MediaReader.read(path: path, thumbnailSide: thumbnailSide, limits: readerLimits) }
            return try MediaReader.read(try input.contents(limit: Int.max), thumbnailSide: thumbnailSide, limits: readerLimits)
        } catch let error as VignetteError where error == MediaReader.unknownFormat {
            // MIDI, trackers FFmpeg was built without, a misnamed file: not damage, just not ours.
            throw VignetteError(.declined, error.reason)
        }
    }
}
