import Foundation
import Glibc
import VignetteCore

/// A file of secret keys, one per line: blank lines and `#` comments skipped, each key at least
/// a minimum length. Several keys let a new one roll out before the old one is dropped.
enum KeyFile {
    /// The keys of `path`, each at least `minimumBytes` long; `kind` names them in errors
    /// ("signing", "pipeline").
    ///
    /// - Throws: `VignetteError` naming the file and the line that is wrong.
    static func read(_ path: String, kind: String, minimumBytes: Int) throws -> [[UInt8]] {
        let data = try contents(path, kind: kind)
        var keys: [[UInt8]] = []
        for (index, line) in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let key = line.trimmingCharacters(in: .whitespaces)
            if key.isEmpty || key.hasPrefix("#") { continue }
            guard key.utf8.count >= minimumBytes else {
                throw VignetteError(
                    .invalidRequest, path: path,
                    "the key on line \(index + 1) is \(key.utf8.count) bytes; \(kind) keys need at least \(minimumBytes)")
            }
            keys.append(Array(key.utf8))
        }
        guard !keys.isEmpty else { throw VignetteError(.invalidRequest, path: path, "holds no \(kind) key") }
        return keys
    }

    /// Most bytes a key file may hold: far more than any list of keys.
    static let maxBytes = 1 << 20

    /// The bytes of `path`, at most `maxBytes`: a regular file, or a pipe such as a shell's
    /// `<(…)` (so a secret need not touch the disk). A FIFO nobody writes to reads as empty
    /// rather than blocking the start-up, and a device like /dev/zero stops at the cap.
    static func contents(_ path: String, kind: String) throws -> [UInt8] {
        func failure(_ reason: String, _ code: VignetteError.Code = .io) -> VignetteError {
            VignetteError(code, path: path, "cannot read the \(kind) key file: \(reason)")
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            let error = VignetteError.fromErrno(errno, path: path)
            throw failure(error.reason, error.code)
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw failure(String(cString: strerror(errno)).lowercased()) }
        if st.st_mode & S_IFMT == S_IFDIR { throw failure("it is a directory") }
        // Only the open had to be non-blocking; a pipe's writer may still be on its way.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = Glibc.read(fd, &buffer, buffer.count)
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw failure(String(cString: strerror(errno)).lowercased()) }
            if n == 0 { break }
            bytes += buffer[..<n]
            guard bytes.count <= maxBytes else { throw failure("it holds more than \(ByteCount.text(maxBytes))") }
        }
        return bytes
    }
}
