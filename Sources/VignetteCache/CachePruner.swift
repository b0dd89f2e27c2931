import Foundation
import VignetteCore

/// Removes freedesktop thumbnail cache entries whose file is gone or changed, then, given a size
/// limit, the least recently used entries until the cache fits.
///
/// Every flavor folder (`normal`, `large`, `x-large`, `xx-large`) and every `fail/*/` folder is
/// looked at; an entry is a regular `*.png` file directly inside one (hidden names, which are
/// writers' temporaries, are not). Nothing is followed below the root: a folder or entry that is
/// a symbolic link is skipped, files are opened with `O_NOFOLLOW`, and an entry is removed only
/// if it is still the file that was read (same device and inode).
///
/// An entry whose `Thumb::URI` is a local `file://` URI is stale when that file no longer exists,
/// or when its modification time differs from `Thumb::MTime` or its size from `Thumb::Size` (when
/// recorded) — the same test as `CacheEntry.isValid(for:)`. Entries of other URIs (`trash:`,
/// remote hosts) are never stale. Entries that cannot be read (not a PNG, no `Thumb::URI`, a
/// malformed `file:` URI, no `Thumb::MTime` for a file that exists) are left alone and counted.
/// An original that cannot be checked (a folder on its path may not be searched) keeps its entry.
///
/// With `maxSize`, the entries that remain (of any URI) are then removed least recently used
/// first until the entry files total at most `maxSize` bytes (unreadable ones count toward the
/// total but are never removed). Last use is the later of the entry file's access time and its
/// modification time: where access times are recorded it is the last read, and on a `noatime`
/// mount, or for an entry never read, the time it was written. Entries are read with `O_NOATIME`
/// where allowed (the owner, or root), so pruning does not itself make every entry look used.
public struct CachePruner: Sendable {
    /// The cache root (`…/thumbnails`). The root itself may be a symbolic link; nothing below it is followed.
    public let root: String
    /// The most bytes the entry files may total after pruning; nil for no limit.
    public let maxSize: Int?
    /// Whether to only say what would be removed.
    public let dryRun: Bool

    /// A pruner of the cache at `root` (made absolute).
    public init(root: String, maxSize: Int? = nil, dryRun: Bool = false) {
        self.root = SourceFile.absolute(root)
        self.maxSize = maxSize
        self.dryRun = dryRun
    }

    /// Bytes read from each entry: the text chunks come before the pixels (as in `CacheEntry(path:)`).
    static let entryPrefix = 16 << 10

    /// `O_NOATIME`, which Glibc's module map does not export (its value on x86-64 and ARM Linux).
    static let noAccessTime: Int32 = 0o1_000_000

    /// An open folder of entries.
    struct Folder {
        let fd: Int32
        let path: String
    }

    /// An entry that was read and not (yet) removed.
    struct Entry {
        let folder: Folder
        let name: String
        let device: UInt64
        let inode: UInt64
        let bytes: Int
        /// The later of access and modification time, in nanoseconds since 1970.
        let lastUsed: Int
        let uri: String

        var path: String { folder.path + "/" + name }
    }

    /// Prunes the cache and reports what was done. A root that does not exist is an empty cache.
    public func run() -> CachePruneReport {
        var report = CachePruneReport(dryRun: dryRun)
        let rootFD = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard rootFD >= 0 else {
            if errno != ENOENT { report.errors.append(VignetteError.fromErrno(errno, path: root).withReason("cannot read the cache")) }
            return report
        }
        defer { close(rootFD) }
        let folders = openFolders(rootFD, report: &report)
        defer { for folder in folders { close(folder.fd) } }

        var kept: [Entry] = []
        for folder in folders {
            guard let names = list(folder, report: &report) else { continue }
            for name in names where !name.hasPrefix(".") && name.hasSuffix(".png") {
                check(name, in: folder, report: &report, kept: &kept)
            }
        }

        guard let maxSize, report.remainingBytes > maxSize else { return report }
        let oldestFirst = kept.sorted { ($0.lastUsed, $0.path) < ($1.lastUsed, $1.path) }
        for entry in oldestFirst {
            if report.remainingBytes <= maxSize { break }
            if remove(entry, .overMaxSize, report: &report) { report.remainingBytes -= entry.bytes }
        }
        return report
    }

    /// The flavor folders, then every `fail/*/` folder, that exist and are real folders.
    func openFolders(_ rootFD: Int32, report: inout CachePruneReport) -> [Folder] {
        var folders: [Folder] = []
        for flavor in ThumbnailFlavor.allCases {
            if let folder = openFolder(rootFD, flavor.rawValue, path: root + "/" + flavor.rawValue, report: &report) {
                folders.append(folder)
            }
        }
        guard let fail = openFolder(rootFD, "fail", path: root + "/fail", report: &report) else { return folders }
        defer { close(fail.fd) }
        for name in list(fail, report: &report) ?? [] where !name.hasPrefix(".") {
            if let folder = openFolder(fail.fd, name, path: fail.path + "/" + name, report: &report) { folders.append(folder) }
        }
        return folders
    }

    /// Opens the folder `name` in `parent` without following a link; nil (and no error) when it
    /// is missing, a symbolic link or not a folder.
    func openFolder(_ parent: Int32, _ name: String, path: String, report: inout CachePruneReport) -> Folder? {
        let fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else {
            let e = errno
            if e != ENOENT && e != ELOOP && e != ENOTDIR {
                report.errors.append(VignetteError.fromErrno(e, path: path).withReason("cannot read the cache folder"))
            }
            return nil
        }
        return Folder(fd: fd, path: path)
    }

    /// The names in `folder` that are UTF-8 (cache names are hex), sorted; nil when it cannot be listed.
    func list(_ folder: Folder, report: inout CachePruneReport) -> [String]? {
        let copy = dup(folder.fd)
        guard copy >= 0, let dir = fdopendir(copy) else {
            let e = errno
            if copy >= 0 { close(copy) }
            report.errors.append(VignetteError.fromErrno(e, path: folder.path).withReason("cannot list the cache folder"))
            return nil
        }
        defer { closedir(dir) }
        var names: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(dir) else {
                if errno != 0 {
                    report.errors.append(VignetteError.fromErrno(errno, path: folder.path).withReason("cannot list the cache folder"))
                }
                break
            }
            let name = withUnsafePointer(to: entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: UInt8.self, capacity: 256) { bytes in
                    String(
                        validating: UnsafeBufferPointer(
                            start: bytes, count: strnlen(UnsafeRawPointer(bytes).assumingMemoryBound(to: CChar.self), 256)), as: UTF8.self)
                }
            }
            if let name, name != ".", name != ".." { names.append(name) }
        }
        return names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// Reads the entry `name` and removes it when stale; otherwise counts it as kept or unreadable.
    func check(_ name: String, in folder: Folder, report: inout CachePruneReport, kept: inout [Entry]) {
        let path = folder.path + "/" + name
        var st = stat()
        guard fstatat(folder.fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 else {
            if errno != ENOENT { report.errors.append(VignetteError.fromErrno(errno, path: path).withReason("cannot read the entry")) }
            return
        }
        // Links, folders, FIFOs: not entries, and not ours to touch.
        guard (st.st_mode & S_IFMT) == S_IFREG else { return }
        report.checked += 1
        let bytes: [UInt8]
        switch read(name, in: folder, status: &st) {
        case .success(let read): bytes = read
        case .failure(let error):
            report.errors.append(error.about(path).withReason("cannot read the entry"))
            leaveAlone(path, "cannot be read", bytes: Int(st.st_size), report: &report)
            return
        }
        let size = Int(st.st_size)
        guard let cached = CacheEntry(pngBytes: bytes) else { return leaveAlone(path, "not a PNG", bytes: size, report: &report) }
        guard let uri = cached.uri else { return leaveAlone(path, "no Thumb::URI", bytes: size, report: &report) }
        let accessed = Int(st.st_atim.tv_sec) * 1_000_000_000 + Int(st.st_atim.tv_nsec)
        let modified = Int(st.st_mtim.tv_sec) * 1_000_000_000 + Int(st.st_mtim.tv_nsec)
        let entry = Entry(
            folder: folder, name: name, device: UInt64(st.st_dev), inode: UInt64(st.st_ino), bytes: size,
            lastUsed: max(accessed, modified), uri: uri)

        var stale: CachePruneReport.Reason?
        switch LocalFileURI(uri) {
        case .notLocal: break
        case .malformed: return leaveAlone(path, "not a valid file URI", bytes: size, report: &report)
        case .path(let original):
            var source = stat()
            let found = (original + [0]).withUnsafeBufferPointer { p in
                p.withMemoryRebound(to: CChar.self) { stat($0.baseAddress!, &source) }
            }
            if found != 0 {
                // Only a definite "not there" is gone; EACCES and the like leave the entry as it is.
                if errno == ENOENT || errno == ENOTDIR { stale = .fileGone }
            } else {
                let matches = cached.matches(
                    modificationSeconds: Int(source.st_mtim.tv_sec), modificationNanoseconds: Int(source.st_mtim.tv_nsec),
                    size: Int(source.st_size))
                guard let matches else { return leaveAlone(path, "no Thumb::MTime", bytes: size, report: &report) }
                if !matches { stale = .fileChanged }
            }
        }
        if let stale {
            if !remove(entry, stale, report: &report) { report.remainingBytes += size }
        } else {
            kept.append(entry)
            report.remainingBytes += size
        }
    }

    /// Counts an entry left alone because it could not be read.
    func leaveAlone(_ path: String, _ reason: String, bytes: Int, report: inout CachePruneReport) {
        report.unreadable.append(CachePruneReport.Unreadable(path: path, reason: reason))
        report.remainingBytes += bytes
    }

    /// The first `entryPrefix` bytes of the entry, opened without following links or blocking and
    /// without touching its access time where allowed; `status` becomes the opened file's.
    func read(_ name: String, in folder: Folder, status: inout stat) -> Result<[UInt8], VignetteError> {
        var fd = openat(folder.fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | Self.noAccessTime)
        // O_NOATIME is for the file's owner (or root) only.
        if fd < 0 && errno == EPERM { fd = openat(folder.fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC) }
        guard fd >= 0 else { return .failure(VignetteError.fromErrno(errno, path: name)) }
        defer { close(fd) }
        guard fstat(fd, &status) == 0 else { return .failure(VignetteError.fromErrno(errno, path: name)) }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            return .failure(VignetteError(.notRegularFile, path: name, "is no longer a regular file"))
        }
        var buffer = [UInt8](repeating: 0, count: Self.entryPrefix)
        var done = 0
        while done < buffer.count {
            let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, $0.count - done, off_t(done)) }
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(VignetteError.fromErrno(errno, path: name))
            }
            if n == 0 { break }
            done += n
        }
        buffer.removeLast(buffer.count - done)
        return .success(buffer)
    }

    /// Removes `entry` (unless a dry run) if it is still the file that was read; records the
    /// removal and returns true, or reports why not and returns false.
    func remove(_ entry: Entry, _ reason: CachePruneReport.Reason, report: inout CachePruneReport) -> Bool {
        if !dryRun {
            var now = stat()
            guard fstatat(entry.folder.fd, entry.name, &now, AT_SYMLINK_NOFOLLOW) == 0 else {
                if errno != ENOENT {
                    report.errors.append(VignetteError.fromErrno(errno, path: entry.path).withReason("cannot remove the entry"))
                }
                return false
            }
            // Rewritten (or replaced) since it was read: the newcomer is not what was judged.
            guard UInt64(now.st_dev) == entry.device, UInt64(now.st_ino) == entry.inode, (now.st_mode & S_IFMT) == S_IFREG else {
                return false
            }
            guard unlinkat(entry.folder.fd, entry.name, 0) == 0 else {
                report.errors.append(VignetteError.fromErrno(errno, path: entry.path).withReason("cannot remove the entry"))
                return false
            }
        }
        report.removals.append(CachePruneReport.Removal(path: entry.path, uri: entry.uri, reason: reason, bytes: entry.bytes))
        return true
    }
}
