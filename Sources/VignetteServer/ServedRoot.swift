import Foundation

/// The directory the service serves, and the only way a request's path becomes a file path.
///
/// A relative path from a request is accepted only when it names a regular file whose real
/// location (symbolic links resolved) is below the root: absolute paths, any `..` component,
/// percent signs left after the one decoding the URL needs (double-encoded traversal), NUL
/// bytes and links out of the root are all refused, and the caller answers 404 without saying
/// which rule applied. Dotfiles and dot-directories (`.env`, `.git/config`) are refused too,
/// by name and by real location, unless the root is made with `servesDotfiles`.
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

    /// The real path of the file `relative` names below the root, or nil when it is refused or absent.
    public func resolve(_ relative: String) -> String? {
        guard Self.isAcceptable(relative), servesDotfiles || !Self.hasDotComponent(relative) else { return nil }
        guard let real = Self.realPath(path + "/" + relative) else { return nil }
        guard real.hasPrefix(path + "/") else { return nil }
        // A link with an ordinary name may still lead to a dotfile inside the root.
        guard servesDotfiles || !Self.hasDotComponent(String(real.dropFirst(path.count + 1))) else { return nil }
        var st = stat()
        guard stat(real, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        return real
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
