import Foundation
import HTTPTypes
import Hummingbird
import VignetteCache
import VignetteCore
import VignetteGenerators

extension VignetteService {
    /// The renderings `GET/POST /v1/preview` offer with `format=`.
    enum PreviewFormat: String {
        case text, html, json
    }

    /// `GET /v1/preview?path=REL&format=text|html|json` (default json).
    func preview(path request: Request, _ context: VignetteRequestContext) async throws -> Response {
        let query = Self.query(request)
        let format = try Self.previewFormat(query)
        let file = try servedFile(query)
        let key = key("preview", file: file, ["format=\(format.rawValue)"])
        if let unchanged = notModified(request, key) { return unchanged }
        let pipeline = thumbnails
        let made = try await makePreview { try pipeline.input(opened: file.opened, displayPath: file.relative) }
        return Self.previewResponse(made, format: format, headers: [.eTag: key.etag, .cacheControl: cacheControl])
    }

    /// `POST /v1/preview?filename=NAME&format=…`: the body is the file.
    func preview(upload request: Request, _ context: VignetteRequestContext) async throws -> Response {
        let query = Self.query(request)
        let format = try Self.previewFormat(query)
        let reservation = try reserveForUpload(context)
        let file = try await upload(request, context, filename: query["filename"])
        let pipeline = thumbnails
        let made = try await makePreview(in: reservation) { try pipeline.input(opened: file, displayPath: nil) }
        return Self.previewResponse(made, format: format, headers: [.cacheControl: "no-store"])
    }

    /// `GET /view?path=REL`: the self-contained HTML viewer page.
    func view(_ request: Request, _ context: VignetteRequestContext) async throws -> Response {
        let file = try servedFile(Self.query(request))
        let key = key("view", file: file, [])
        if let unchanged = notModified(request, key) { return unchanged }
        let (thumbnails, previews) = (self.thumbnails, self.previews)
        let html = try await pool.run(timeout: configuration.timeoutSeconds) {
            ViewerPage.render(
                try thumbnails.input(opened: file.opened, displayPath: file.relative), thumbnails: thumbnails, previews: previews)
        }
        return Self.body(
            Array(html.utf8), contentType: "text/html; charset=utf-8", headers: [.eTag: key.etag, .cacheControl: cacheControl])
    }

    /// Runs the preview pipeline on a worker.
    func makePreview(
        in reservation: WorkPool.Reservation? = nil, _ makeInput: @escaping @Sendable () throws -> GeneratorInput
    ) async throws -> RenderedPreview {
        let pipeline = previews
        let made = try await pool.run(timeout: configuration.timeoutSeconds, in: reservation ?? pool.reserve()) {
            try pipeline.render(try makeInput())
        }
        metrics.generated(by: made.generator, capability: "preview")
        return made
    }

    static func previewFormat(_ query: [String: String]) throws -> PreviewFormat {
        guard let text = query["format"] else { return .json }
        guard let format = PreviewFormat(rawValue: text) else {
            throw VignetteError(.invalidRequest, "format must be text, html or json, not \(text)")
        }
        return format
    }

    static func previewResponse(_ made: RenderedPreview, format: PreviewFormat, headers: HTTPFields) -> Response {
        var headers = headers
        headers[.vignetteGenerator] = made.generator
        switch format {
        case .text:
            return body(Array(made.preview.text.utf8), contentType: "text/plain; charset=utf-8", headers: headers)
        case .html:
            return body(Array(made.preview.html.utf8), contentType: "text/html; charset=utf-8", headers: headers)
        case .json:
            return json(made.jsonFields, headers: headers)
        }
    }
}
