import Foundation

/// Writes a file at a path a user named (`-o`): into a device or a FIFO as it is, through a
/// symbolic link to its target, and otherwise atomically (`AtomicFile`).
///
/// `AtomicFile` renames a temporary over the destination, which replaces whatever is there: run
/// as root with `-o /dev/stdout` or `-o /dev/null`, it turned the device node into a regular
/// file. A user who names a device, a pipe or a link means what `cp` and shell redirection do.
public enum OutputFile {
    /// What a path a user named is, for writing.
    public enum Target: Equatable, Sendable {
        /// A regular file or nothing yet: replaced atomically at this path (a link's target).
        case file(String)
        /// A device or a FIFO: opened and written as it is.
        case stream
        /// A directory: no file can be written there.
        case directory
    }

    /// What `path` is: links are followed, so a link to a file gives the file's path.
    public static func target(_ path: String) -> Target {
        var found = stat()
        // Nothing there (or a dangling link): a new file, made at the path.
        guard stat(path, &found) == 0 else { return .file(path) }
        switch found.st_mode & S_IFMT {
        case S_IFREG:
            var link = stat()
            if lstat(path, &link) == 0, link.st_mode & S_IFMT == S_IFLNK, let resolved = realpath(path, nil) {
                defer { free(resolved) }
                return .file(String(cString: resolved))
            }
            return .file(path)
        case S_IFDIR: return .directory
        default: return .stream
        }
    }

    /// Writes `bytes` to `path` with `permissions` for a file it creates.
    public static func write(_ bytes: [UInt8], to path: String, permissions: Int = 0o644) throws {
        switch target(path) {
        case .file(let file): try AtomicFile.write(bytes, to: file, permissions: permissions)
        case .directory: throw VignetteError.fromErrno(EISDIR, path: path)
        case .stream: try writeInPlace(bytes, to: path)
        }
    }

    /// Writes `bytes` into the device or FIFO at `path`, opened without creating or truncating.
    private static func writeInPlace(_ bytes: [UInt8], to path: String) throws {
        let fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY)
        if fd < 0 { throw VignetteError.fromErrno(errno, path: path) }
        defer { close(fd) }
        let status = AtomicFile.writeAll(bytes, to: fd)
        if status != 0 { throw VignetteError.fromErrno(status, path: path) }
    }
}
