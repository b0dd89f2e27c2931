import Foundation
import VignetteCore

/// One run of an external generator's command for one input, in a private temporary folder.
///
/// Builds the argv from the spec's template, runs it with `ProcessRunner` (a minimal
/// environment, every limit set before the program starts, alone in a PID namespace or in the
/// bubblewrap sandbox), turns a bad exit into an error carrying the tail of stderr, and returns
/// the output (the `%o` file, else stdout).
struct ExternalCommand {
    let spec: ExternalGeneratorSpec
    let catalog: TypeCatalog

    /// Private folders of runs in progress (removed by `ProcessRunner.killRunningCommands`).
    static let liveDirectories = LiveSet<String>()

    /// Most bytes read from an output file or stdout of a thumbnail command.
    static let maxImageOutputBytes = 64 << 20

    /// Runs the command; `size` fills `%s`, `outputName` names the `%o` file, at most `outputLimit` bytes are kept.
    ///
    /// - Throws: `VignetteError` with a reason such as "exited with status 1; stderr: …".
    func run(_ input: GeneratorInput, size: Int, outputName: String, outputLimit: Int) throws -> (bytes: [UInt8], truncated: Bool) {
        let dir = try Self.makePrivateDirectory()
        Self.liveDirectories.insert(dir)
        defer {
            try? FileManager.default.removeItem(atPath: dir)
            Self.liveDirectories.remove(dir)
        }
        let inputPath = try place(input, in: dir)
        let outputPath = dir + "/" + outputName
        let values: [Character: String] = [
            "i": inputPath, "u": FileURI.string(forAbsolutePath: inputPath), "o": outputPath, "s": String(size),
            "m": catalog.preferredMIMEType(of: input.type),
        ]
        let sandbox = spec.sandbox ? Bubblewrap.path : nil
        let environment = Self.environment(for: spec, privateDirectory: dir, sandboxed: sandbox != nil)
        var command = spec.exec.expand(values)
        if let bwrap = sandbox {
            guard let program = ProcessRunner.executablePath(command[0], searchPath: Bubblewrap.searchPath) else {
                throw VignetteError(.io, "cannot run \(command[0]): program not found in the sandbox (only /usr is there)")
            }
            command[0] = program
            // The generator's own files (its script, the `./` arguments) are beside its manifest.
            let manifestFolder = Self.realPath((spec.origin as NSString).deletingLastPathComponent)
            let programFolder = Self.realPath((program as NSString).deletingLastPathComponent)
            let readable = [Self.realPath(inputPath)] + Array(Set([manifestFolder, programFolder].filter { $0.hasPrefix("/") })).sorted()
            command = Bubblewrap.wrap(command, bwrap: bwrap, readable: readable, writable: dir, directory: dir)
        }
        let runner = ProcessRunner(
            timeout: spec.timeoutSeconds, stdoutLimit: spec.exec.writesOutputFile ? 64 << 10 : outputLimit,
            memoryLimit: spec.maxMemoryBytes,
            cpuLimit: spec.cpuSeconds, fileSizeLimit: spec.maxWriteBytes, processLimit: Self.userProcessCount() + spec.maxProcesses,
            isolate: sandbox == nil)
        let outcome = try runner.run(command, directory: dir, environment: environment)
        let tail = Self.tail(outcome.stderr)
        if outcome.timedOut {
            throw VignetteError(.limitExceeded, "timed out after \(Self.seconds(spec.timeoutSeconds)); its process group was killed" + tail)
        }
        // bwrap, our namespace init, and shells report a child killed by a signal as status
        // 128 + the signal; a shell script may also exit with such a status itself, so outside
        // bwrap and our init only the limits' own signals are read that way.
        let contained = sandbox != nil || outcome.isolated
        if let signal = outcome.signal ?? outcome.exitStatus.flatMap({ $0 > 128 && $0 < 160 ? $0 - 128 : nil }),
            outcome.signal != nil || contained || [SIGXFSZ, SIGXCPU].contains(signal)
        {
            switch signal {
            case SIGXFSZ:
                throw VignetteError(.limitExceeded, "tried to write a file over its limit of \(ByteCount.text(spec.maxWriteBytes))" + tail)
            case SIGXCPU:
                throw VignetteError(.limitExceeded, "used more than its \(spec.cpuSeconds) s of CPU time" + tail)
            default:
                throw VignetteError(.io, "was killed by signal \(signal)" + tail)
            }
        }
        if let status = outcome.exitStatus, status != 0 {
            throw VignetteError(.io, "exited with status \(status)" + tail)
        }
        guard spec.exec.writesOutputFile else {
            if spec.kind == .thumbnail && outcome.stdout.isEmpty {
                throw VignetteError(.corrupt, "wrote nothing on standard output" + tail)
            }
            return (outcome.stdout, outcome.stdoutTruncated)
        }
        var info = stat()
        guard lstat(outputPath, &info) == 0 else { throw VignetteError(.corrupt, "wrote no output file" + tail) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw VignetteError(.corrupt, "its output is not a regular file") }
        guard info.st_size > 0 else { throw VignetteError(.corrupt, "wrote an empty output file" + tail) }
        // The command (or a child it left behind) could swap the file for a link to one it may not
        // read, sandboxed, and have Vignette read it: no link is followed.
        let bytes = try FileSample.readPrefix(ofFile: outputPath, count: outputLimit + 1, followLinks: false)
        return (Array(bytes.prefix(outputLimit)), bytes.count > outputLimit)
    }

    /// What a command's environment holds: `PATH`, `LANG`, a private `HOME` and `TMPDIR`, and
    /// the variables its manifest names (when set here); nothing else of Vignette's environment.
    static func environment(for spec: ExternalGeneratorSpec, privateDirectory dir: String, sandboxed: Bool) -> [String: String] {
        let own = ProcessInfo.processInfo.environment
        var environment = [
            "PATH": sandboxed ? Bubblewrap.searchPath : own["PATH"] ?? Bubblewrap.searchPath, "LANG": own["LANG"] ?? "C.UTF-8",
            "HOME": dir, "TMPDIR": dir,
        ]
        for name in spec.environment { environment[name] = own[name] }
        return environment
    }

    /// How many processes this user runs now (RLIMIT_NPROC counts them all, so a command's cap is on top).
    static func userProcessCount() -> Int {
        let uid = getuid()
        guard let dir = opendir("/proc") else { return 0 }
        defer { closedir(dir) }
        var count = 0
        var info = stat()
        while let entry = readdir(dir) {
            let first = entry.pointee.d_name.0
            guard first >= 0x31, first <= 0x39 else { continue }
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))
            }
            if stat("/proc/" + name, &info) == 0, info.st_uid == uid { count += 1 }
        }
        return count
    }

    /// The real path of `path` (the sandbox binds real paths), or `path` when it cannot be resolved.
    static func realPath(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The input's path as the command sees it: absolute (the command runs elsewhere), or a
    /// copy of uploaded bytes named with the file's extension.
    func place(_ input: GeneratorInput, in dir: String) throws -> String {
        if let path = input.path, input.opened == nil {
            // The real path: the sandbox binds exactly that file, whatever links led to it.
            return Self.realPath(path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path)
        }
        let limit = spec.maxFileBytes ?? ExternalGeneratorSpec.defaultMaxFileBytes
        let ext = ((input.filename ?? "") as NSString).pathExtension
        let safeExt = ext.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } ? ext : ""
        let path = dir + "/input" + (safeExt.isEmpty ? "" : "." + safeExt)
        if let opened = input.opened {
            // Handing the program the file's name would let a swapped link change what it reads:
            // it gets a private copy made through our descriptor.
            try Self.copy(opened, to: path, limit: limit, displayPath: input.displayName)
            return path
        }
        try AtomicFile.write(try input.contents(limit: limit), to: path, permissions: 0o600)
        return path
    }

    /// Copies the opened file into a new private file at `destination`, at most `limit` bytes.
    static func copy(_ opened: OpenedFile, to destination: String, limit: Int, displayPath: String) throws {
        guard opened.size <= limit else {
            throw VignetteError(
                .limitExceeded, path: displayPath, "file is \(ByteCount.text(opened.size)), over the limit of \(ByteCount.text(limit))")
        }
        let out = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard out >= 0 else { throw VignetteError.fromErrno(errno, path: destination) }
        defer { close(out) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var offset: off_t = 0
        while offset <= off_t(limit) {
            let got = buffer.withUnsafeMutableBytes { pread(opened.descriptor, $0.baseAddress, $0.count, offset) }
            if got < 0 && errno == EINTR { continue }
            guard got >= 0 else { throw VignetteError.fromErrno(errno, path: displayPath) }
            if got == 0 { return }
            var written = 0
            while written < got {
                let n = buffer.withUnsafeBytes { write(out, $0.baseAddress! + written, got - written) }
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { throw VignetteError.fromErrno(errno, path: destination) }
                written += n
            }
            offset += off_t(got)
        }
        throw VignetteError(.limitExceeded, path: displayPath, "file grew over the limit of \(ByteCount.text(limit))")
    }

    /// A new folder only we can enter, under `$TMPDIR`.
    static func makePrivateDirectory() throws -> String {
        var template = Array((NSTemporaryDirectory() + "/vignette-gen-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw VignetteError(.io, "cannot create a private temporary folder: \(String(cString: strerror(errno)).lowercased())")
        }
        return URL(fileURLWithPath: String(cString: made)).standardizedFileURL.path
    }

    /// "; stderr: last lines" (at most 3 lines, 300 characters), or "" when stderr was empty.
    static func tail(_ stderr: [UInt8]) -> String {
        let lines = String(decoding: stderr, as: UTF8.self).split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !lines.isEmpty else { return "" }
        var text = lines.suffix(3).joined(separator: " / ")
        if text.count > 300 { text = "…" + text.suffix(299) }
        return "; stderr: " + text
    }

    /// "2 s", "0.5 s".
    static func seconds(_ value: Double) -> String {
        value.rounded() == value ? "\(Int(value)) s" : "\(value) s"
    }
}
