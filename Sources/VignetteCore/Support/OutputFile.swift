import Foundation

/// Writes a file at a path a user named (`-o`): into a device or a FIFO as it is, through a
/// symbolic link to its target, and otherwise atomically (`AtomicFile`).
///
/// `AtomicFile` renames a temporary over the destination, which replaces whatever is there: run
/// as root with `-o /dev/stdout` or `-o /dev/null`, it turned the device node into a regular
/// file. A user who names a device, a pipe or a link means what `cp` and shell redirection do.
public enum OutputFile {
    /// Writes `bytes` to `path` with `permissions` for a file it creates.
    public static func write(_ bytes: [UInt8], to path: String, permissions: Int = 0o644) throws {
        var target = stat()
        guard stat(path, &target) == 0 else {
            // Nothing there (or a dangling link): a new file, made atomically.
            return try AtomicFile.write(bytes, to: path, permissions: permissions)
        }
        switch target.st_mode & S_IFMT {
        case S_IFREG:
            var link = stat()
            if lstat(path, &link) == 0, link.st_mode & S_IFMT == S_IFLNK, let resolved = realpath(path, nil) {
                defer { free(resolved) }
                return try AtomicFile.write(bytes, to: String(cString: resolved), permissions: permissions)
            }
            try AtomicFile.write(bytes, to: path, permissions: permissions)
        case S_IFDIR:
            throw VignetteError.fromErrno(EISDIR, path: path)
        default:
            try writeInPlace(bytes, to: path)
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
