import Foundation
public import HTTPTypes
public import Hummingbird
import NIOCore
import NIOHTTP1
import VignetteCore

/// An error that renders itself: a status, a stable code and a message, as the JSON error body.
///
/// Routes throw whatever the core throws; the access-log middleware turns every error into one of
/// these (`init(_:timeoutSeconds:)`) and lets it render `{"error":{"code":…,"message":…}}`.
public struct HTTPFailure: HTTPResponseError, Sendable, Equatable {
    /// The HTTP status.
    public let status: HTTPResponse.Status
    /// The stable code in the JSON body (`not-found`, `too-large`, `overloaded`, `timeout`).
    public let code: String
    /// The message in the JSON body.
    public let message: String
    /// Extra headers (`Retry-After` on 503).
    public var headers: HTTPFields = [:]

    /// Creates a failure.
    public init(_ status: HTTPResponse.Status, code: String, _ message: String, headers: HTTPFields = [:]) {
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers
    }

    /// A file that is absent or refused, without saying which.
    public static let notFound = HTTPFailure(.notFound, code: "not-found", "not found")

    /// The failure a client sees for `error`; nil for an error nobody expected (answered 500, and logged).
    public init?(_ error: any Error, timeoutSeconds: Double) {
        switch error {
        case let e as HTTPFailure:
            self = e
        case let e as VignetteError:
            self.init(e.httpStatus, code: e.httpStatus == .notFound ? "not-found" : e.code.rawValue, e.httpMessage)
        case WorkPool.Refusal.overloaded:
            self.init(
                .serviceUnavailable, code: "overloaded", "too many requests in progress; try again shortly", headers: [.retryAfter: "1"])
        case WorkPool.Refusal.timedOut:
            self.init(.gatewayTimeout, code: "timeout", "no result within \(VignetteService.seconds(timeoutSeconds))")
        case HTTPParserError.invalidEOFState:
            // The client left mid-body: nobody reads this answer, but the log and the metrics
            // should not count it as our failure.
            self.init(.badRequest, code: "aborted", "the connection closed before the request body ended")
        case let e as HTTPParserError:
            self.init(.badRequest, code: "bad-request", "the request is not valid HTTP (\(e.debugDescription))")
        case is CancellationError:
            self.init(.serviceUnavailable, code: "cancelled", "the request was cancelled")
        case let e as any HTTPResponseError:
            self.init(e.status, code: e.status == .notFound ? "not-found" : "http-\(e.status.code)", e.status.reasonPhrase.lowercased())
        default:
            return nil
        }
    }

    /// The internal error for anything unexpected (the details go to the log, not the client).
    public static let `internal` = HTTPFailure(.internalServerError, code: "internal", "internal error")

    /// The JSON error response.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        VignetteService.json(["error": ["code": code, "message": message]], status: status, headers: headers)
    }

    /// Failures are equal when they would render the same.
    public static func == (a: HTTPFailure, b: HTTPFailure) -> Bool {
        a.status == b.status && a.code == b.code && a.message == b.message && a.headers == b.headers
    }
}
