public import Foundation
public import VignetteCore
import VignetteImaging

/// The freedesktop thumbnail cache (`$XDG_CACHE_HOME/thumbnails`): where entries go, whether one is
/// still valid, and writing thumbnails and fail entries exactly as GLib, GNOME and tumbler expect.
///
/// Directories are created 0700 and files 0600; every file is written under a temporary name in
/// its final directory and renamed, so a reader (or a killed writer) never sees a partial entry.
public struct ThumbnailCache: Sendable {
    /// The cache root, `…/thumbnails`.
    public let root: String
    /// The program name used for fail entries (`fail/NAME-VERSION/`) and `Software`.
    public let software: String
    /// The program version.
    public let version: String

    /// A cache at `root` for the program `software` at `version`.
    public init(root: String, software: String = "vignette", version: String) {
        self.root = SourceFile.absolute(root)
        self.software = software
        self.version = version
    }

    /// `$XDG_CACHE_HOME/thumbnails`, else `$HOME/.cache/thumbnails` (an empty or relative
    /// `XDG_CACHE_HOME` is ignored, as the XDG base directory spec says).
    public static func defaultRoot(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        XDGDirectories(environment: environment).cacheHome + "/thumbnails"
    }

    /// The directory of one flavor (`ROOT/large`).
    public func directory(for flavor: ThumbnailFlavor) -> String { root + "/" + flavor.rawValue }

    /// This program's fail directory (`ROOT/fail/vignette-0.1.0`).
    public var failDirectory: String { root + "/fail/\(software)-\(version)" }

    /// Where the thumbnail of `source` goes in `flavor`.
    public func thumbnailPath(for source: SourceFile, flavor: ThumbnailFlavor) -> String {
        directory(for: flavor) + "/" + ThumbnailURI.cacheName(forURI: source.uri)
    }

    /// Where a failure to thumbnail `source` is recorded.
    public func failPath(for source: SourceFile) -> String {
        failDirectory + "/" + ThumbnailURI.cacheName(forURI: source.uri)
    }

    /// Whether `path` (absolute) is the cache or inside it (such files are never thumbnailed).
    public func contains(_ path: String) -> Bool {
        path == root || path.hasPrefix(root + "/")
    }

    /// What the cache holds for `source`.
    public enum State: Sendable, Equatable {
        /// A valid thumbnail: nothing to do.
        case valid
        /// A recorded failure that still matches the file (the entry): skip unless retrying.
        case failed(CacheEntry)
        /// Nothing, or an entry that no longer matches: make the thumbnail.
        case missing
    }

    /// The state of `source` in `flavor`: a valid thumbnail first, then a matching fail entry.
    public func state(of source: SourceFile, flavor: ThumbnailFlavor) -> State {
        if let entry = CacheEntry(path: thumbnailPath(for: source, flavor: flavor)), entry.isValid(for: source) { return .valid }
        if let entry = CacheEntry(path: failPath(for: source)), entry.isValid(for: source) { return .failed(entry) }
        return .missing
    }

    /// The text keys recorded for `source`: the spec's `Thumb::` keys and this program's `Software`.
    func keys(for source: SourceFile, mimeType: String?, imageSize: PixelSize?) -> [(String, String)] {
        ThumbnailKeys.text(for: source, mimeType: mimeType, imageSize: imageSize, software: "\(software) \(version)")
    }

    /// Stores `bitmap` as the thumbnail of `source` in `flavor` (8-bit RGBA PNG with the spec's keys),
    /// removing any fail entry for it; returns the path written.
    ///
    /// `imageSize` is the original's size in pixels, when known (`Thumb::Image::Width/Height`).
    @discardableResult
    public func store(
        _ bitmap: Bitmap, for source: SourceFile, flavor: ThumbnailFlavor, mimeType: String?, imageSize: PixelSize? = nil
    ) throws -> String {
        let dir = directory(for: flavor)
        try makeDirectories(dir)
        let path = thumbnailPath(for: source, flavor: flavor)
        // zlib level 1: a bulk fill spends ~15 % less CPU for files ~5 % larger than at the default 6.
        let bytes = try ImageEncoder.png(
            bitmap, keepAlpha: true, text: keys(for: source, mimeType: mimeType, imageSize: imageSize),
            compression: 1)
        try AtomicFile.write(bytes, to: path, permissions: 0o600, temporaryTag: Self.temporaryTag)
        unlink(failPath(for: source))
        return path
    }

    /// Records that `source` could not be thumbnailed: an empty (1 × 1 transparent) PNG with its URI
    /// and MTime (and any `extra` keys) in the fail directory; returns the path written.
    @discardableResult
    public func storeFailure(for source: SourceFile, mimeType: String?, extra: [(String, String)] = []) throws -> String {
        try makeDirectories(failDirectory)
        let path = failPath(for: source)
        let text = keys(for: source, mimeType: mimeType, imageSize: nil) + extra
        let bytes = try ImageEncoder.png(Bitmap(width: 1, height: 1), keepAlpha: true, text: text)
        try AtomicFile.write(bytes, to: path, permissions: 0o600, temporaryTag: Self.temporaryTag)
        return path
    }

    /// The tag in this process's temporaries: `vignette` and the process id.
    static var temporaryTag: String { "vignette\(getpid())" }

    /// Removes temporaries left by a killed writer in `flavor`'s directory and the fail directory;
    /// returns how many. A temporary is removed when the process that wrote it (its name says which)
    /// no longer runs on this machine, or else when older than `age` seconds (a writer elsewhere,
    /// sharing the cache over the network, or a process id reused since).
    @discardableResult
    public func removeStaleTemporaries(flavor: ThumbnailFlavor, olderThan age: TimeInterval = 600) -> Int {
        var removed = 0
        let now = Date().timeIntervalSince1970
        for dir in [directory(for: flavor), failDirectory] {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else { continue }
            for name in names where name.hasPrefix(".") && name.contains(".png.tmp-") {
                var st = stat()
                let path = dir + "/" + name
                guard lstat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { continue }
                if Self.writerIsGone(name) || now - Double(st.st_mtim.tv_sec) > age {
                    if unlink(path) == 0 { removed += 1 }
                }
            }
        }
        return removed
    }

    /// Whether the temporary `name` (`.X.png.tmp-vignettePID-XXXXXX`) was written by a process that is gone.
    static func writerIsGone(_ name: String) -> Bool {
        guard let range = name.range(of: ".png.tmp-vignette") else { return false }
        let digits = name[range.upperBound...].prefix { $0.isNumber }
        guard let pid = Int32(digits), pid > 0, pid != getpid() else { return false }
        return kill(pid, 0) != 0 && errno == ESRCH
    }

    /// Creates `dir` and its missing parents up from the cache root's parent, each 0700.
    func makeDirectories(_ dir: String) throws {
        var st = stat()
        if stat(dir, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR { return }
        var path = ""
        for part in dir.split(separator: "/") {
            path += "/" + part
            if mkdir(path, 0o700) != 0 && errno != EEXIST {
                throw VignetteError(.io, path: path, "cannot create the cache directory: \(String(cString: strerror(errno)).lowercased())")
            }
        }
    }
}
