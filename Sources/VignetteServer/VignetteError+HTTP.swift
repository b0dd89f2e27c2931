public import HTTPTypes
public import VignetteCore

extension VignetteError {
    /// The HTTP status for this error: the edge's reading of the core's codes.
    public var httpStatus: HTTPResponse.Status {
        switch code {
        case .notFound, .isDirectory, .notRegularFile, .brokenSymlink, .permissionDenied: .notFound
        case .invalidRequest, .unknownType: .badRequest
        case .limitExceeded, .refused, .corrupt, .unsupported, .declined: .unprocessableContent
        default: .internalServerError
        }
    }

    /// The message a client sees: the reason only, never a server path; file-system refusals say only "not found".
    public var httpMessage: String {
        httpStatus == .notFound ? "not found" : reason
    }
}
