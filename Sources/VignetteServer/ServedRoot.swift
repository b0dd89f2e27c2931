import Foundation
public import VignetteCore

/// The directory the service serves, and the only way a request's path becomes a file path.
///
/// A relative path from a request is accepted only when it opens a regular file whose real
/// location (symbolic links resolved, asked of the open descriptor) is below the root:
/// absolute paths, any `..` component, percent signs left after the one decoding the URL needs
/// (double-encoded traversal), NUL bytes and links out of the root are all refused, and the
/// caller answers 404 without saying which rule applied. Dotfiles and dot-directories (`.env`,
/// `.git/config`) are refused too, by name and by real location, unless the root is made with
/// `servesDotfiles`.
public struct ServedRoot: Sendable {
    /// The root's real path (symbolic links resolved), without a trailing slash.
    public let path: String
    /// Whether names starting with a dot may be served.
    public let servesDotfiles: Bool

    /// A root over `directory`; nil when it does not exist or is not a directory.
    public init?(_ directory: String, servesDotfiles: Bool = false) {
        guard let real = Self.realPath(directory) else { return nil }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: real, isDirectory: &isDirectory), isDirectory.boolValue else { return nil }
        path = real == "/" ? "" : real
        self.servesDotfiles = servesDotfiles
    }

    /// The file `relative` names below the root, opened, or nil when it is refused or absent.
    ///
    /// The checks are made on what was opened, not on the name: the descriptor must be a
    /// regular file, and the kernel's answer for where it leads must be below the root (and
    /// not a dotfile). A link swapped in at any moment therefore yields either the file that was
    /// there or a refusal; from then on everything reads through the descriptor. (This gives
    /// what `openat2(RESOLVE_BENEATH)` would, on every kernel, and still lets links inside
    /// the root lead to files inside it.)
    public func open(_ relative: String) -> OpenedFile? {
        guard Self.isAcceptable(relative), servesDotfiles || !Self.hasDotComponent(relative) else { return nil }
        // Non-blocking, so a FIFO swapped in cannot hold the open; it is refused below.
        let fd = Glibc.open(path + "/" + relative, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, let real = OpenedFile.location(ofDescriptor: fd),
            real.hasPrefix(path + "/"),
            // A link with an ordinary name may still lead to a dotfile inside the root.
            servesDotfiles || !Self.hasDotComponent(String(real.dropFirst(path.count + 1)))
        else {
            close(fd)
            return nil
        }
        return OpenedFile(descriptor: fd, name: (real as NSString).lastPathComponent, realPath: real)
    }

    /// Whether `relative` passes the lexical rules (before the file system is asked).
    static func isAcceptable(_ relative: String) -> Bool {
        guard !relative.isEmpty, relative.utf8.count <= 4096 else { return false }
        guard !relative.hasPrefix("/"), !relative.hasPrefix("\\") else { return false }
        // The URL was decoded once already; a "%" left means the client encoded twice.
        guard !relative.contains("%"), !relative.utf8.contains(0) else { return false }
        let components = relative.split(separator: "/", omittingEmptySubsequences: false)
        return !components.contains { $0 == ".." || $0.contains("\\..") || $0.contains("..\\") }
    }

    /// Whether a component of `relative` starts with a dot.
    static func hasDotComponent(_ relative: String) -> Bool {
        relative.split(separator: "/").contains { $0.hasPrefix(".") }
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
