import Foundation
import Hummingbird
import HTTPTypes
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
        let path = file.path
        let resolver = self.resolver
        let made = try await makePreview { try GeneratorInput(path: path, resolver: resolver) }
        return Self.previewResponse(made, format: format, headers: [.eTag: key.etag, .cacheControl: cacheControl])
    }

    /// `POST /v1/preview?filename=NAME&format=…`: the body is the file.
    func preview(upload request: Request, _ context: VignetteRequestContext) async throws -> Response {
        let query = Self.query(request)
        let format = try Self.previewFormat(query)
        let bytes = try await upload(request, context)
        let filename = query["filename"]
        let resolver = self.resolver
        let made = try await makePreview { GeneratorInput(bytes: bytes, filename: filename, resolver: resolver) }
        return Self.previewResponse(made, format: format, headers: [.cacheControl: "no-store"])
    }

    /// `GET /view?path=REL`: the self-contained HTML viewer page.
    func view(_ request: Request, _ context: VignetteRequestContext) async throws -> Response {
        let file = try servedFile(Self.query(request))
        let key = key("view", file: file, [])
        if let unchanged = notModified(request, key) { return unchanged }
        let path = file.path
        let (resolver, registry) = (self.resolver, self.registry)
        let html = try await pool.run(timeout: configuration.timeoutSeconds) {
            ViewerPage.render(try GeneratorInput(path: path, resolver: resolver), registry: registry)
        }
        return Self.body(Array(html.utf8), contentType: "text/html; charset=utf-8", headers: [.eTag: key.etag, .cacheControl: cacheControl])
    }

    struct MadePreview: Sendable {
        let preview: TextPreview
        let generator: String
        let type: String
    }

    func makePreview(_ makeInput: @escaping @Sendable () throws -> GeneratorInput) async throws -> MadePreview {
        let registry = self.registry
        let made = try await pool.run(timeout: configuration.timeoutSeconds) {
            let input = try makeInput()
            let (preview, generator, _) = try registry.preview(for: input, request: PreviewRequest())
            return MadePreview(preview: preview, generator: generator, type: input.type.identifier)
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

    static func previewResponse(_ made: MadePreview, format: PreviewFormat, headers: HTTPFields) -> Response {
        var headers = headers
        headers[.vignetteGenerator] = made.generator
        switch format {
        case .text:
            return body(Array(made.preview.text.utf8), contentType: "text/plain; charset=utf-8", headers: headers)
        case .html:
            return body(Array(made.preview.html.utf8), contentType: "text/html; charset=utf-8", headers: headers)
        case .json:
            let object: [String: Any] = [
                "title": made.preview.title, "text": made.preview.text, "html": made.preview.html,
                "truncated": made.preview.truncated, "generator": made.generator, "type": made.type,
            ]
            return json(object, headers: headers)
        }
    }
}
