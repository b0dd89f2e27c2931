import Foundation
import Synchronization
import Testing
import VignetteTestSupport

/// Decode memory is admitted before it is spent (issue 17): a 388 KB interlaced 9990 × 9990
/// RGBA PNG needs a 400 MB Adam7 buffer; two at once took 827 MB.
@Suite("vignette serve and the decode memory budget")
struct MemoryBudgetTests {
    /// Writes an all-transparent interlaced RGBA PNG of `side` × `side` (zeros compress to a few hundred KB).
    static func makeInterlacedPNG(side: Int, at path: String) throws {
        let script = """
            import struct, sys, zlib
            side, path = int(sys.argv[1]), sys.argv[2]
            def chunk(kind, data):
                return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)
            z = zlib.compressobj(9)
            body = []
            for x0, y0, dx, dy in [(0,0,8,8),(4,0,8,8),(0,4,4,8),(2,0,4,4),(0,2,2,4),(1,0,2,2),(0,1,1,2)]:
                w, h = (side - x0 + dx - 1) // dx, (side - y0 + dy - 1) // dy
                row = bytes(1 + 4 * w)
                for _ in range(h if w else 0):
                    body.append(z.compress(row))
            body.append(z.flush())
            png = b"\\x89PNG\\r\\n\\x1a\\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", side, side, 8, 6, 0, 0, 1))
            png += chunk(b"IDAT", b"".join(body)) + chunk(b"IEND", b"")
            open(path, "wb").write(png)
            """
        let made = try CLI.runProgram("/usr/bin/python3", ["-c", script, String(side), path], deadline: 120)
        guard made.status == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: made.stderr]) }
    }

    @Test func anImageNeedingMoreThanTheWholeBudgetIsRefusedBeforeItsBufferIsAllocated() throws {
        let server = try ServeProcess(arguments: ["--max-memory", "300"])
        try Self.makeInterlacedPNG(side: 9990, at: server.root + "/adam7.png")
        let answer = try #require(LoopbackSocket.fetch(port: server.port, "/v1/thumbnail?path=adam7.png&size=256"))
        #expect(answer.head.hasPrefix("HTTP/1.1 422"), "\(answer.head)")
        #expect(
            String(decoding: answer.body, as: UTF8.self)
                == #"{"error":{"code":"limit-exceeded","message":"the image needs 400 MB of memory to decode, over the budget of 300 MB"}}\#n"#
        )
        let peak = try #require(UploadAdmissionTests.peakResidentMegabytes(server.process.processIdentifier))
        #expect(peak < 150, "peak resident memory \(peak) MB")
    }

    @Test func twoImagesThatFitOnlyOneAtATimeAreMadeOneAfterTheOther() throws {
        // The second waits for the first's memory: two debug-build decodes in a row on a loaded
        // machine can pass the 30-s request timeout (a 504), so the server and client wait longer.
        let server = try ServeProcess(arguments: ["--max-memory", "600", "--concurrency", "2", "--timeout", "300"])
        try Self.makeInterlacedPNG(side: 9990, at: server.root + "/a.png")
        try FileManager.default.copyItem(atPath: server.root + "/a.png", toPath: server.root + "/b.png")
        let statuses = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            let head =
                LoopbackSocket.fetch(port: server.port, "/v1/thumbnail?path=\(index == 0 ? "a" : "b").png&size=128", timeout: 300)?.head
                ?? "none"
            statuses.withLock { $0.append(String(head.prefix(15))) }
        }
        #expect(statuses.withLock { $0 } == ["HTTP/1.1 200 OK", "HTTP/1.1 200 OK"])
        let peak = try #require(UploadAdmissionTests.peakResidentMegabytes(server.process.processIdentifier))
        #expect(peak < 600, "peak resident memory \(peak) MB for two 400 MB decodes under a 600 MB budget")
    }

    /// Writes a progressive 12000 × 8250 (99 MP) JPEG with cjpeg (libjpeg-turbo-progs).
    static func makeProgressiveJPEG(at path: String) throws {
        let script = """
            import sys
            w, h = 12000, 8250
            with open(sys.argv[1], "wb") as f:
                f.write(b"P6\\n%d %d\\n255\\n" % (w, h))
                row = bytes((x * 7) % 256 for x in range(w * 3))
                for _ in range(h):
                    f.write(row)
            """
        let ppm = path + ".ppm"
        defer { try? FileManager.default.removeItem(atPath: ppm) }
        let made = try CLI.runProgram("/usr/bin/python3", ["-c", script, ppm], deadline: 120)
        guard made.status == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: made.stderr]) }
        let encoded = try CLI.runProgram("/usr/bin/cjpeg", ["-progressive", "-quality", "80", "-outfile", path, ppm], deadline: 120)
        guard encoded.status == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: encoded.stderr]) }
    }

    @Test func a99MegapixelProgressiveJPEGAtTheLargestSizeIsServedWithinTheBudgetOrRefused() throws {
        // Memory is the subject, not time: a debug build decoding 99 MP on a loaded machine can
        // pass the 30-s request timeout (a 504), so the servers and the client wait longer.
        let tight = try ServeProcess(arguments: ["--max-memory", "200", "--timeout", "300"])
        try Self.makeProgressiveJPEG(at: tight.root + "/big.jpg")
        let refused = try #require(LoopbackSocket.fetch(port: tight.port, "/v1/thumbnail?path=big.jpg&size=2048", timeout: 300))
        #expect(refused.head.hasPrefix("HTTP/1.1 422"), "\(refused.head)")
        #expect(String(decoding: refused.body, as: UTF8.self).contains("of memory to decode, over the budget of 200 MB"))
        let tightPeak = try #require(UploadAdmissionTests.peakResidentMegabytes(tight.process.processIdentifier))
        #expect(tightPeak < 150, "peak resident memory \(tightPeak) MB")

        let roomy = try ServeProcess(arguments: ["--max-memory", "400", "--timeout", "300"])
        try FileManager.default.copyItem(atPath: tight.root + "/big.jpg", toPath: roomy.root + "/big.jpg")
        let served = try #require(LoopbackSocket.fetch(port: roomy.port, "/v1/thumbnail?path=big.jpg&size=2048", timeout: 300))
        #expect(served.head.hasPrefix("HTTP/1.1 200 OK"), "\(served.head)")
        let peak = try #require(UploadAdmissionTests.peakResidentMegabytes(roomy.process.processIdentifier))
        #expect(peak < 400, "peak resident memory \(peak) MB under a 400 MB budget")
    }
}
