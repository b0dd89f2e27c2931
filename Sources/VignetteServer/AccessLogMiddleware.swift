import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// Logs one structured line per request and counts it in the metrics; every error a route or the
/// router throws (no such route, wrong method, a bad signature) is rendered here, once, as an
/// `HTTPFailure`, and every response leaves through `ResponsePolicy`.
struct AccessLogMiddleware: RouterMiddleware {
    typealias Context = VignetteRequestContext
    let service: VignetteService

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = DispatchTime.now().uptimeNanoseconds
        service.metrics.requestsInFlight(service.state.requestsInFlight(adding: 1))
        defer { service.metrics.requestsInFlight(service.state.requestsInFlight(adding: -1)) }
        var response: Response
        do {
            try service.configuration.signing?.check(
                request, alsoExempt: service.configuration.pipelineKeys == nil ? [] : [VignetteService.pipelinePath])
            try ResponsePolicy.checkMethod(request)
            response = try await next(request, context)
        } catch {
            response = service.errorResponse(error)
        }
        response = ResponsePolicy.finished(response, method: request.method)
        let elapsed = DispatchTime.now().uptimeNanoseconds - start
        let route = context.endpointPath ?? "unmatched"
        service.metrics.request(route: route, status: response.status.code, nanoseconds: Int64(elapsed))
        service.logger.info(
            "request",
            metadata: [
                "method": "\(request.method.rawValue)",
                "path": "\(request.uri.path)",
                "route": "\(route)",
                "status": "\(response.status.code)",
                "duration_ms": "\(String(format: "%.2f", Double(elapsed) / 1e6))",
                "bytes": "\(response.body.contentLength.map(String.init) ?? "-")",
                "request_id": "\(context.id)",
            ])
        return response
    }
}
