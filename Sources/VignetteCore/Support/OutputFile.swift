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
        // Nothing there: a new file, made at the path. A link to nothing: its target is made, as
        // `>` does, rather than the link replaced by a file.
        guard stat(path, &found) == 0 else { return .file(danglingEnd(of: path) ?? path) }
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

    /// The path a chain of symbolic links from `path` ends at when nothing is there; nil when
    /// `path` is not a link, or the chain loops or cannot be read.
    static func danglingEnd(of path: String) -> String? {
        var current = path
        // The kernel's own limit on links followed in one lookup (ELOOP beyond it).
        for _ in 0..<40 {
            var info = stat()
            if lstat(current, &info) != 0 {
                let reason = errno
                return current == path || reason != ENOENT ? nil : current
            }
            guard info.st_mode & S_IFMT == S_IFLNK else { return nil }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(current, &buffer, buffer.count - 1)
            guard count > 0 else { return nil }
            let destination = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current =
                destination.hasPrefix("/")
                ? destination : ((current as NSString).deletingLastPathComponent as NSString).appendingPathComponent(destination)
        }
        return nil
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
