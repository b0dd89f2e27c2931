import Foundation

/// The one error type of Vignette: a code, the file it concerns, and a human sentence.
///
/// It grows by adding `Code` constants; every user-facing message is built here or by the
/// code that throws, and tests assert the exact text. Edges (CLI, HTTP) map codes to exit
/// statuses and HTTP statuses in their own extensions.
public struct VignetteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stable, machine-readable error category.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code's stable name, e.g. `not-found`.
        public let rawValue: String
        /// Creates a code from its stable name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The stable name.
        public var description: String { rawValue }

        /// The file does not exist.
        public static let notFound = Code(rawValue: "not-found")
        /// The path is a directory where a file was expected.
        public static let isDirectory = Code(rawValue: "is-directory")
        /// The path is a FIFO, socket or device: not a regular file.
        public static let notRegularFile = Code(rawValue: "not-regular-file")
        /// A symbolic link whose target does not exist.
        public static let brokenSymlink = Code(rawValue: "broken-symlink")
        /// The file exists but may not be read.
        public static let permissionDenied = Code(rawValue: "permission-denied")
        /// Any other operating-system failure while reading or writing.
        public static let io = Code(rawValue: "io")
        /// A type declaration is malformed.
        public static let invalidDeclaration = Code(rawValue: "invalid-declaration")
        /// A custom declaration uses a reserved identifier prefix (`public.`, `dyn.`).
        public static let reservedIdentifier = Code(rawValue: "reserved-identifier")
        /// No content type has that identifier, extension or MIME type.
        public static let unknownType = Code(rawValue: "unknown-type")
        /// The data is valid but uses a feature Vignette does not support.
        public static let unsupported = Code(rawValue: "unsupported")
        /// The data is damaged or not what it claims to be.
        public static let corrupt = Code(rawValue: "corrupt")
        /// The input exceeds a configured limit (file size, pixel count, time).
        public static let limitExceeded = Code(rawValue: "limit-exceeded")
        /// The content itself is over a safety limit (a pixel bomb): final for the file.
        ///
        /// The registry gives a refused file to no other real generator (another decoder would
        /// meet the same gigapixels), only to the fallback.
        public static let refused = Code(rawValue: "refused")
        /// A generator looked at the file and passed it on to the next candidate (not a failure).
        public static let declined = Code(rawValue: "declined")
        /// The caller asked for something that makes no sense (bad size, bad option).
        public static let invalidRequest = Code(rawValue: "invalid-request")
    }

    /// What went wrong, as a category.
    public let code: Code
    /// The file the error concerns, as the user named it, if any.
    public let path: String?
    /// The reason, as a lower-case sentence fragment without the path ("is a directory").
    public let reason: String

    /// Creates an error.
    public init(_ code: Code, path: String? = nil, _ reason: String) {
        self.code = code
        self.path = path
        self.reason = reason
    }

    /// `path: reason`, or just the reason when no file is concerned.
    public var description: String {
        guard let path else { return reason }
        return "\(path): \(reason)"
    }

    /// The same error about another path (used when a low layer did not know the user's name for the file).
    public func about(_ path: String) -> VignetteError {
        VignetteError(code, path: path, reason)
    }
}

extension VignetteError {
    /// Maps an `errno` from opening or reading `path` to an error with a plain reason.
    public static func fromErrno(_ value: Int32, path: String) -> VignetteError {
        switch value {
        case ENOENT: return VignetteError(.notFound, path: path, "no such file or directory")
        case EACCES, EPERM: return VignetteError(.permissionDenied, path: path, "permission denied")
        case EISDIR: return VignetteError(.isDirectory, path: path, "is a directory")
        case ELOOP: return VignetteError(.io, path: path, "too many levels of symbolic links")
        case ENAMETOOLONG: return VignetteError(.io, path: path, "file name too long")
        case ENOTDIR: return VignetteError(.notFound, path: path, "a component of the path is not a directory")
        default:
            let text = String(cString: strerror(value)).lowercased()
            return VignetteError(.io, path: path, text)
        }
    }
}
