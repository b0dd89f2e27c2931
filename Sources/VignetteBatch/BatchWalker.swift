import Foundation
import VignetteCache
public import VignetteCore

/// Walks files and directories one entry at a time, handing each wanted file to a callback.
///
/// Only the listing of the directories on the current path is held, never a list of all files.
/// Hidden entries, include/exclude globs, symbolic links, the shard and excluded directories (the
/// thumbnail cache, the output folder) are decided here.
public struct BatchWalker: Sendable {
    /// Whether directories are walked below their first level.
    public var recursive = true
    /// Whether names starting with a dot are walked.
    public var hidden = false
    /// Whether symbolic links are followed (each directory is still walked once).
    public var followSymlinks = false
    /// Globs a file must match one of (a glob with `/` matches the relative path); empty: every file.
    public var includes: [String] = []
    /// Globs of files and directories left out.
    public var excludes: [String] = []
    /// The share of files this process takes, if the tree is split.
    public var shard: ShardSpec?
    /// Directories never entered, by device and inode (the cache, the output folder).
    public var skippedDirectories: [String] = []
    /// Deepest directory nesting followed (a guard against pathological trees).
    public var maxDepth = 256

    /// A walker with the given choices (see the properties).
    public init(
        recursive: Bool = true, hidden: Bool = false, followSymlinks: Bool = false, includes: [String] = [], excludes: [String] = [],
        shard: ShardSpec? = nil
    ) {
        self.recursive = recursive
        self.hidden = hidden
        self.followSymlinks = followSymlinks
        self.includes = includes
        self.excludes = excludes
        self.shard = shard
    }

    /// Walks `arguments`; `found` gets each file (false stops the walk), `problem` each path that cannot be read.
    public func walk(_ arguments: [String], found: (WalkedFile) -> Bool, problem: (VignetteError) -> Void) {
        let skipped = Set(skippedDirectories.compactMap(Self.identity))
        let skippedPaths = Set(skippedDirectories.map(SourceFile.absolute))
        var visited = Set<FileIdentity>()
        for argument in arguments {
            var st = stat()
            guard stat(argument, &st) == 0 else {
                problem(VignetteError.fromErrno(errno, path: argument))
                continue
            }
            let absolute = SourceFile.absolute(argument)
            if (st.st_mode & S_IFMT) == S_IFDIR {
                let id = FileIdentity(st)
                if skipped.contains(id) || skippedPaths.contains(absolute) {
                    problem(
                        VignetteError(
                            .invalidRequest, path: argument,
                            "is where the thumbnails go (the --out folder or the cache), so it is not walked"))
                    continue
                }
                visited.insert(id)
                let trimmed = argument.count > 1 && argument.hasSuffix("/") ? String(argument.dropLast()) : argument
                if !walkDirectory(
                    trimmed, absolute: absolute, relative: "", depth: 0, skipped: (skipped, skippedPaths), visited: &visited, found: found,
                    problem: problem)
                {
                    return
                }
            } else if (st.st_mode & S_IFMT) == S_IFREG {
                if skippedPaths.contains(where: { absolute.hasPrefix($0 + "/") }) { continue }
                if let shard, !shard.contains(absolute) { continue }
                let name = (argument as NSString).lastPathComponent
                if !found(WalkedFile(displayPath: argument, absolutePath: absolute, relativePath: name)) { return }
            } else {
                problem(VignetteError(.notRegularFile, path: argument, "is not a regular file or directory"))
            }
        }
    }

    /// Walks one directory; false when the callback asked to stop.
    private func walkDirectory(
        _ display: String, absolute: String, relative: String, depth: Int, skipped: (ids: Set<FileIdentity>, paths: Set<String>),
        visited: inout Set<FileIdentity>,
        found: (WalkedFile) -> Bool, problem: (VignetteError) -> Void
    ) -> Bool {
        let shownDirectory = relative.isEmpty ? display : display + "/" + relative
        guard let (names, undecodable) = Self.list(absolute) else {
            problem(VignetteError.fromErrno(errno, path: shownDirectory).withReason("cannot list the directory"))
            return true
        }
        for raw in undecodable {
            problem(VignetteError(.unsupported, path: shownDirectory + "/" + raw, "the file name is not valid UTF-8; skipped"))
        }
        var subdirectories: [(String, FileIdentity)] = []
        for name in names {
            if !hidden && name.hasPrefix(".") { continue }
            let path = absolute == "/" ? "/" + name : absolute + "/" + name
            let rel = relative.isEmpty ? name : relative + "/" + name
            var st = stat()
            guard lstat(path, &st) == 0 else { continue }
            if (st.st_mode & S_IFMT) == S_IFLNK {
                // Unfollowed links are left alone, like find(1); followed ones that dangle too.
                guard followSymlinks, stat(path, &st) == 0 else { continue }
            }
            switch st.st_mode & S_IFMT {
            case S_IFDIR:
                guard recursive, !matches(excludes, name: name, relative: rel) else { continue }
                subdirectories.append((name, FileIdentity(st)))
            case S_IFREG:
                if matches(excludes, name: name, relative: rel) { continue }
                if !includes.isEmpty && !matches(includes, name: name, relative: rel) { continue }
                if let shard, !shard.contains(path) { continue }
                let shown = display == "." ? rel : display + "/" + rel
                if !found(WalkedFile(displayPath: shown, absolutePath: path, relativePath: rel)) { return false }
            default:
                continue
            }
        }
        guard depth < maxDepth else {
            if !subdirectories.isEmpty {
                problem(
                    VignetteError(
                        .limitExceeded, path: shownDirectory, "folders nested more than \(maxDepth) deep; the deeper ones are not walked"))
            }
            return true
        }
        for (name, id) in subdirectories {
            let path = absolute == "/" ? "/" + name : absolute + "/" + name
            // The cache may appear during the walk (made by the workers): its path is checked too.
            if skipped.ids.contains(id) || skipped.paths.contains(path) { continue }
            // Loop protection: a directory reached twice (through links) is walked once.
            if followSymlinks {
                if visited.contains(id) { continue }
                visited.insert(id)
            }
            let rel = relative.isEmpty ? name : relative + "/" + name
            if !walkDirectory(
                display, absolute: path, relative: rel, depth: depth + 1, skipped: skipped, visited: &visited, found: found,
                problem: problem)
            {
                return false
            }
        }
        return true
    }

    /// Whether any glob matches the name, or the relative path for globs with a slash.
    func matches(_ globs: [String], name: String, relative: String) -> Bool {
        globs.contains { glob in
            fnmatch(glob, glob.contains("/") ? relative : name, 0) == 0
        }
    }

    /// The entries of a directory, sorted (so runs and shards are reproducible), and the names
    /// that are not UTF-8 (escaped as `\xNN` for messages); nil on error.
    static func list(_ path: String) -> ([String], [String])? {
        guard let dir = opendir(path) else { return nil }
        defer { closedir(dir) }
        var names: [String] = []
        var undecodable: [String] = []
        while let entry = readdir(dir) {
            let bytes = withUnsafePointer(to: entry.pointee.d_name) { ptr in
                ptr.withMemoryRebound(to: UInt8.self, capacity: 256) { p in
                    Array(UnsafeBufferPointer(start: p, count: strnlen(UnsafeRawPointer(p).assumingMemoryBound(to: CChar.self), 256)))
                }
            }
            guard let name = String(validating: bytes, as: UTF8.self) else {
                undecodable.append(UndecodableName.shown(bytes))
                continue
            }
            if name == "." || name == ".." { continue }
            names.append(name)
        }
        return (names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }, undecodable)
    }

    /// The device and inode of an existing path.
    static func identity(_ path: String) -> FileIdentity? {
        var st = stat()
        return stat(path, &st) == 0 ? FileIdentity(st) : nil
    }
}
