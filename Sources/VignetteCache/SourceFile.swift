import Foundation
import VignetteCore

/// The facts about an original file that a cache entry records and is checked against.
public struct SourceFile: Sendable, Equatable {
    /// The absolute path, symbolic links not resolved (the desktop looks thumbnails up by the name it shows).
    public let path: String
    /// The canonical `file://` URI.
    public let uri: String
    /// Modification time, whole seconds since 1970.
    public let modificationSeconds: Int
    /// Modification time's nanoseconds part.
    public let modificationNanoseconds: Int
    /// Size in bytes.
    public let size: Int

    /// Creates the facts directly (tests, or a caller that already has a `stat`).
    public init(path: String, modificationSeconds: Int, modificationNanoseconds: Int = 0, size: Int) {
        self.path = path
        self.uri = FileURI.string(forAbsolutePath: path)
        self.modificationSeconds = modificationSeconds
        self.modificationNanoseconds = modificationNanoseconds
        self.size = size
    }

    /// The facts of the file at `path` (made absolute against the current directory), following links.
    public init(path: String) throws {
        let absolute = SourceFile.absolute(path)
        var st = stat()
        guard stat(absolute, &st) == 0 else { throw VignetteError.fromErrno(errno, path: path) }
        self.init(
            path: absolute, modificationSeconds: Int(st.st_mtim.tv_sec), modificationNanoseconds: Int(st.st_mtim.tv_nsec),
            size: Int(st.st_size))
    }

    /// `path` made absolute and free of `.`/`..` and repeated slashes, without resolving links.
    public static func absolute(_ path: String) -> String {
        var full = path
        if !full.hasPrefix("/") {
            full = FileManager.default.currentDirectoryPath + "/" + full
        }
        var parts: [Substring] = []
        for part in full.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." {
                if !parts.isEmpty { parts.removeLast() }
                continue
            }
            parts.append(part)
        }
        return "/" + parts.joined(separator: "/")
    }
}
