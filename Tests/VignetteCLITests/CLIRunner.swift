import Foundation
import Testing

/// The result of one run of the real `vignette` binary.
struct CLIResult {
    let status: Int32
    let stdout: String
    let stderr: String
}

/// Runs the built `vignette` binary (beside the test bundle, or `$VIGNETTE_BIN`).
enum CLI {
    static var binary: String {
        if let env = ProcessInfo.processInfo.environment["VIGNETTE_BIN"], !env.isEmpty { return env }
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var dir = testBinary.deletingLastPathComponent()
        // The test bundle may be a directory (…/X.xctest/…) or a file.
        while !FileManager.default.isExecutableFile(atPath: dir.appendingPathComponent("vignette").path), dir.path != "/" {
            dir = dir.deletingLastPathComponent()
        }
        return dir.appendingPathComponent("vignette").path
    }

    /// The package root (for Samples/).
    static var packageRoot: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    }

    /// What a run reads on standard input: nothing (/dev/null), a file redirected (`< FILE`), or bytes through a pipe.
    enum Input {
        case none
        case file(String)
        case pipe(Data)
    }

    /// Runs `vignette ARGS`, killing it if it has not finished within `deadline` seconds (a hang guard, not a timing check).
    static func run(
        _ arguments: [String], environment: [String: String] = [:], user: String? = nil,
        currentDirectory: String? = nil, deadline: TimeInterval = 60, input: Input = .none
    ) throws -> CLIResult {
        try runProgram(
            binary, arguments, environment: environment, user: user, currentDirectory: currentDirectory, deadline: deadline, input: input)
    }

    /// Runs any program the same way (`program` is a path), with the same hang guard.
    static func runProgram(
        _ program: String, _ arguments: [String], environment: [String: String] = [:], user: String? = nil,
        currentDirectory: String? = nil, deadline: TimeInterval = 60, input: Input = .none
    ) throws -> CLIResult {
        let binary = program
        let process = Process()
        if let user {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = ["--reuid=\(user)", "--regid=\(user)", "--clear-groups", binary] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = arguments
        }
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        process.environment = env
        if let currentDirectory { process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        var feed: (FileHandle, Data)?
        switch input {
        case .none: process.standardInput = FileHandle.nullDevice
        case .file(let path): process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        case .pipe(let data):
            let pipe = Pipe()
            process.standardInput = pipe
            feed = (pipe.fileHandleForWriting, data)
        }
        try process.run()
        if let (writer, data) = feed {
            // Written from another thread: a program that stops reading early must not block the test.
            DispatchQueue.global().async {
                signal(SIGPIPE, SIG_IGN)
                try? writer.write(contentsOf: data)
                try? writer.close()
            }
        }
        let group = DispatchGroup()
        let outData = DataBox()
        let errData = DataBox()
        group.enter()
        DispatchQueue.global().async {
            outData.data = out.fileHandleForReading.readDataToEndOfFile(); group.leave()
        }
        group.enter()
        DispatchQueue.global().async {
            errData.data = err.fileHandleForReading.readDataToEndOfFile(); group.leave()
        }
        if group.wait(timeout: .now() + deadline) == .timedOut {
            process.terminate()
            Issue.record(
                "\((program as NSString).lastPathComponent) \(arguments.joined(separator: " ")) did not finish within \(deadline) s")
        }
        process.waitUntilExit()
        return CLIResult(
            status: process.terminationStatus, stdout: String(decoding: outData.data, as: UTF8.self),
            stderr: String(decoding: errData.data, as: UTF8.self))
    }

    /// A fresh temporary directory.
    static func tempDirectory() throws -> String {
        let dir = NSTemporaryDirectory() + "vignette-cli-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }
}

/// Bytes filled in by a reader thread; read only after the DispatchGroup says it is done.
final class DataBox: @unchecked Sendable {
    var data = Data()
}
