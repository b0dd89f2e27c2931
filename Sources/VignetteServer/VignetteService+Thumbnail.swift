import Foundation
import HTTPTypes
import Hummingbird
import VignetteCache
import VignetteCore
import VignetteGenerators
import VignetteImaging

extension VignetteService {
    /// `GET /v1/thumbnail?path=REL&size=&scale=&format=&quality=&icon=`: a file below the root.
    ///
    /// `format=auto` picks AVIF, WebP, or PNG/JPEG from `Accept`; every answer says `Vary: Accept`,
    /// so a shared cache never hands one client's format to another.
    func thumbnail(path request: Request, _ context: VignetteRequestContext) async throws -> Response {
        let query = Self.query(request)
        let options = try ThumbnailOptions(query: query).negotiated(accept: request.headers[.accept])
        let file = try servedFile(query)
        let key = key("thumbnail", file: file, options.keyParts)
        if var unchanged = notModified(request, key) {
            unchanged.headers[.vary] = "Accept"
            return unchanged
        }
        var headers: HTTPFields = [.eTag: key.etag, .cacheControl: cacheControl, .vary: "Accept"]
        // PNG-or-JPEG is decided by the picture: a cached answer is under either name.
        let formats: [ImageFormat] = options.pngOrJPEGByAlpha ? [.png, .jpeg] : [options.output.format]
        if let cache = configuration.cache {
            for format in formats {
                if let bytes = cache.read(key, extension: format.fileExtension) {
                    metrics.cache(hit: true)
                    headers[.vignetteCache] = "hit"
                    return Self.body(bytes, contentType: format.mediaType, headers: headers)
                }
            }
            metrics.cache(hit: false)
            headers[.vignetteCache] = "miss"
        }
        let pipeline = thumbnails
        let made = try await makeThumbnail(options) { try pipeline.input(opened: file.opened, displayPath: file.relative) }
        configuration.cache?.write(made.bytes, key: key, extension: made.format.fileExtension)
        headers[.vignetteGenerator] = made.generator
        return Self.body(made.bytes, contentType: made.format.mediaType, headers: headers)
    }

    /// `POST /v1/thumbnail?size=…&filename=NAME`: the body is the file.
    func thumbnail(upload request: Request, _ context: VignetteRequestContext) async throws -> Response {
        let query = Self.query(request)
        let options = try ThumbnailOptions(query: query).negotiated(accept: request.headers[.accept])
        let reservation = try reserveForUpload(context)
        let file = try await upload(request, context, filename: query["filename"])
        let pipeline = thumbnails
        let made = try await makeThumbnail(options, in: reservation) { try pipeline.input(opened: file, displayPath: nil) }
        return Self.body(
            made.bytes, contentType: made.format.mediaType,
            headers: [.cacheControl: "no-store", .vignetteGenerator: made.generator, .vary: "Accept"])
    }

    /// Runs the thumbnail pipeline on a worker.
    ///
    /// When the answer is only an icon because a generator refused the file over a limit
    /// (a pixel bomb), the refusal is the answer (422).
    func makeThumbnail(
        _ options: ThumbnailOptions, in reservation: WorkPool.Reservation? = nil,
        input makeInput: @escaping @Sendable () throws -> GeneratorInput
    ) async throws -> (bytes: [UInt8], generator: String, format: ImageFormat) {
        let pipeline = thumbnails
        let result = try await pool.run(timeout: configuration.timeoutSeconds, in: reservation ?? pool.reserve()) {
            () throws -> ([UInt8], String, ImageFormat) in
            let input = try makeInput()
            let rendered = try pipeline.render(input, request: options.request)
            if let refusal = rendered.refusal { throw refusal }
            let output = options.output(for: rendered.thumbnail.bitmap)
            return (try output.encode(rendered.thumbnail.bitmap), rendered.generator, output.format)
        }
        metrics.generated(by: result.1, capability: "thumbnail")
        return (result.0, result.1, result.2)
    }
}

extension HTTPField.Name {
    /// `X-Vignette-Generator`: which generator made the result.
    static var vignetteGenerator: Self { Self("X-Vignette-Generator")! }
    /// `X-Vignette-Cache`: `hit` or `miss` in the on-disk response cache.
    static var vignetteCache: Self { Self("X-Vignette-Cache")! }
}
