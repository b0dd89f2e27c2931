import Foundation
import VignetteCore

/// What the thumbnail management D-Bus spec's `Cache1` interface asks of the cache: follow files
/// that moved or were copied, forget deleted ones, clean up below folders.
///
/// Every flavor folder and this program's fail folder are looked at. Entries are named by the
/// MD5 of the file's URI, so a moved entry is renamed and its `Thumb::URI` rewritten (the other
/// keys stay: a move keeps the file's modification time, so the entry stays valid).
extension ThumbnailCache {
    /// The folders an entry of one file may be in: every flavor, then the fail folder.
    var entryFolders: [String] { ThumbnailFlavor.allCases.map { directory(for: $0) } + [failDirectory] }

    /// `uri` as the cache names it: a local `file:` URI in GLib's canonical escaping, any other as given.
    public static func canonicalURI(_ uri: String) -> String {
        guard let path = localPath(ofURI: uri) else { return uri }
        return FileURI.string(forAbsolutePath: path)
    }

    /// The local path a `file:` URI names (GLib's rules), or nil for another scheme, another host,
    /// a malformed URI or a path that is not UTF-8.
    public static func localPath(ofURI uri: String) -> String? {
        guard case .path(let bytes) = LocalFileURI(uri) else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }

    /// Moves the entries of `from` to `to` (every flavor and the fail folder); returns how many.
    @discardableResult
    public func moveEntries(from: String, to: String) -> Int {
        transfer(from: from, to: to, keepSource: false)
    }

    /// Copies the entries of `from` to `to`; returns how many.
    @discardableResult
    public func copyEntries(from: String, to: String) -> Int {
        transfer(from: from, to: to, keepSource: true)
    }

    /// Removes the entries of `uri` in every flavor and the fail folder; returns how many.
    @discardableResult
    public func deleteEntries(of uri: String) -> Int {
        let name = ThumbnailURI.cacheName(forURI: Self.canonicalURI(uri))
        return entryFolders.filter { unlink($0 + "/" + name) == 0 }.count
    }

    /// Removes the entries of files at or below the `prefixes` (URIs) that are gone or changed, and,
    /// when `since` is not 0, only those whose `Thumb::MTime` is at most `since`; returns how many.
    @discardableResult
    public func cleanUp(below prefixes: [String], since: Int) -> Int {
        let bases = prefixes.map { Self.canonicalURI($0) }.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
        var removed = 0
        for folder in entryFolders {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { continue }
            for name in names where name.hasSuffix(".png") && !name.hasPrefix(".") {
                let path = folder + "/" + name
                guard let entry = CacheEntry(path: path), let uri = entry.uri else { continue }
                guard bases.isEmpty || bases.contains(where: { uri == $0 || uri.hasPrefix($0 + "/") }) else { continue }
                if since != 0, let mtime = entry.modificationTime, mtime > Double(since) { continue }
                guard let local = Self.localPath(ofURI: uri) else { continue }
                if let source = try? SourceFile(path: local), entry.isValid(for: source) { continue }
                if unlink(path) == 0 { removed += 1 }
            }
        }
        return removed
    }

    /// Most bytes of an entry that a move or copy reads (an xx-large PNG is a few megabytes at most).
    static let maxEntryBytes = 64 << 20

    private func transfer(from: String, to: String, keepSource: Bool) -> Int {
        let target = Self.canonicalURI(to)
        let oldName = ThumbnailURI.cacheName(forURI: Self.canonicalURI(from))
        let newName = ThumbnailURI.cacheName(forURI: target)
        guard oldName != newName else { return 0 }
        var done = 0
        for folder in entryFolders {
            let old = folder + "/" + oldName
            // Read as a regular file only, and bounded: a FIFO planted under an entry's name must not block the service.
            guard let data = try? FileSample.readContents(ofFile: old, limit: Self.maxEntryBytes),
                let bytes = PNGTextChunks.replacing("Thumb::URI", with: target, in: data)
            else { continue }
            do {
                try AtomicFile.write(bytes, to: folder + "/" + newName, permissions: 0o600, temporaryTag: Self.temporaryTag)
            } catch {
                continue
            }
            if !keepSource { unlink(old) }
            done += 1
        }
        return done
    }
}
