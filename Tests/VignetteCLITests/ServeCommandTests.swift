import Foundation
import Testing
import VignetteTestSupport

/// A `vignette serve` process on a free port, its stdout read until it says where it listens.
final class ServeProcess: @unchecked Sendable {
    let process = Process()
    let port: Int
    let root: String
    /// Where stderr (the access log) goes when asked for.
    let logPath: String

    init(arguments: [String] = [], logFile: Bool = false) throws {
        root = try CLI.tempDirectory()
        logPath = root + ".log"
        try Data("hello from the served root\n".utf8).write(to: URL(fileURLWithPath: root + "/notes.txt"))
        process.executableURL = URL(fileURLWithPath: CLI.binary)
        process.arguments = ["serve", "--port", "0", "--root", root] + arguments
        let out = Pipe()
        process.standardOutput = out
        if logFile {
            _ = FileManager.default.createFile(atPath: logPath, contents: nil)
            process.standardError = FileHandle(forWritingAtPath: logPath)
        } else {
            process.standardError = FileHandle.nullDevice
        }
        try process.run()
        // The first stdout line is "vignette: listening on http://127.0.0.1:PORT".
        var line: [UInt8] = []
        while !line.contains(0x0A) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line += chunk
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let portText = text.split(separator: ":").last?.trimmingCharacters(in: .whitespacesAndNewlines), let port = Int(portText)
        else {
            process.terminate()
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "no port in \(text)"])
        }
        self.port = port
    }

    /// Waits for the process to end (at most `deadline` seconds, then kills it) and returns its status.
    func waitForExit(deadline: TimeInterval = 60) -> Int32? {
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            self.process.waitUntilExit()
            done.signal()
        }
        if done.wait(timeout: .now() + deadline) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            return nil
        }
        return process.terminationStatus
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(atPath: root)
        try? FileManager.default.removeItem(atPath: logPath)
    }
}

@Suite("vignette serve (the real binary)")
struct ServeCommandTests {
    @Test func sigtermLetsAnInFlightRequestFinishThenExitsZero() throws {
        let server = try ServeProcess()
        #expect(LoopbackSocket.get(port: server.port, "/healthz")?.hasPrefix("HTTP/1.1 200 OK") == true)
        // An upload whose body is only half sent: the request is in flight until we finish it.
        let body = Array(repeating: UInt8(ascii: "a"), count: 4000)
        let upload = try #require(LoopbackSocket(port: server.port))
        upload.send(
            Array(
                "POST /v1/preview?filename=notes.txt&format=text HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(body.count)\r\n\r\n".utf8)
        )
        upload.send(Array(body[..<2000]))
        // Wait (bounded) until the server counts it: the metrics request itself plus the upload.
        var inFlight = false
        for _ in 0..<600 where !inFlight {
            inFlight = LoopbackSocket.get(port: server.port, "/metrics")?.contains("vignette_http_requests_in_flight 2") == true
            if !inFlight { usleep(50_000) }
        }
        #expect(inFlight)
        kill(server.process.processIdentifier, SIGTERM)
        upload.send(Array(body[2000...]))
        let response = String(decoding: upload.readToEnd(), as: UTF8.self)
        #expect(response.hasPrefix("HTTP/1.1 200 OK"))
        #expect(response.lowercased().contains("\r\ncontent-length: "))
        #expect(response.contains(String(repeating: "a", count: 1000)))
        #expect(server.waitForExit() == 0)
    }

    @Test func aMissingRootIsReportedAndExits1() throws {
        let result = try CLI.run(["serve", "--port", "0", "--root", "/nonexistent/dir"])
        #expect(result.status == 1)
        #expect(result.stderr == "vignette: /nonexistent/dir: the root is not an existing directory\n")
    }

    @Test func aPortInUseOrAnAddressNotOfThisMachineIsSaidInWords() throws {
        // A listening socket of this process holds the port.
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #expect(fd >= 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        #expect(bound && listen(fd, 1) == 0)
        let port = Int(UInt16(bigEndian: address.sin_port))
        let taken = try CLI.run(["serve", "--port", String(port), "--root", "/tmp"])
        #expect(taken.status == 1)
        #expect(
            taken.stderr
                == "vignette: 127.0.0.1:\(port): cannot listen: the address is already in use (another server listens there; choose another --port)\n"
        )
        // TEST-NET-1 (RFC 5737) is no address of any machine.
        let foreign = try CLI.run(["serve", "--host", "192.0.2.1", "--port", "0", "--root", "/tmp"])
        #expect(foreign.status == 1)
        #expect(foreign.stderr == "vignette: 192.0.2.1:0: cannot listen: the address is not one of this machine's (see --host)\n")
    }

    @Test(
        "a number out of range, or an empty path, is a usage error naming the option (infinity and NaN trapped when made whole seconds or bytes)",
        arguments: [
            (["serve", "--root", "/tmp", "--timeout", "inf"], "--timeout must be more than 0 and at most 86400 seconds, not inf"),
            (
                ["serve", "--root", "/tmp", "--header-timeout", "1e300"],
                "--header-timeout must be more than 0 and at most 86400 seconds, not 1e+300"
            ),
            (
                ["serve", "--root", "/tmp", "--body-timeout", "nan"],
                "--body-timeout must be more than 0 and at most 86400 seconds, not NaN"
            ),
            (["serve", "--root", "/tmp", "--concurrency", "100000"], "--concurrency must be between 1 and 256, not 100000"),
            (["serve", "--root", "/tmp", "--min-body-rate", "-1"], "--min-body-rate must be 0 or more, not -1"),
            (["thumbnail", "--max-megapixels", "inf", "x.jpg"], "--max-megapixels must be more than 0 and at most 1000000, not inf"),
            (
                ["thumbnail", "--max-file-megabytes", "0", "x.jpg"],
                "--max-file-megabytes must be more than 0 and at most 1000000000 megabytes, not 0"
            ),
            (["batch", "--max-memory", "1e300", "x"], "--max-memory must be more than 0 and at most 1000000000 megabytes, not 1e+300"),
            (["thumbnailer-service", "--idle-timeout", "-1"], "--idle-timeout must be more than 0 and at most 86400 seconds, not -1"),
            // An empty word, usually an unset shell variable: said, not "vignette: : no such file or directory".
            (["thumbnail", "-o", "", "x.jpg"], "-o must not be empty; give a file, a directory, or - for standard output"),
            (["batch", "--out", "", "x"], "--out must not be empty; give a directory"),
            (["which", "-s", "0", "x"], "--size must be between 1 and 16384, not 0"),
            (
                ["thumbnail", "-s", "64,16384", "--scale", "8", "x"],
                "--size × --scale must be at most 16384 pixels, not 16384 × 8 = 131072"
            ),
            (["serve", "--root", ""], "--root must not be empty; give the directory to serve"),
        ])
    func numbersOutOfRange(arguments: [String], message: String) throws {
        let r = try CLI.run(arguments)
        #expect(r.status == 2)
        #expect(r.stderr.hasPrefix("Error: \(message)\n"), "\(r.stderr)")
        #expect(r.stdout == "")
    }

    @Test("a --cache-dir, -o or --out that is a file, or below one, says so")
    func cacheDirThatCannotBe() throws {
        let dir = try CLI.tempDirectory()
        let file = dir + "/file"
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        let isFile = try CLI.run(["serve", "--root", dir, "--port", "0", "--cache-dir", file])
        #expect(isFile.status == 1)
        #expect(isFile.stderr == "vignette: \(file): cannot create the cache directory: \(file) is a file, not a directory\n")
        let below = try CLI.run(["serve", "--root", dir, "--port", "0", "--cache-dir", file + "/sub"])
        #expect(below.stderr == "vignette: \(file)/sub: cannot create the cache directory: \(file) is a file, not a directory\n")
        // The same words for thumbnail -o and batch --out.
        let photo = CLI.packageRoot + "/Samples/photo.jpg"
        let thumbs = try CLI.run(["thumbnail", "-o", file + "/thumbs/", photo])
        #expect(thumbs.status == 1)
        #expect(thumbs.stderr == "vignette: \(file)/thumbs/: cannot create the output directory: \(file) is a file, not a directory\n")
        let batch = try CLI.run(["batch", "--out", file + "/thumbs", photo])
        #expect(batch.stderr == "vignette: \(file)/thumbs: cannot create the output directory: \(file) is a file, not a directory\n")
    }

    @Test func healthcheckSaysWhetherTheServerAnswers() throws {
        let server = try ServeProcess()
        let healthy = try CLI.run(["healthcheck", "--port", String(server.port)])
        #expect(healthy.status == 0)
        kill(server.process.processIdentifier, SIGTERM)
        #expect(server.waitForExit() == 0)
        let down = try CLI.run(["healthcheck", "--port", String(server.port)])
        #expect(down.status == 1)
        #expect(
            down.stderr
                == "vignette: http://127.0.0.1:\(server.port)/healthz did not answer: nothing listens on port \(server.port) (connection refused)\n"
        )
    }

    @Test("healthcheck says when a port accepts but never answers, and refuses a timeout of 0 (none at all to the socket)")
    func healthcheckSaysWhatWentWrong() throws {
        // A listening socket nobody accepts from: the kernel completes the connection, nothing answers.
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        #expect(withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, 16) } } == 0)
        #expect(listen(fd, 4) == 0)
        var length = socklen_t(16)
        #expect(
            withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
                == 0)
        let port = Int(UInt16(bigEndian: address.sin_port))
        let silent = try CLI.run(["healthcheck", "--port", String(port), "--timeout", "0.2"])
        #expect(silent.status == 1)
        #expect(silent.stderr == "vignette: http://127.0.0.1:\(port)/healthz did not answer within 0.2 s\n")

        let zero = try CLI.run(["healthcheck", "--port", String(port), "--timeout", "0"])
        #expect(zero.status == 2)
        #expect(zero.stderr.hasPrefix("Error: --timeout must be more than 0 and at most 3600 seconds, not 0\n"))
    }
}
