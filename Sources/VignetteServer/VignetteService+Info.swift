import Foundation
import HTTPTypes
import Hummingbird
import VignetteCache
import VignetteCore

extension VignetteService {
    /// `GET /v1/type?path=REL`: the content type and its conformance chain.
    func type(_ request: Request, _ context: VignetteRequestContext) async throws -> Response {
        let query = Self.query(request)
        let file = try servedFile(query)
        let key = key("type", file: file, [])
        if let unchanged = notModified(request, key) { return unchanged }
        let (pipeline, catalog) = (thumbnails, registry.catalog)
        let object = try await pool.run(timeout: configuration.timeoutSeconds) { () throws -> [String: String] in
            let resolution = try pipeline.input(opened: file.opened, displayPath: file.relative).resolution
            return ["identifier": resolution.type.identifier]
        }
        guard let identifier = object["identifier"], let type = catalog.type(withIdentifier: identifier) else { throw HTTPFailure.notFound }
        let answer: [String: Any] = [
            "path": query["path"] ?? "",
            "identifier": identifier,
            "mime": catalog.preferredMIMEType(of: type),
            "description": type.localizedDescription,
            "conformsTo": catalog.supertypes(of: type).dropFirst().map(\.identifier),
        ]
        return Self.json(answer, headers: [.eTag: key.etag, .cacheControl: cacheControl])
    }

    /// `GET /v1/generators`: every registered generator, in registration order (a manifest by
    /// its file name: where the server keeps its files is not the client's business).
    func generatorList() throws -> Response {
        let list: [[String: Any]] = registry.generators.map { g in
            var capabilities: [String] = []
            if g.asThumbnailGenerator != nil { capabilities.append("thumbnail") }
            if g.asPreviewGenerator != nil { capabilities.append("preview") }
            var object: [String: Any] = [
                "identifier": g.identifier, "supportedTypes": g.supportedTypes, "priority": g.priority.description,
                "origin": g.origin.hasPrefix("/") ? (g.origin as NSString).lastPathComponent : g.origin,
                "capabilities": capabilities,
            ]
            if let max = g.limits.maxFileBytes { object["maxFileBytes"] = max }
            if let seconds = g.limits.timeoutSeconds { object["timeoutSeconds"] = seconds }
            return object
        }
        return Self.json(["generators": list])
    }

    /// `GET /readyz`: 200 while accepting work, 503 when draining or every worker and queue slot is taken.
    func readiness() -> Response {
        if state.draining {
            return errorResponse(HTTPFailure(.serviceUnavailable, code: "draining", "shutting down"))
        }
        if pool.inFlight >= pool.concurrency + pool.queueLimit {
            return errorResponse(WorkPool.Refusal.overloaded)
        }
        return Self.json(["status": "ready"])
    }

    /// `GET /metrics`: Prometheus text exposition.
    func metricsText() -> Response {
        metrics.pool(queueDepth: pool.queueDepth, running: pool.runningCount)
        return Self.body(metricsRegistry.emitToBuffer(), contentType: "text/plain; version=0.0.4; charset=utf-8")
    }
}
