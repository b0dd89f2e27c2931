import Foundation
import Synchronization
import Testing
import VignetteCore
import VignetteImaging

@testable import VignetteGenerators

/// External generators cannot hurt the machine: limits before exec, a minimal environment, the
/// whole process tree ended, the bubblewrap sandbox, and images over the pixel cap never handed on.
@Suite("External generators, contained")
struct ExternalContainmentTests {
    static let bwrapInstalled = FileManager.default.isExecutableFile(atPath: "/usr/bin/bwrap")

    /// A preview manifest `NAME.json` of `kind` running `sh -c SCRIPT` with the input as `$1`.
    func previewGenerator(
        _ dir: ExternalScratch, _ name: String, kind: String = "text", script: String, extra: String = ""
    ) throws {
        try dir.write(name + ".sh", "#!/bin/sh\n" + script + "\n", executable: true)
        try dir.write(
            name + ".json",
            """
            { "format": 1, "generator": { "kind": "\(kind)", "types": ["public.data"], "priority": "preferred",
              "exec": ["./\(name).sh", "%i"], "timeoutSeconds": 5 \(extra) } }
            """)
    }

    /// The preview of a small data file through the generators of `dir`.
    func preview(_ dir: ExternalScratch) throws -> (TextPreview, String, [GeneratorRegistry.Attempt]) {
        let result = ExternalFixtures.load([dir.path])
        #expect(result.warnings.isEmpty)
        let file = dir.path + "/input.bin"
        try Data([0, 1, 2, 3, 0xFF]).write(to: URL(fileURLWithPath: file))
        let input = try GeneratorInput(path: file, resolver: TypeResolver(catalog: result.catalog))
        return try result.registry.preview(for: input, request: PreviewRequest())
    }

    /// Processes whose command line contains `token`.
    static func processes(containing token: String) -> [String] {
        let pids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc"))?.filter { $0.allSatisfy(\.isNumber) } ?? []
        return pids.filter { pid in
            guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
            return String(decoding: data, as: UTF8.self).contains(token)
        }
    }

    /// Runs `work` on a thread of its own: a long blocking test must not hold one of Swift
    /// concurrency's few threads, which the server tests running beside it need.
    static func offTheCooperativePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }

    @Test func everySpawnSeesItsHeapCapFromItsFirstInstruction() async throws {
        let capped = try await Self.offTheCooperativePool {
            let runner = ProcessRunner(timeout: 10, memoryLimit: 64 << 20)
            var capped = 0
            for _ in 0..<1000 {
                let outcome = try runner.run(["/bin/sh", "-c", "ulimit -d"], directory: "/tmp", environment: ["PATH": "/usr/bin:/bin"])
                if String(decoding: outcome.stdout, as: UTF8.self) == "65536\n" { capped += 1 }
            }
            return capped
        }
        #expect(capped == 1000)
    }

    // The namespace's init starts the program itself: had it used glibc's fork(), a malloc or
    // stdio lock another thread held at the moment of cloning would block it, and the caller
    // with it, forever.
    @Test func isolatedSpawnsFinishWhileOtherThreadsAllocate() async throws {
        let finished = try await Self.offTheCooperativePool { Self.spawnWhileAllocating(threads: 2, spawnsEach: 100) }
        #expect(finished == 200)
    }

    /// How many of `threads` × `spawnsEach` isolated runs of /bin/true succeeded while two
    /// other threads allocated and freed without pause.
    static func spawnWhileAllocating(threads: Int, spawnsEach: Int) -> Int {
        let stop = Atomic<Bool>(false)
        let churners = (0..<2).map { _ in
            Thread {
                while !stop.load(ordering: .relaxed) {
                    var blocks: [UnsafeMutableRawPointer?] = []
                    for size in stride(from: 16, to: 64 << 10, by: 4099) { blocks.append(malloc(size)) }
                    blocks.forEach { free($0) }
                }
            }
        }
        churners.forEach { $0.start() }
        defer { stop.store(true, ordering: .relaxed) }
        let finished = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            let runner = ProcessRunner(timeout: 20, isolate: true)
            for _ in 0..<spawnsEach {
                if let outcome = try? runner.run(["/bin/true"], directory: "/tmp", environment: [:]), outcome.exitStatus == 0,
                    outcome.isolated
                {
                    finished.add(1, ordering: .relaxed)
                }
            }
        }
        return finished.load(ordering: .relaxed)
    }

    @Test func aGeneratorSeesOnlyTheEnvironmentItIsGiven() throws {
        setenv("VIGNETTE_TEST_SECRET", "hunter2", 1)
        let dir = try ExternalScratch()
        try previewGenerator(dir, "env", script: #"echo "secret=$VIGNETTE_TEST_SECRET home=${HOME#/tmp/}""#)
        let (blind, generator, _) = try preview(dir)
        #expect(generator == "env")
        #expect(blind.text.hasPrefix("secret= home=vignette-gen-"))

        let given = try ExternalScratch()
        try previewGenerator(
            given, "env", script: #"echo "secret=$VIGNETTE_TEST_SECRET""#, extra: #", "environment": ["VIGNETTE_TEST_SECRET"]"#)
        let text = try preview(given).0.text
        #expect(text == "secret=hunter2\n")
    }

    @Test(arguments: [true, false])
    func aSetsidDaemonDiesWithItsGenerator(sandbox: Bool) throws {
        if sandbox && !Self.bwrapInstalled { return }
        let token = "1000.\(UInt32.random(in: 1000...999_999))"
        let dir = try ExternalScratch()
        // One daemon escapes the process group at once; the command then hangs until its timeout.
        try previewGenerator(
            dir, "daemon", script: "setsid sleep \(token) &\nsleep 1000", extra: #", "timeoutSeconds": 1, "sandbox": \#(sandbox)"#)
        let (_, generator, attempts) = try preview(dir)
        #expect(generator == "fallback")
        #expect(attempts.first?.description == "daemon: failed: timed out after 1 s; its process group was killed")
        #expect(Self.processes(containing: token).isEmpty, "a setsid process outlived its generator")

        // And a generator that succeeds leaves no daemon behind either.
        let quick = try ExternalScratch()
        try previewGenerator(quick, "quick", script: "setsid sleep \(token) &\necho done", extra: #", "sandbox": \#(sandbox)"#)
        let text = try preview(quick).0.text
        #expect(text == "done\n")
        #expect(Self.processes(containing: token).isEmpty, "a setsid process outlived its generator")
    }

    // Outside the sandbox the program runs in its own PID namespace; as PID 1 there the kernel
    // would drop SIGXFSZ and the write would merely fail, so it runs under a small init.
    @Test(arguments: [true, false])
    func aGeneratorWritingTenGigabytesIsStoppedAtItsWriteLimit(sandbox: Bool) throws {
        if sandbox && !Self.bwrapInstalled { return }
        let dir = try ExternalScratch()
        try previewGenerator(
            dir, "filler", script: #"exec head -c 10000000000 /dev/zero > big.bin"#,
            extra: #", "maxWriteBytes": 1048576, "sandbox": \#(sandbox)"#)
        let (preview, generator, attempts) = try preview(dir)
        #expect(generator == "fallback")
        #expect(preview.text.contains("input.bin"))
        #expect(attempts.first?.description == "filler: failed: tried to write a file over its limit of 1 MB")
    }

    @Test(arguments: [true, false])
    func aGeneratorKilledByASignalIsReportedSo(sandbox: Bool) throws {
        if sandbox && !Self.bwrapInstalled { return }
        let dir = try ExternalScratch()
        try previewGenerator(
            dir, "crasher", script: "echo about to crash >&2\nkill -SEGV $$\necho still here", extra: #", "sandbox": \#(sandbox)"#)
        let (_, generator, attempts) = try preview(dir)
        #expect(generator == "fallback")
        #expect(attempts.first?.description == "crasher: failed: was killed by signal 11; stderr: about to crash")
    }

    @Test(.enabled(if: bwrapInstalled, "needs bwrap (bubblewrap)"))
    func theSandboxKeepsAGeneratorFromReadingWritingAndConnecting() throws {
        let outside = try ExternalScratch()
        try outside.write("secret.txt", "the secret\n")
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        #expect(bound == 0 && listen(listener, 4) == 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        let port = Int(UInt16(bigEndian: address.sin_port))
        let script = """
            cat '\(outside.path)/secret.txt' >/dev/null 2>&1 && echo "read: escaped" >&2 || echo "read: blocked" >&2
            (echo x > '\(outside.path)/written.txt') 2>/dev/null && echo "write: escaped" >&2 || echo "write: blocked" >&2
            python3 -c 'import socket; socket.create_connection(("127.0.0.1", \(port)), 2)' 2>/dev/null && echo "connect: escaped" >&2 || echo "connect: blocked" >&2
            exit 3
            """
        let boxed = try ExternalScratch()
        try previewGenerator(boxed, "escape", script: script)
        let (_, generator, attempts) = try preview(boxed)
        #expect(generator == "fallback")
        #expect(
            attempts.first?.description == "escape: failed: exited with status 3; stderr: read: blocked / write: blocked / connect: blocked"
        )
        #expect(!FileManager.default.fileExists(atPath: outside.path + "/written.txt"))

        // The same command outside the sandbox reaches all three: the test can tell.
        let open = try ExternalScratch()
        try previewGenerator(open, "escape", script: script, extra: #", "sandbox": false"#)
        #expect(
            try preview(open).2.first?.description
                == "escape: failed: exited with status 3; stderr: read: escaped / write: escaped / connect: escaped")
    }

    @Test func htmlFromAGeneratorIsSanitized() throws {
        let dir = try ExternalScratch()
        try previewGenerator(
            dir, "page", kind: "html",
            script:
                #"echo '<p onclick="x()">hi</p><script>alert(1)</script><img src="https://tracker.example/p.gif" onerror="y()"><img src="//t.example/q.gif">'"#
        )
        let (preview, generator, _) = try preview(dir)
        #expect(generator == "page")
        #expect(preview.html == "<p>hi</p><img><img>\n")
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/usr/bin/gdk-pixbuf-thumbnailer"), "needs libgdk-pixbuf2.0-bin"))
    func aGIFBombIsRefusedFromItsHeaderAndNeverReachesGdkPixbuf() throws {
        let result = ExternalFixtures.load([], thumbnailers: ["/usr/share/thumbnailers"])
        let dir = try ExternalScratch()
        // GIF89a, a 65535 × 65535 logical screen, no colour table, a 1 × 1 first frame, the trailer.
        let frame: [UInt8] = [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 0x01, 0]
        try ExternalScratch.writeCloseOnExec(
            Array("GIF89a".utf8) + [0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00] + frame + [0x3B], to: dir.path + "/bomb.gif", mode: 0o644)
        let input = try GeneratorInput(path: dir.path + "/bomb.gif", resolver: TypeResolver(catalog: result.catalog))
        let (thumb, generator, attempts) = try result.registry.thumbnail(for: input, request: ThumbnailRequest(maxPixelSize: 64))
        #expect(generator == "fallback")
        #expect(thumb.isIcon)
        #expect(
            attempts.map(\.description) == [
                "image: failed: image is 65535 × 65535 pixels (4295 MP), over the limit of 100 MP",
                "thumbnailer:gdk-pixbuf-thumbnailer: skipped: not tried: image refused the file",
                "fallback: succeeded",
            ])
    }
}
