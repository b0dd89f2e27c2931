import Foundation

/// The names in a folder, read with `opendir`/`readdir`.
///
/// The folders every command lists (generator manifests, `.thumbnailer` files, MIME packages)
/// are read this way rather than with FileManager's `contentsOfDirectory`, whose bridging and
/// allocations were a visible part of a one-file command's start.
public enum DirectoryListing {
    /// The names in the folder at `path` (without `.` and `..`), in no order; nil when it cannot be read.
    public static func names(in path: String) -> [String]? {
        guard let dir = opendir(path) else { return nil }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
