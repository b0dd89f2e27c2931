import Foundation

/// `mkdir -p` that says why it failed, which FileManager's "couldn't be completed" does not.
public enum DirectoryMaker {
    /// Creates `path` and its missing parents with `permissions` (less the umask); an existing
    /// directory is fine.
    ///
    /// - Throws: `VignetteError` naming `path`, its reason naming the part that failed:
    ///   "cannot create the output directory: out/file is a file, not a directory",
    ///   "…: cannot create /root/x: permission denied". `purpose` opens the reason.
    public static func create(_ path: String, permissions: Int = 0o755, purpose: String) throws {
        do {
            try make(path, permissions: permissions)
        } catch let problem as Problem {
            throw VignetteError(.io, path: path, "\(purpose): \(problem.text)")
        }
    }

    /// Why one part could not be made.
    private struct Problem: Error {
        let text: String
    }

    private static func make(_ path: String, permissions: Int) throws {
        var st = stat()
        if stat(path, &st) == 0 {
            guard st.st_mode & S_IFMT == S_IFDIR else { throw Problem(text: "\(path) is a file, not a directory") }
            return
        }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != path, parent != "/" { try make(parent, permissions: permissions) }
        guard mkdir(path, mode_t(permissions)) == 0 || errno == EEXIST else {
            throw Problem(text: "cannot create \(path): \(String(cString: strerror(errno)).lowercased())")
        }
    }
}
