import Foundation

/// The files a command reads, so that an output path naming one of them is refused.
///
/// A path is one of them when it is spelled the same once standardised, or when it reaches the
/// same file (device and inode, through any symbolic link or hard link): `OutputFile` writes
/// through links, so `-o link-to-the-input` would otherwise overwrite the input.
public struct ProtectedFiles: Sendable {
    private struct Identity: Hashable {
        let device: UInt64
        let inode: UInt64
    }

    private let paths: Set<String>
    private let identities: Set<Identity>

    /// The protected set of `paths` (those that do not exist are matched by spelling only).
    public init(_ paths: [String]) {
        self.paths = Set(paths.map(Self.standardized))
        self.identities = Set(paths.compactMap(Self.identity))
    }

    /// Whether writing `destination` would overwrite one of the files.
    public func contains(_ destination: String) -> Bool {
        if paths.contains(Self.standardized(destination)) { return true }
        return Self.identity(destination).map(identities.contains) ?? false
    }

    private static func standardized(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }

    private static func identity(_ path: String) -> Identity? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return Identity(device: UInt64(st.st_dev), inode: UInt64(st.st_ino))
    }
}
