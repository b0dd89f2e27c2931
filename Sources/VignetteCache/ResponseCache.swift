import Foundation
import VignetteCore

/// The service's cache of encoded responses on disk, by content key: `DIR/ab/abcdef….png` (or `.jpg`).
///
/// Unlike `ThumbnailCache` (the freedesktop cache, named by URI, PNG only, checked against the
/// file's keys), entries here are any encoded output, named by everything the output depends on.
/// Entries are written to a temporary name and renamed, so a reader sees a whole file or
/// none; the key already covers the file's identity (real path, size, mtime) and the options,
/// so an entry never goes stale, it only stops being asked for.
public struct ResponseCache: Sendable {
    /// The cache directory.
    public let directory: String
    /// The largest entry read back (anything bigger is not a thumbnail of ours).
    public static let maxEntryBytes = 64 << 20

    /// A cache in `directory`, created (0700) when missing.
    public init(directory: String) throws {
        self.directory = directory
        try DirectoryMaker.create(directory, permissions: 0o700, purpose: "cannot create the cache directory")
    }

    /// The entry for `key` in `format`'s extension, or nil.
    public func read(_ key: ContentKey, extension ext: String) -> [UInt8]? {
        try? FileSample.readContents(ofFile: entryPath(key, ext), limit: Self.maxEntryBytes)
    }

    /// Stores `bytes` as the entry for `key`; failures are ignored (a cache is optional).
    public func write(_ bytes: [UInt8], key: ContentKey, extension ext: String) {
        let path = entryPath(key, ext)
        let dir = (path as NSString).deletingLastPathComponent
        if !FileManager.default.fileExists(atPath: dir) {
            try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        try? AtomicFile.write(bytes, to: path, permissions: 0o600)
    }

    func entryPath(_ key: ContentKey, _ ext: String) -> String {
        "\(directory)/\(key.hex.prefix(2))/\(key.hex).\(ext)"
    }
}
