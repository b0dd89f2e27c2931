import Foundation
public import HTTPTypes
import Hummingbird
import VignetteGenerators

/// HTTP rules every response follows, whichever route made it: HEAD is GET without the body,
/// a known path asked with a method it does not take is 405 with `Allow`, and every response
/// carries the protective headers (HTML ones a strict Content-Security-Policy).
public enum ResponsePolicy {
    /// The methods each route path takes (HEAD wherever GET is).
    public static let routes: [String: [HTTPRequest.Method]] = [
        "/v1/thumbnail": [.get, .head, .post], "/v1/preview": [.get, .head, .post], "/v1/type": [.get, .head],
        "/v1/generators": [.get, .head], "/view": [.get, .head], "/healthz": [.get, .head], "/readyz": [.get, .head],
        "/metrics": [.get, .head], "/pipeline": [.post],
    ]

    /// The policy of every HTML response: nothing fetched, no script, no form, no framing.
    public static let contentSecurityPolicy = ViewerPage.contentSecurityPolicy

    /// 405 (with `Allow`) when the path is a route's but the method is not one it takes.
    ///
    /// Called for every request before the router answers; HEAD is routed by `VignetteService`,
    /// which registers every GET handler for HEAD too.
    static func checkMethod(_ request: Request) throws {
        guard let allowed = routes[request.uri.path], !allowed.contains(request.method) else { return }
        let list = allowed.map(\.rawValue).joined(separator: ", ")
        throw HTTPFailure(
            .methodNotAllowed, code: "method-not-allowed", "\(request.uri.path) takes \(list), not \(request.method.rawValue)",
            headers: [.allow: list])
    }

    /// `response` with the protective headers, and without its body when answering HEAD.
    static func finished(_ response: Response, method: HTTPRequest.Method) -> Response {
        var response = response
        response.headers[.xContentTypeOptions] = "nosniff"
        if response.headers[.contentType]?.hasPrefix("text/html") == true {
            response.headers[.contentSecurityPolicy] = contentSecurityPolicy
            response.headers[.referrerPolicy] = "no-referrer"
        }
        if method == .head {
            // The length stays GET's (RFC 9110 §9.3.2); setting the body would reset it to 0.
            let length = response.headers[.contentLength]
            response.body = ResponseBody()
            response.headers[.contentLength] = length
        }
        return response
    }
}

extension HTTPField.Name {
    /// `Referrer-Policy`.
    static var referrerPolicy: Self { Self("Referrer-Policy")! }
}
