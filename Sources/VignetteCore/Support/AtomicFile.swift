import Foundation

/// Writes files so that readers see either the old file or the complete new one, never a part.
///
/// The bytes go to a hidden temporary file in the same directory, are flushed, and the
/// temporary is renamed over the destination. On any failure the temporary is removed.
public enum AtomicFile {
    /// Writes `bytes` to `path` atomically with `permissions` (e.g. 0o644 or 0o600).
    ///
    /// `durable` adds an fsync before the rename: needed only to survive power loss, not a
    /// killed process (the rename alone already guarantees no partial file is ever visible).
    /// `temporaryTag` goes into the temporary's name (`.NAME.tmp-TAG-XXXXXX`), so a later run can
    /// tell whose leftovers it finds (the thumbnail cache puts the writer's process id there).
    public static func write(
        _ bytes: [UInt8], to path: String, permissions: Int = 0o644, durable: Bool = false, temporaryTag: String? = nil
    ) throws {
        let url = URL(fileURLWithPath: path)
        let dir = url.deletingLastPathComponent().path
        let name = url.lastPathComponent
        let tag = temporaryTag.map { $0 + "-" } ?? ""
        var template = Array("\(dir)/.\(name).tmp-\(tag)XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        if fd < 0 { throw VignetteError.fromErrno(errno, path: path) }
        // Close-on-exec: generator commands spawned meanwhile on other threads must not inherit
        // it (mkostemp is not visible from Swift's Glibc module).
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        let tempPath = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var ok = false
        defer {
            if !ok { unlink(tempPath) }
        }
        fchmod(fd, mode_t(permissions))
        var status = writeAll(bytes, to: fd)
        if status == 0, durable, fsync(fd) != 0 { status = errno }
        close(fd)
        if status != 0 { throw VignetteError.fromErrno(status, path: path) }
        if rename(tempPath, path) != 0 { throw VignetteError.fromErrno(errno, path: path) }
        ok = true
    }

    /// Writes all of `bytes` to `fd`, again after an interruption; 0, or the errno that stopped it.
    static func writeAll(_ bytes: [UInt8], to fd: Int32) -> Int32 {
        bytes.withUnsafeBytes { writeAll($0, to: fd) }
    }

    /// Writes all of `raw` to `fd`, again after an interruption; 0, or the errno that stopped it.
    public static func writeAll(_ raw: UnsafeRawBufferPointer, to fd: Int32) -> Int32 {
        var written = 0
        while written < raw.count {
            let n = Foundation.write(fd, raw.baseAddress! + written, raw.count - written)
            if n < 0 {
                if errno == EINTR { continue }
                return errno
            }
            written += n
        }
        return 0
    }
}
