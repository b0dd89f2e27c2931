import Foundation
import Testing
import VignetteTestSupport

/// Slow and stalled clients against the real `vignette serve`: they are cut off, and others are
/// served meanwhile.
@Suite("vignette serve and slow clients", .serialized)
struct SlowClientTests {
    @Test func fiveHundredStalledHeadsAreClosedWhileHealthzAnswers() throws {
        let server = try ServeProcess(arguments: ["--header-timeout", "1"])
        var stalled: [LoopbackSocket] = []
        for _ in 0..<500 {
            // The read timeout is the test's guard: a connection still open after 10 s fails.
            let socket = try #require(LoopbackSocket(port: server.port, timeout: 10))
            socket.send(Array("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ".utf8))
            stalled.append(socket)
        }
        let health = try #require(LoopbackSocket.get(port: server.port, "/healthz"))
        #expect(health.hasPrefix("HTTP/1.1 200 OK\r\n"))
        let closed = stalled.filter { $0.waitForClose() }.count
        #expect(closed == 500)
        let after = try #require(LoopbackSocket.get(port: server.port, "/healthz"))
        #expect(after.hasPrefix("HTTP/1.1 200 OK\r\n"))
    }

    @Test func aBodyTrickledAtOneByteASecondIsCutOffAtTheBodyTimeout() throws {
        let server = try ServeProcess(arguments: ["--body-timeout", "1", "--min-body-rate", "100"])
        let socket = try #require(LoopbackSocket(port: server.port, timeout: 10))
        socket.send(
            Array("POST /v1/thumbnail?filename=slow.bin HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 600\r\n\r\n".utf8))
        var sent = 0
        // One byte a second: the server must close after about a second; 30 bytes is the hang guard.
        while sent < 30, !socket.isClosedByPeer, socket.trySend([0x41]) {
            sent += 1
            usleep(1_000_000)
        }
        #expect(sent < 30, "the trickled body was still being accepted after 30 s")
        #expect(socket.waitForClose())
    }

    @Test func connectionsBeyondTheCapAreClosedAndServedAgainOnceOthersLeave() throws {
        let server = try ServeProcess(arguments: ["--max-connections", "2", "--header-timeout", "30"])
        var held = [
            try #require(LoopbackSocket(port: server.port, timeout: 10)), try #require(LoopbackSocket(port: server.port, timeout: 10)),
        ]
        let third = try #require(LoopbackSocket(port: server.port, timeout: 10))
        #expect(third.waitForClose())
        held.removeAll()
        // The server counts a connection out when it sees the close, a moment after ours.
        var answer = ""
        for _ in 0..<200 where !answer.hasPrefix("HTTP/1.1 200") {
            answer = LoopbackSocket.get(port: server.port, "/healthz") ?? ""
        }
        #expect(answer.hasPrefix("HTTP/1.1 200 OK\r\n"))
    }
}

@Suite("vignette serve and aborted uploads")
struct AbortedUploadTests {
    @Test func anUploadCutOffMidBodyIsLoggedAs400NotAsOurFailure() throws {
        let server = try ServeProcess(logFile: true)
        let socket = try #require(LoopbackSocket(port: server.port, timeout: 10))
        socket.send(
            Array("POST /v1/thumbnail?filename=a.bin HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\n\r\nonly ten b".utf8))
        socket.shutdownWrite()
        #expect(socket.waitForClose())
        kill(server.process.processIdentifier, SIGTERM)
        #expect(server.waitForExit() == 0)
        let log = try String(contentsOfFile: server.logPath, encoding: .utf8)
        let line = try #require(log.split(separator: "\n").first { $0.contains("path=/v1/thumbnail") })
        #expect(line.contains("status=400"), "\(line)")
        #expect(!log.contains("unexpected error"), "\(log)")
    }
}
