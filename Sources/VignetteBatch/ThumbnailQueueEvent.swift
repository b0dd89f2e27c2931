/// What a client of the thumbnailer service is told about its request: the spec's four signals.
public enum ThumbnailQueueEvent: Sendable, Equatable {
    /// The first file of the request is being worked on.
    case started(handle: UInt32)
    /// Thumbnails of these URIs are in the cache now (several at once).
    case ready(handle: UInt32, uris: [String])
    /// These URIs got no thumbnail, for one reason (`code` is the spec's error code).
    case error(handle: UInt32, uris: [String], code: ThumbnailFailure.Code, message: String)
    /// Nothing more will be said about the request.
    case finished(handle: UInt32)
}

/// Why a file got no thumbnail: the error codes of the thumbnail management D-Bus spec (as tumbler numbers them) and a sentence.
public struct ThumbnailFailure: Sendable, Equatable, Error {
    /// The spec's error codes (the `i error_code` of the `Error` signal).
    public enum Code: Int32, Sendable {
        /// No generator pictures the file's type, or the URI's scheme is not served.
        case unsupported = 0
        /// The file could not be read (gone, not permitted, not a regular file).
        case connection = 1
        /// The file's content is damaged or over a limit.
        case invalidFormat = 2
        /// The file is itself a thumbnail in the cache.
        case isThumbnail = 3
        /// The thumbnail could not be written to the cache.
        case saveFailed = 4
        /// The flavor asked for does not exist.
        case unsupportedFlavor = 5
        /// The service stopped before the file's turn.
        case shuttingDown = 7
    }

    /// The error code.
    public let code: Code
    /// The sentence, naming the file.
    public let message: String

    /// A failure with `code` and `message`.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }
}
