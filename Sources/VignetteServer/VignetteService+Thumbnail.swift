import Foundation
import Hummingbird
import HTTPTypes
import VignetteCore
import VignetteImaging

extension VignetteService {
    /// `GET /v1/thumbnail?path=REL&size=&scale=&format=&icon=`: a file below the root.
    func thumbnail(path request: Request, _ context: VignetteRequestContext) async throws -> Response {
        let query = Self.query(request)
        let options = try ThumbnailOptions(query: query)
        let file = try servedFile(query)
        let key = key("thumbnail", file: file, options.keyParts)
        if let unchanged = notModified(request, key) { return unchanged }
        var headers: HTTPFields = [.eTag: key.etag, .cacheControl: cacheControl]
        if let cache = configuration.cache {
            if let bytes = cache.read(key, extension: options.format.fileExtension) {
                metrics.cache(hit: true)
                headers[.vignetteCache] = "hit"
                return Self.body(bytes, contentType: options.contentType, headers: headers)
            }
            metrics.cache(hit: false)
            headers[.vignetteCache] = "miss"
        }
        let path = file.path
        let resolver = self.resolver
        let made = try await makeThumbnail(options) { try GeneratorInput(path: path, resolver: resolver) }
        configuration.cache?.write(made.bytes, key: key, extension: options.format.fileExtension)
        headers[.vignetteGenerator] = made.generator
        return Self.body(made.bytes, contentType: options.contentType, headers: headers)
    }

    /// `POST /v1/thumbnail?size=…&filename=NAME`: the body is the file.
    func thumbnail(upload request: Request, _ context: VignetteRequestContext) async throws -> Response {
        let query = Self.query(request)
        let options = try ThumbnailOptions(query: query)
        let bytes = try await upload(request, context)
        let filename = query["filename"]
        let resolver = self.resolver
        let made = try await makeThumbnail(options) { GeneratorInput(bytes: bytes, filename: filename, resolver: resolver) }
        return Self.body(made.bytes, contentType: options.contentType, headers: [.cacheControl: "no-store", .vignetteGenerator: made.generator])
    }

    /// Runs the registry on a worker and encodes the result.
    ///
    /// When the answer is only an icon because a generator refused the file over a limit
    /// (a pixel bomb), the refusal is the answer (422): an API client asked for a picture
    /// of the content and must learn why it got none, where a file manager would show the icon.
    func makeThumbnail(
        _ options: ThumbnailOptions, input makeInput: @escaping @Sendable () throws -> GeneratorInput
    ) async throws -> (bytes: [UInt8], generator: String) {
        let registry = self.registry
        let result = try await pool.run(timeout: configuration.timeoutSeconds) { () throws -> ([UInt8], String) in
            let input = try makeInput()
            let (thumbnail, generator, attempts) = try registry.thumbnail(for: input, request: options.request)
            if thumbnail.isIcon, let refusal = attempts.first(where: { $0.errorCode == .refused }),
                case .failed(let why) = refusal.outcome
            {
                throw VignetteError(.limitExceeded, path: input.filename, why)
            }
            let bitmap = thumbnail.bitmap
            let bytes = options.format == .png
                ? try ImageEncoder.png(bitmap, keepAlpha: bitmap.hasTransparency)
                : try ImageEncoder.jpeg(bitmap, quality: 85)
            return (bytes, generator)
        }
        metrics.generated(by: result.1, capability: "thumbnail")
        return (result.0, result.1)
    }
}

extension HTTPField.Name {
    /// `X-Vignette-Generator`: which generator made the result.
    static var vignetteGenerator: Self { Self("X-Vignette-Generator")! }
    /// `X-Vignette-Cache`: `hit` or `miss` in the on-disk thumbnail cache.
    static var vignetteCache: Self { Self("X-Vignette-Cache")! }
}
