public import HTTPTypes

/// An error answered as it is: a status, a stable code and a message (404s, 413s, 503s…).
public struct HTTPFailure: Error, Sendable, Equatable {
    /// The HTTP status.
    public let status: HTTPResponse.Status
    /// The stable code in the JSON body (`not-found`, `too-large`, `overloaded`, `timeout`).
    public let code: String
    /// The message in the JSON body.
    public let message: String

    /// Creates a failure.
    public init(_ status: HTTPResponse.Status, code: String, _ message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    /// A file that is absent or refused, without saying which.
    public static let notFound = HTTPFailure(.notFound, code: "not-found", "not found")
}
