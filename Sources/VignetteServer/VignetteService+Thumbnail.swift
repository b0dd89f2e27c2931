import Foundation
import HTTPTypes
import Hummingbird
import VignetteCache
import VignetteCore
import VignetteGenerators
import VignetteImaging

extension VignetteService {
    /// `GET /v1/thumbnail?path=REL&size=&scale=&format=&quality=&icon=&crop=`: a file below the root.
    ///
    /// `format=auto` picks AVIF, WebP, or PNG/JPEG from `Accept`; every answer says `Vary: Accept`,
    /// so a shared cache never hands one client's format to another. Several sizes
    /// (`size=64,256,1024`) come from one decode as one `multipart/mixed` answer.
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
        let several = options.sizes.count > 1
        let boundary = Self.boundary(key)
        let formats: [ImageFormat] = options.pngOrJPEGByAlpha ? [.png, .jpeg] : [options.output.format]
        if let cache = configuration.cache {
            // Several sizes are cached as the whole multipart body, whatever their format.
            let candidates: [(ext: String, type: String)] =
                several
                ? [(Self.multipartExtension, "multipart/mixed; boundary=\(boundary)")]
                : formats.map { ($0.fileExtension, $0.mediaType) }
            for candidate in candidates {
                if let bytes = cache.read(key, extension: candidate.ext) {
                    metrics.cache(hit: true)
                    headers[.vignetteCache] = "hit"
                    return Self.body(bytes, contentType: candidate.type, headers: headers)
                }
            }
            metrics.cache(hit: false)
            headers[.vignetteCache] = "miss"
        }
        let pipeline = thumbnails
        let made = try await makeThumbnails(options) { try pipeline.input(opened: file.opened, displayPath: file.relative) }
        headers[.vignetteGenerator] = made.generator
        if several {
            let body = Self.multipart(made, boundary: boundary)
            if body.boundary == boundary { configuration.cache?.write(body.bytes, key: key, extension: Self.multipartExtension) }
            return Self.body(body.bytes, contentType: body.contentType, headers: headers)
        }
        configuration.cache?.write(made.parts[0].bytes, key: key, extension: made.format.fileExtension)
        return Self.body(made.parts[0].bytes, contentType: made.format.mediaType, headers: headers)
    }

    /// `POST /v1/thumbnail?size=…&filename=NAME`: the body is the file.
    func thumbnail(upload request: Request, _ context: VignetteRequestContext) async throws -> Response {
        let query = Self.query(request)
        let options = try ThumbnailOptions(query: query).negotiated(accept: request.headers[.accept])
        let reservation = try reserveForUpload(context)
        let file = try await upload(request, context, filename: query["filename"])
        let pipeline = thumbnails
        let made = try await makeThumbnails(options, in: reservation) { try pipeline.input(opened: file, displayPath: nil) }
        let headers: HTTPFields = [.cacheControl: "no-store", .vignetteGenerator: made.generator, .vary: "Accept"]
        if options.sizes.count > 1 {
            let body = Self.multipart(made, boundary: Self.randomBoundary())
            return Self.body(body.bytes, contentType: body.contentType, headers: headers)
        }
        return Self.body(made.parts[0].bytes, contentType: made.format.mediaType, headers: headers)
    }

    /// The response-cache extension of a several-size answer.
    static let multipartExtension = "multipart"

    /// The boundary of a several-size answer about a file: fixed by its key, so a cached body
    /// is served with the same one.
    static func boundary(_ key: ContentKey) -> String { "vignette-" + key.hex.prefix(32) }

    /// A boundary no one can predict (uploads, or when a part happens to contain the fixed one).
    static func randomBoundary() -> String {
        "vignette-" + String(UInt64.random(in: .min ... .max), radix: 16) + String(UInt64.random(in: .min ... .max), radix: 16)
    }

    /// The parts of `made` as one `multipart/mixed` body: each part says its size in
    /// `X-Vignette-Size` and is named `SIZE.EXT`.
    static func multipart(_ made: MadeThumbnails, boundary: String) -> MultipartBody {
        let parts = made.parts.map { part in
            MultipartBody.Part(
                headers: [
                    ("Content-Type", made.format.mediaType),
                    ("Content-Disposition", "inline; filename=\"\(part.size).\(made.format.fileExtension)\""),
                    ("X-Vignette-Size", String(part.size)),
                ], bytes: part.bytes)
        }
        if let body = MultipartBody(parts: parts, boundary: boundary) { return body }
        while true {
            if let body = MultipartBody(parts: parts, boundary: randomBoundary()) { return body }
        }
    }

    /// Thumbnails made for one request: the encoded bytes at each size asked, in order.
    struct MadeThumbnails: Sendable {
        /// Each size asked and its encoded thumbnail.
        var parts: [(size: Int, bytes: [UInt8])]
        /// The generator that answered.
        var generator: String
        /// The format of every part.
        var format: ImageFormat
    }

    /// Runs the thumbnail pipeline on a worker: one decode, at the largest of `options.sizes`.
    ///
    /// When the answer is only an icon because a generator refused the file over a limit
    /// (a pixel bomb), the refusal is the answer (422).
    func makeThumbnails(
        _ options: ThumbnailOptions, in reservation: WorkPool.Reservation? = nil,
        input makeInput: @escaping @Sendable () throws -> GeneratorInput
    ) async throws -> MadeThumbnails {
        let pipeline = thumbnails
        let made = try await pool.run(timeout: configuration.timeoutSeconds, in: reservation ?? pool.reserve()) {
            () throws -> MadeThumbnails in
            let input = try makeInput()
            let renderings = try pipeline.render(input, request: options.request, sizes: options.sizes)
            if let refusal = renderings[0].refusal { throw refusal }
            // One format for every part, chosen by the largest picture.
            let largest = renderings.max { $0.thumbnail.bitmap.width < $1.thumbnail.bitmap.width }!
            let output = options.output(for: largest.thumbnail.bitmap)
            let parts = try zip(options.sizes, renderings).map { ($0, try output.encode($1.thumbnail.bitmap)) }
            return MadeThumbnails(parts: parts, generator: largest.generator, format: output.format)
        }
        metrics.generated(by: made.generator, capability: "thumbnail")
        return made
    }
}

extension HTTPField.Name {
    /// `X-Vignette-Generator`: which generator made the result.
    static var vignetteGenerator: Self { Self("X-Vignette-Generator")! }
    /// `X-Vignette-Cache`: `hit` or `miss` in the on-disk response cache.
    static var vignetteCache: Self { Self("X-Vignette-Cache")! }
}
