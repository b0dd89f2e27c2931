import ArgumentParser
import Foundation
import VignetteCore
import VignetteGenerators

/// Standard input as a file: `-` in place of a file name (`curl … | vignette thumbnail - -o t.png`).
///
/// Typed by its content, or also by the name `--stdin-name` gives it. A redirected regular file
/// (`< photo.jpg`) is read in place; a pipe is kept in a nameless temporary file first, at most
/// the `--max-file-megabytes` limit, so that decoders can seek and nothing is left behind.
enum StandardInput {
    /// The argument that means standard input.
    static let argument = "-"

    /// Whether `path` names standard input: `-`, or a path to descriptor 0 (`/dev/stdin`,
    /// `/dev/fd/0`, `/proc/self/fd/0`), which would otherwise be refused as a pipe.
    static func means(_ path: String) -> Bool {
        path == argument || path == "/dev/stdin" || path == "/dev/fd/0" || path == "/proc/self/fd/0"
    }

    /// Most bytes of a pipe `vignette type -` keeps: `--max-file-megabytes`' default, which the
    /// other commands take from the option.
    static let typingLimit = Int(RegistryOptions.defaultMaxFileMegabytes * 1_000_000)

    /// What pages and messages call it when it has no name of its own.
    static let displayName = "(standard input)"

    /// `--stdin-name`'s help.
    static let nameHelp = ArgumentHelp(
        "The file name standard input (-) is typed by and shown as, such as report.pdf (default: by content only).", valueName: "NAME")

    /// The name `path`'s output is named after: `--stdin-name` (else `stdin`) for standard
    /// input, the file's own name otherwise.
    static func outputName(of path: String, name: String?) -> String {
        means(path) ? name ?? "stdin" : (path as NSString).lastPathComponent
    }

    /// Refuses `-` given more than once (standard input can be read only once), and a
    /// `--stdin-name` that is not a plain file name.
    static func validate(_ files: [String], name: String?) throws {
        if files.filter(means).count > 1 {
            throw ValidationError("standard input (-) can be read only once; give - once")
        }
        if let name, name.isEmpty || name.contains("/") || name == "." || name == ".." {
            throw ValidationError("--stdin-name must be a file name without a folder, such as report.pdf, not '\(name)'")
        }
    }

    /// The generator input for `path`: standard input for `-` (named `name`, at most `limit`
    /// bytes), else the file.
    static func input(_ path: String, name: String?, limit: Int, resolver: TypeResolver) throws -> GeneratorInput {
        guard means(path) else { return try GeneratorInput(path: path, resolver: resolver) }
        return try GeneratorInput(opened: open(name: name, limit: limit), displayPath: nil, resolver: resolver)
    }

    /// Standard input as an opened file named `name` (for typing by extension), at most `limit` bytes.
    static func open(name: String?, limit: Int) throws -> OpenedFile {
        let shown = name ?? displayName
        var st = stat()
        guard fstat(STDIN_FILENO, &st) == 0 else { throw VignetteError.fromErrno(errno, path: argument) }
        if st.st_mode & S_IFMT == S_IFREG {
            let fd = dup(STDIN_FILENO)
            guard fd >= 0 else { throw VignetteError.fromErrno(errno, path: argument) }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            return OpenedFile(descriptor: fd, name: shown, realPath: OpenedFile.location(ofDescriptor: fd) ?? shown)
        }
        if isatty(STDIN_FILENO) != 0 {
            throw VignetteError(.invalidRequest, path: argument, "standard input is a terminal; pipe a file in, or name one")
        }
        let (fd, path) = try OpenedFile.nameless(purpose: "standard input")
        let file = OpenedFile(descriptor: fd, name: shown, realPath: path)
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var total = 0
        while true {
            let n = read(STDIN_FILENO, &buffer, buffer.count)
            if n < 0 && errno == EINTR { continue }
            if n < 0 {
                throw VignetteError(.io, path: argument, "cannot read standard input: \(String(cString: strerror(errno)).lowercased())")
            }
            if n == 0 { break }
            total += n
            guard total <= limit else {
                throw VignetteError(.limitExceeded, path: argument, "standard input is over the limit of \(ByteCount.text(limit))")
            }
            let status = buffer.withUnsafeBytes { AtomicFile.writeAll(UnsafeRawBufferPointer(rebasing: $0[..<n]), to: fd) }
            guard status == 0 else {
                throw VignetteError(.io, path: argument, "cannot keep standard input: \(String(cString: strerror(status)).lowercased())")
            }
        }
        return file
    }
}
