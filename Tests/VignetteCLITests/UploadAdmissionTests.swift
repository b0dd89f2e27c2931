import Foundation
import Testing
import VignetteTestSupport

/// Uploads are admitted (a worker slot reserved) before their bodies are read, and bodies wait
/// on disk, not in memory: the attack from issue 17 where ten stalled 62 MiB uploads took the
/// server from 44 MB to 689 MB while `/readyz` still said ready.
@Suite("vignette serve admits uploads before reading them")
struct UploadAdmissionTests {
    @Test func tenStalledBigUploadsGetFiveRefusalsAndTheServerStaysSmall() throws {
        let server = try ServeProcess(arguments: ["--concurrency", "1", "--queue", "4", "--body-timeout", "120"])
        let size = 62 << 20
        let head = Array(
            "POST /v1/thumbnail?filename=big.bin HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(size + 1)\r\n\r\n".utf8)
        let sockets = (0..<10).compactMap { _ in LoopbackSocket(port: server.port, timeout: 1) }
        #expect(sockets.count == 10)
        for socket in sockets { socket.send(head) }
        // The refused answer at once, from the head alone; the admitted wait for their bodies.
        let answers = sockets.map { String(decoding: $0.readToEnd(), as: UTF8.self) }
        let refused = answers.filter { $0.hasPrefix("HTTP/1.1 503 Service Unavailable\r\n") }
        #expect(refused.count == 5, "\(answers)")
        #expect(refused.allSatisfy { $0.contains("too many requests in progress; try again shortly") })
        let admitted = zip(sockets, answers).filter { $0.1.isEmpty }.map(\.0)
        #expect(admitted.count == 5)
        // Each admitted client sends all but the last byte, then stalls.
        let body = [UInt8](repeating: 0x41, count: size)
        for socket in admitted { #expect(socket.trySend(body)) }
        #expect(LoopbackSocket.get(port: server.port, "/readyz")?.hasPrefix("HTTP/1.1 503") == true)
        let peak = try #require(Self.peakResidentMegabytes(server.process.processIdentifier))
        #expect(peak < 200, "the server's peak resident memory was \(peak) MB with 310 MB of uploads waiting")
        #expect(LoopbackSocket.get(port: server.port, "/healthz")?.hasPrefix("HTTP/1.1 200 OK") == true)
    }

    /// `VmHWM` of process `pid`, in megabytes (10⁶ bytes).
    static func peakResidentMegabytes(_ pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        else { return nil }
        return kilobytes * 1024 / 1_000_000
    }
}
