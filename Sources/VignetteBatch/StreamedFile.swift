import Foundation
import VignetteCache
import VignetteCore

/// A file written bit by bit into a temporary beside its destination, renamed there by `commit`.
///
/// A destination that is a device or a FIFO (`--report /dev/stdout`) is written into directly,
/// and a symbolic link is written through (`OutputFile.target`).
final class StreamedFile {
    let destination: String
    /// The temporary renamed into place by `commit`; nil when writing into a device or FIFO.
    private let temporary: String?
    private let handle: FileHandle
    /// Where the temporary goes: the destination, or the file its link points at.
    private let target: String
    private var writeFailed = false
    private var committed = false

    /// Creates the temporary (the destination's directory must exist).
    init(destination: String) throws {
        self.destination = destination
        switch OutputFile.target(destination) {
        case .directory:
            throw VignetteError.fromErrno(EISDIR, path: destination)
        case .stream:
            guard let handle = FileHandle(forWritingAtPath: destination) else {
                throw VignetteError.fromErrno(errno, path: destination)
            }
            self.handle = handle
            self.temporary = nil
            self.target = destination
        case .file(let file):
            self.target = file
            let dir = (SourceFile.absolute(file) as NSString).deletingLastPathComponent
            let temporary = dir + "/." + (file as NSString).lastPathComponent + ".tmp-\(getpid())"
            // open(2) rather than FileManager.createFile, whose failure carries no reason.
            let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard fd >= 0 else {
                let reason = String(cString: strerror(errno)).lowercased()
                throw VignetteError(.io, path: destination, "cannot create the file: \(reason)")
            }
            let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
            self.handle = handle
            self.temporary = temporary
        }
    }

    deinit {
        try? handle.close()
        if !committed, let temporary { unlink(temporary) }
    }

    func write(_ text: String) {
        do { try handle.write(contentsOf: Data(text.utf8)) } catch { writeFailed = true }
    }

    /// Renames the temporary into place.
    func commit() throws {
        try? handle.close()
        guard !writeFailed, temporary.map({ rename($0, target) == 0 }) ?? true else {
            throw VignetteError(.io, path: destination, "cannot write the file")
        }
        committed = true
    }
}
