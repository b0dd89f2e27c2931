import Foundation

/// A file opened once and from then on read only through its descriptor.
///
/// Whatever happens to the name afterwards (a rename, a symbolic link swapped in while a
/// request waits for a worker), every read goes to the file that was opened and checked:
/// `path` names the descriptor (`/proc/self/fd/N`), not the file. The descriptor is closed
/// when the last holder lets go, so work that outlives its request (a timed-out generation)
/// still reads the same file and never a later one that reused the number.
public final class OpenedFile: @unchecked Sendable {
    /// The open descriptor (read-only, close-on-exec).
    public let descriptor: Int32
    /// The file's name (last component of where it really is, or the name an upload was sent
    /// with; empty when it has none), for typing by extension.
    public let name: String
    /// Where the file really is (the kernel's answer for the descriptor when it was opened).
    public let realPath: String
    /// Size in bytes, when it was opened.
    public let size: Int
    /// Modification time, when it was opened: seconds and nanoseconds since 1970.
    public let modified: (seconds: Int, nanoseconds: Int)
    /// Device and inode: which file this is, whatever its name.
    public let identity: (device: UInt64, inode: UInt64)

    /// Takes ownership of `descriptor`, an open regular file (its facts read with `fstat`).
    public init(descriptor: Int32, name: String, realPath: String) {
        var st = stat()
        _ = fstat(descriptor, &st)
        self.descriptor = descriptor
        self.name = name
        self.realPath = realPath
        self.size = Int(st.st_size)
        self.modified = (Int(st.st_mtim.tv_sec), Int(st.st_mtim.tv_nsec))
        self.identity = (UInt64(st.st_dev), UInt64(st.st_ino))
    }

    deinit { close(descriptor) }

    /// A path that reopens this very file (not a name that could now lead elsewhere); valid
    /// in this process only, so it is never handed to another program.
    public var path: String { "/proc/self/fd/\(descriptor)" }

    /// A new read-write file only we can read, with no name (it goes away with its descriptor),
    /// in the temporary folder: its descriptor and a path to show for it. `purpose` names it in
    /// the error ("cannot keep the upload: no space left on device").
    public static func nameless(purpose: String) throws -> (descriptor: Int32, path: String) {
        let directory = NSTemporaryDirectory()
        // O_TMPFILE (Linux): nameless from the start and close-on-exec in the same call.
        let tmpfile: Int32 = 0o20_200_000
        let fd = open(directory, tmpfile | O_RDWR | O_CLOEXEC, 0o600)
        if fd >= 0 { return (fd, directory + "/(nameless)") }
        var template = Array((directory + "/vignette-XXXXXX").utf8CString)
        let named = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard named >= 0 else { throw VignetteError(.io, "cannot keep \(purpose): \(String(cString: strerror(errno)).lowercased())") }
        _ = fcntl(named, F_SETFD, FD_CLOEXEC)
        let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        unlink(path)
        return (named, path)
    }

    /// Where the kernel says descriptor `fd` of this process leads, or nil.
    public static func location(ofDescriptor fd: Int32) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/fd/\(fd)", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
