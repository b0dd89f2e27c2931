import Foundation
import VignetteCache
import VignetteCore

/// A file written bit by bit into a temporary beside its destination, renamed there by `commit`.
final class StreamedFile {
    let destination: String
    private let temporary: String
    private let handle: FileHandle
    private var writeFailed = false
    private var committed = false

    /// Creates the temporary (the destination's directory must exist).
    init(destination: String) throws {
        self.destination = destination
        let dir = (SourceFile.absolute(destination) as NSString).deletingLastPathComponent
        temporary = dir + "/." + (destination as NSString).lastPathComponent + ".tmp-\(getpid())"
        guard FileManager.default.createFile(atPath: temporary, contents: nil), let handle = FileHandle(forWritingAtPath: temporary) else {
            throw VignetteError(.io, path: destination, "cannot create the file")
        }
        self.handle = handle
    }

    deinit {
        try? handle.close()
        if !committed { unlink(temporary) }
    }

    func write(_ text: String) {
        do { try handle.write(contentsOf: Data(text.utf8)) } catch { writeFailed = true }
    }

    /// Renames the temporary into place.
    func commit() throws {
        try? handle.close()
        guard !writeFailed, rename(temporary, destination) == 0 else {
            throw VignetteError(.io, path: destination, "cannot write the file")
        }
        committed = true
    }
}
