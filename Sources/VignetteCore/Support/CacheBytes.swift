import Foundation

/// The bytes of a compiled cache file: the file mapped into memory, or a copy of an array.
///
/// A mapped file costs only the pages that are read (the type catalog's cache is read in place
/// and mostly not at all), where reading it whole would zero, fault in and copy every page.
/// Like shared-mime-info's `mime.cache`, which GLib maps the same way, the file is only ever
/// replaced by renaming a new one over it, never rewritten in place, so a mapping stays whole.
final class CacheBytes: @unchecked Sendable {
    /// The bytes; valid for the life of this object, never written.
    let raw: UnsafeRawBufferPointer
    private let mapped: Bool

    /// A copy of `bytes`.
    init(copying bytes: [UInt8]) {
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 8)
        bytes.withUnsafeBytes { copy.copyMemory(from: $0) }
        raw = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(copy)[0..<bytes.count])
        mapped = false
    }

    /// The file at `path` mapped read-only, or nil when it cannot be opened, is not a regular
    /// file, or is empty or implausibly large.
    init?(mapping path: String) {
        // Non-blocking: a FIFO put where the cache belongs would otherwise hang every command in open().
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, st.st_size > 0, st.st_size < 64 << 20 else { return nil }
        let size = Int(st.st_size)
        guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), base != MAP_FAILED else { return nil }
        raw = UnsafeRawBufferPointer(start: base, count: size)
        mapped = true
    }

    deinit {
        if mapped {
            munmap(UnsafeMutableRawPointer(mutating: raw.baseAddress), raw.count)
        } else {
            UnsafeMutableRawPointer(mutating: raw.baseAddress)?.deallocate()
        }
    }

    var count: Int { raw.count }
}
