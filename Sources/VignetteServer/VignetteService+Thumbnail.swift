import Foundation
import HTTPTypes
import Hummingbird
import VignetteCache
import VignetteCore
import VignetteGenerators

extension VignetteService {
    /// `GET /v1/thumbnail?path=REL&size=&scale=&format=&quality=&icon=`: a file below the root.
    func thumbnail(path request: Request, _ context: VignetteRequestContext) async throws -> Response {
        let query = Self.query(request)
        let options = try ThumbnailOptions(query: query)
        let file = try servedFile(query)
        let key = key("thumbnail", file: file, options.keyParts)
        if let unchanged = notModified(request, key) { return unchanged }
        var headers: HTTPFields = [.eTag: key.etag, .cacheControl: cacheControl]
        let ext = options.output.format.fileExtension
        if let cache = configuration.cache {
            if let bytes = cache.read(key, extension: ext) {
                metrics.cache(hit: true)
                headers[.vignetteCache] = "hit"
                return Self.body(bytes, contentType: options.contentType, headers: headers)
            }
            metrics.cache(hit: false)
            headers[.vignetteCache] = "miss"
        }
        let pipeline = thumbnails
        let made = try await makeThumbnail(options) { try pipeline.input(opened: file.opened, displayPath: file.relative) }
        configuration.cache?.write(made.bytes, key: key, extension: ext)
        headers[.vignetteGenerator] = made.generator
        return Self.body(made.bytes, contentType: options.contentType, headers: headers)
    }

    /// `POST /v1/thumbnail?size=…&filename=NAME`: the body is the file.
    func thumbnail(upload request: Request, _ context: VignetteRequestContext) async throws -> Response {
        let query = Self.query(request)
        let options = try ThumbnailOptions(query: query)
        let reservation = try reserveForUpload(context)
        let file = try await upload(request, context, filename: query["filename"])
        let pipeline = thumbnails
        let made = try await makeThumbnail(options, in: reservation) { try pipeline.input(opened: file, displayPath: nil) }
        return Self.body(
            made.bytes, contentType: options.contentType, headers: [.cacheControl: "no-store", .vignetteGenerator: made.generator])
    }

    /// Runs the thumbnail pipeline on a worker.
    ///
    /// When the answer is only an icon because a generator refused the file over a limit
    /// (a pixel bomb), the refusal is the answer (422).
    func makeThumbnail(
        _ options: ThumbnailOptions, in reservation: WorkPool.Reservation? = nil,
        input makeInput: @escaping @Sendable () throws -> GeneratorInput
    ) async throws -> (bytes: [UInt8], generator: String) {
        let pipeline = thumbnails
        let result = try await pool.run(timeout: configuration.timeoutSeconds, in: reservation ?? pool.reserve()) {
            () throws -> ([UInt8], String) in
            let input = try makeInput()
            let rendered = try pipeline.render(input, request: options.request)
            if let refusal = rendered.refusal { throw refusal }
            return (try options.output.encode(rendered.thumbnail.bitmap), rendered.generator)
        }
        metrics.generated(by: result.1, capability: "thumbnail")
        return (result.0, result.1)
    }
}

extension HTTPField.Name {
    /// `X-Vignette-Generator`: which generator made the result.
    static var vignetteGenerator: Self { Self("X-Vignette-Generator")! }
    /// `X-Vignette-Cache`: `hit` or `miss` in the on-disk response cache.
    static var vignetteCache: Self { Self("X-Vignette-Cache")! }
}
