import Foundation

/// The bytes of a file that type resolution may look at: the head, plus any small range on demand.
///
/// Opening never blocks (FIFOs are refused before any read) and never follows the file
/// into anything but a regular file. Reads are bounded: the head is `headSize` bytes and
/// each on-demand read is capped, so a hostile file cannot make resolution read much.
public final class FileSample: ByteReader, @unchecked Sendable {
    /// The file's size in bytes.
    public let size: Int
    /// The first bytes of the file (up to the head size).
    public let head: [UInt8]
    /// The file's name (last path component), used to refine generic content.
    public let filename: String?
    /// Modification time and permissions, when the sample came from a file.
    public let status: FileStatus?
    private let fd: Int32?
    private let data: [UInt8]?
    /// Largest on-demand read; keeps a hostile file from making us read much.
    public static let maxExtraRead = 1 << 20
    /// Bytes read by on-demand reads so far (for tests and budgets).
    public private(set) var extraBytesRead = 0

    /// Opens the file at `path` for sampling; throws a `VignetteError` naming `path` when it
    /// is missing, not a regular file, or unreadable.
    /// `filename` replaces the path's last component as the name (for a path that names a
    /// descriptor, as `OpenedFile.path` does); an empty one means the file has no name.
    public init(path: String, filename: String? = nil, headSize: Int = TypeResolver.headSize) throws {
        let fd = try FileSample.openRegularFile(path)
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            let e = errno
            close(fd)
            throw VignetteError.fromErrno(e, path: path)
        }
        self.fd = fd
        self.data = nil
        self.size = Int(st.st_size)
        if let filename {
            self.filename = filename.isEmpty ? nil : filename
        } else {
            self.filename = (path as NSString).lastPathComponent
        }
        self.status = FileStatus(st)
        var buffer = [UInt8](repeating: 0, count: min(headSize, Int(st.st_size)))
        let got = buffer.withUnsafeMutableBytes { raw in FileSample.preadFully(fd, raw, offset: 0) }
        if got < 0 {
            let e = errno
            close(fd)
            throw VignetteError.fromErrno(e, path: path)
        }
        buffer.removeLast(buffer.count - got)
        self.head = buffer
    }

    /// A sample over bytes already in memory (an upload), with an optional file name.
    public init(bytes: [UInt8], filename: String?, headSize: Int = TypeResolver.headSize) {
        self.fd = nil
        self.data = bytes
        self.size = bytes.count
        self.filename = filename
        self.status = nil
        self.head = Array(bytes.prefix(headSize))
    }

    deinit {
        if let fd { close(fd) }
    }

    /// `count` bytes at `offset`, from the head or read on demand; nil past the end or over the cap.
    public func bytes(at offset: Int, count: Int) -> ArraySlice<UInt8>? {
        guard offset >= 0, count >= 0, offset <= size - count else { return nil }
        if offset + count <= head.count { return head[offset..<(offset + count)] }
        if let data { return data[offset..<(offset + count)] }
        guard let fd, count <= FileSample.maxExtraRead else { return nil }
        var buffer = [UInt8](repeating: 0, count: count)
        let got = buffer.withUnsafeMutableBytes { raw in FileSample.preadFully(fd, raw, offset: offset) }
        extraBytesRead += max(got, 0)
        guard got == count else { return nil }
        return buffer[...]
    }

    /// Up to `count` bytes at `offset`, fewer where the file ends; nil past the end or over the cap.
    public func bytes(at offset: Int, upTo count: Int) -> ArraySlice<UInt8>? {
        guard offset >= 0, offset < size, count > 0 else { return nil }
        return bytes(at: offset, count: min(count, size - offset))
    }

    /// The last `count` bytes (or the whole file when shorter).
    public func tail(_ count: Int) -> ArraySlice<UInt8>? {
        let n = min(count, size)
        return bytes(at: size - n, count: n)
    }

    /// Opens `path` read-only without blocking and insists on a regular file; with `followLinks`
    /// false a symbolic link, even one swapped in after a check, is refused (`O_NOFOLLOW`).
    static func openRegularFile(_ path: String, followLinks: Bool = true) throws -> Int32 {
        // stat before open: opening a device or FIFO can block or have side effects.
        var st = stat()
        if stat(path, &st) != 0 {
            let e = errno
            var link = stat()
            if e == ENOENT, lstat(path, &link) == 0, (link.st_mode & S_IFMT) == S_IFLNK {
                throw VignetteError(.brokenSymlink, path: path, "broken symbolic link (its target does not exist)")
            }
            throw VignetteError.fromErrno(e, path: path)
        }
        try requireRegular(st, path: path)
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | (followLinks ? 0 : O_NOFOLLOW))
        if fd < 0 { throw VignetteError.fromErrno(errno, path: path) }
        // The path may have been swapped between stat and open: check what was opened.
        guard fstat(fd, &st) == 0 else {
            let e = errno
            close(fd)
            throw VignetteError.fromErrno(e, path: path)
        }
        do { try requireRegular(st, path: path) } catch {
            close(fd)
            throw error
        }
        // Regular file: reads must block normally (O_NONBLOCK only guarded the open).
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0 { _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }
        return fd
    }

    static func requireRegular(_ st: stat, path: String) throws {
        let what: String
        switch st.st_mode & S_IFMT {
        case S_IFREG: return
        case S_IFDIR: throw VignetteError(.isDirectory, path: path, "is a directory")
        case S_IFIFO: what = "is a FIFO (named pipe)"
        case S_IFCHR: what = "is a character device"
        case S_IFBLK: what = "is a block device"
        case S_IFSOCK: what = "is a socket"
        default: what = "is not a regular file"
        }
        throw VignetteError(.notRegularFile, path: path, what + ", not a regular file")
    }

    /// Reads until `buffer` is full or end of file; returns bytes read or -1.
    static func preadFully(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer, offset: Int) -> Int {
        var done = 0
        while done < buffer.count {
            let n = pread(fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
            if n < 0 {
                if errno == EINTR { continue }
                return -1
            }
            if n == 0 { break }
            done += n
        }
        return done
    }
}

/// What `stat` says of a file, for previews and caches.
public struct FileStatus: Sendable, Equatable {
    /// Size in bytes.
    public let size: Int
    /// Modification time, whole seconds since 1970.
    public let modificationSeconds: Int
    /// Modification time's nanoseconds part.
    public let modificationNanoseconds: Int
    /// Permission bits (`0o644`).
    public let permissions: Int

    init(_ st: stat) {
        size = Int(st.st_size)
        modificationSeconds = Int(st.st_mtim.tv_sec)
        modificationNanoseconds = Int(st.st_mtim.tv_nsec)
        permissions = Int(st.st_mode & 0o7777)
    }
}

extension FileSample {
    /// The whole content of the regular file at `path`, refusing files over `limit` bytes.
    ///
    /// Same refusals and messages as sampling: FIFOs, devices and directories are never read.
    public static func readContents(ofFile path: String, limit: Int) throws -> [UInt8] {
        let fd = try openRegularFile(path)
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw VignetteError.fromErrno(errno, path: path) }
        let size = Int(st.st_size)
        if size > limit {
            throw VignetteError(.limitExceeded, path: path, "file is \(ByteCount.text(size)), over the limit of \(ByteCount.text(limit))")
        }
        var buffer = [UInt8](repeating: 0, count: size)
        let got = buffer.withUnsafeMutableBytes { preadFully(fd, $0, offset: 0) }
        if got < 0 { throw VignetteError.fromErrno(errno, path: path) }
        // The file may have shrunk since fstat: keep what was really there.
        if got < size { buffer.removeLast(size - got) }
        return buffer
    }
}

extension FileSample {
    /// At most the first `count` bytes of the regular file at `path` (fewer when it is shorter);
    /// `followLinks` false refuses a symbolic link at `path`.
    public static func readPrefix(ofFile path: String, count: Int, followLinks: Bool = true) throws -> [UInt8] {
        let fd = try openRegularFile(path, followLinks: followLinks)
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: max(0, count))
        let got = buffer.withUnsafeMutableBytes { preadFully(fd, $0, offset: 0) }
        if got < 0 { throw VignetteError.fromErrno(errno, path: path) }
        buffer.removeLast(buffer.count - got)
        return buffer
    }
}

/// Human byte counts: "512 MB", "3.4 KB", "17 bytes" (decimal units, like `ls -h --si`).
public enum ByteCount {
    /// The count as text.
    public static func text(_ bytes: Int) -> String {
        if bytes < 1000 { return bytes == 1 ? "1 byte" : "\(bytes) bytes" }
        let units = ["KB", "MB", "GB", "TB"]
        var value = Double(bytes) / 1000
        var unit = 0
        while value >= 1000 && unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        let number = value >= 100 ? String(Int(value.rounded())) : String(format: "%.1f", value).replacingOccurrences(of: ".0", with: "")
        return "\(number) \(units[unit])"
    }
}
