import Foundation
import HTTPTypes
import Hummingbird
import VignetteCore
import VignetteGenerators
import VignetteImaging

extension VignetteService {
    /// Where imaginary's pipeline is served.
    static let pipelinePath = "/pipeline"

    /// `POST /pipeline?operations=JSON&key=…`: imaginary's pipeline endpoint, as far as
    /// Nextcloud's Imaginary preview provider (`OC\Preview\Imaginary`) uses it, so that the
    /// service can be Nextcloud's `preview_imaginary_url`. The body is the file.
    ///
    /// The operations are read before anything else (a bad one is 400 naming it); then the
    /// upload goes the way of `POST /v1/thumbnail`: a worker slot first, the body to a private
    /// temporary file under the upload limit, the generator limits and the timeout. With
    /// pipeline keys configured, `key` must be one of them (401 otherwise, before anything is
    /// read); without, it is ignored and signed URLs, when configured, apply here as everywhere.
    /// The answer is the picture with `Image-Width` and `Image-Height`, which Nextcloud reads to
    /// size the preview without decoding it.
    func pipeline(_ request: Request, _ context: VignetteRequestContext) async throws -> Response {
        let query = Self.query(request)
        if let keys = configuration.pipelineKeys, !keys.accepts(query["key"]) {
            throw HTTPFailure(
                .unauthorized, code: "unauthorized",
                query["key"].map { _ in "the key parameter is not a pipeline key" } ?? "the key parameter is required")
        }
        guard let text = query["operations"] else {
            throw VignetteError(.invalidRequest, "the operations parameter is required (a JSON list of imaginary operations)")
        }
        let plan = try PipelinePlan(operations: text, accept: request.headers[.accept])
        let reservation = try reserveForUpload(context)
        let file = try await upload(request, context, filename: nil)
        let pipeline = thumbnails
        let made = try await pool.run(timeout: configuration.timeoutSeconds, in: reservation) {
            () throws -> PipelineResult in
            let input = try pipeline.input(opened: file, displayPath: nil)
            let rendered = try pipeline.render(input, request: plan.request, cropBox: plan.cropBox)
            // Nextcloud falls back to its other providers on an error; a generic icon would be
            // kept as the file's preview.
            if rendered.isFallbackIcon {
                throw rendered.refusal ?? VignetteError(.unsupported, "no generator makes a picture of this file")
            }
            let bitmap = plan.fitted(rendered.thumbnail.bitmap)
            let output = plan.output(for: bitmap, inputMediaType: rendered.mimeType)
            return PipelineResult(
                bytes: try output.encode(bitmap), generator: rendered.generator, format: output.format, width: bitmap.width,
                height: bitmap.height)
        }
        metrics.generated(by: made.generator, capability: "thumbnail")
        return Self.body(
            made.bytes, contentType: made.format.mediaType,
            headers: [
                .cacheControl: "no-store", .vary: "Accept", .vignetteGenerator: made.generator, .imageWidth: String(made.width),
                .imageHeight: String(made.height),
            ])
    }
}

/// What a pipeline made.
struct PipelineResult: Sendable {
    let bytes: [UInt8]
    let generator: String
    let format: ImageFormat
    let width: Int
    let height: Int
}

extension HTTPField.Name {
    /// `Image-Width`: the picture's width in pixels (imaginary's `-return-size`; Nextcloud reads it).
    static var imageWidth: Self { Self("Image-Width")! }
    /// `Image-Height`: the picture's height in pixels.
    static var imageHeight: Self { Self("Image-Height")! }
}
