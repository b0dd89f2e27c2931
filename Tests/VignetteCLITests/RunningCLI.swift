import Foundation
import Testing

/// A `vignette` process left running (`batch --watch`), its stdout and stderr collected as they come.
final class RunningCLI: @unchecked Sendable {
    private let process = Process()
    private let lock = NSLock()
    private var out = Data()
    private var err = Data()
    private let readers = DispatchGroup()

    /// Starts `vignette ARGS` in `currentDirectory` with `environment` added, as `user` if given.
    init(_ arguments: [String], environment: [String: String] = [:], user: String? = nil, currentDirectory: String) throws {
        if let user {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = ["--reuid=\(user)", "--regid=\(user)", "--clear-groups", CLI.binary] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: CLI.binary)
            process.arguments = arguments
        }
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        process.environment = env
        process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory)
        let outPipe = Pipe()
        let errPipe = Pipe()
        process.standardOutput = outPipe
        process.standardError = errPipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read as it comes, so a chatty process never blocks on a full pipe.
        collect(outPipe.fileHandleForReading) { self.out.append($0) }
        collect(errPipe.fileHandleForReading) { self.err.append($0) }
    }

    private func collect(_ handle: FileHandle, into append: @escaping @Sendable (Data) -> Void) {
        readers.enter()
        DispatchQueue.global().async { [self] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                lock.lock()
                append(chunk)
                lock.unlock()
            }
            readers.leave()
        }
    }

    /// The standard output so far.
    var stdout: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: out, as: UTF8.self)
    }

    /// The standard error so far.
    var stderr: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: err, as: UTF8.self)
    }

    /// Sends `signal` without waiting (SIGSTOP, SIGCONT).
    func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Sends `signal` and waits (at most `limit` seconds, a hang guard) for the process to end.
    func stop(_ signal: Int32 = SIGTERM, limit: TimeInterval = 120) -> CLIResult {
        kill(process.processIdentifier, signal)
        if readers.wait(timeout: .now() + limit) == .timedOut {
            Issue.record("vignette did not end within \(limit) s of signal \(signal)")
            kill(process.processIdentifier, SIGKILL)
            _ = readers.wait(timeout: .now() + 10)
        }
        process.waitUntilExit()
        return CLIResult(status: process.terminationStatus, stdout: stdout, stderr: stderr)
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    /// Polls `condition` every `interval` seconds until it holds or `limit` seconds have passed; whether it held.
    static func poll(limit: TimeInterval, interval: TimeInterval = 0.005, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(limit)
        while Date() < deadline {
            if try condition() { return true }
            usleep(UInt32(interval * 1_000_000))
        }
        return try condition()
    }
}
