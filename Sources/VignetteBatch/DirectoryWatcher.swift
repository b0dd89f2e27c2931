import Foundation
import VignetteCore

/// The inotify watches on a set of folders: which folder each watch is, and the events read from them.
///
/// Only files that were written and closed (`IN_CLOSE_WRITE`) or moved in (`IN_MOVED_TO`) are
/// reported, never a file still being written; folders that appear (`IN_CREATE`, `IN_MOVED_TO`)
/// are reported so the caller can watch them too. Not thread-safe: one thread owns it.
final class DirectoryWatcher {
    /// What one read of the watches said.
    enum Event: Equatable {
        /// A file was written and closed, or moved into a watched folder.
        case file(String)
        /// A folder was made in, or moved into, a watched folder.
        case directory(String)
        /// A watched folder was deleted or moved away; its watch is gone.
        case gone(String)
        /// The kernel's event queue overflowed: events were lost, the tree must be read again.
        case overflow
    }

    /// Why a folder could not be watched.
    enum Failure: Error, Equatable {
        /// The per-user limit of watches (/proc/sys/fs/inotify/max_user_watches) is reached.
        case limitReached
        /// Any other reason, as errno.
        case other(Int32)
    }

    /// The inotify descriptor (for `poll`).
    let descriptor: Int32
    private var paths: [Int32: String] = [:]
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)

    // Files complete, folders that appear, and the watched folder itself going away.
    private static let mask =
        UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO) | UInt32(IN_CREATE) | UInt32(IN_DELETE_SELF)
        | UInt32(IN_MOVE_SELF) | UInt32(IN_ONLYDIR)

    /// A new inotify instance, without watches.
    ///
    /// - Throws: a `VignetteError` when the kernel refuses one (too many instances, no inotify).
    init() throws {
        let fd = inotify_init1(Int32(O_NONBLOCK | O_CLOEXEC))
        guard fd >= 0 else {
            let reason = errno == EMFILE ? "too many inotify instances (see /proc/sys/fs/inotify/max_user_instances)" : "cannot use inotify"
            throw VignetteError(.io, reason + ": " + String(cString: strerror(errno)).lowercased())
        }
        descriptor = fd
    }

    deinit { close(descriptor) }

    /// The number of folders watched.
    var count: Int { paths.count }

    /// Watches the folder at absolute `path` (again: its path is updated, as after a move).
    func watch(_ path: String) throws(Failure) {
        let wd = inotify_add_watch(descriptor, path, Self.mask)
        guard wd >= 0 else {
            throw errno == ENOSPC ? .limitReached : .other(errno)
        }
        paths[wd] = path
    }

    /// Reads the events waiting (none when there are none; never blocks).
    func read() -> [Event] {
        var events: [Event] = []
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            var offset = 0
            // struct inotify_event: wd, mask, cookie, len (4 bytes each), then len bytes of name.
            while offset + 16 <= n {
                let (wd, mask, length) = buffer.withUnsafeBytes { raw in
                    (
                        raw.loadUnaligned(fromByteOffset: offset, as: Int32.self),
                        raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self),
                        Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                    )
                }
                let nameBytes = buffer[(offset + 16)..<min(n, offset + 16 + length)].prefix { $0 != 0 }
                offset += 16 + length
                if let event = event(wd: wd, mask: mask, name: String(decoding: nameBytes, as: UTF8.self)) { events.append(event) }
            }
        }
        return events
    }

    private func event(wd: Int32, mask: UInt32, name: String) -> Event? {
        if mask & UInt32(IN_Q_OVERFLOW) != 0 { return .overflow }
        guard let folder = paths[wd] else { return nil }
        if mask & UInt32(IN_IGNORED) != 0 {
            paths[wd] = nil
            return nil
        }
        if mask & (UInt32(IN_DELETE_SELF) | UInt32(IN_MOVE_SELF)) != 0 { return .gone(folder) }
        let path = folder == "/" ? "/" + name : folder + "/" + name
        if mask & UInt32(IN_ISDIR) != 0 {
            return mask & (UInt32(IN_CREATE) | UInt32(IN_MOVED_TO)) != 0 ? .directory(path) : nil
        }
        return mask & (UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO)) != 0 ? .file(path) : nil
    }
}
