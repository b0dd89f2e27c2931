import Foundation
import Testing
import VignetteCore

@testable import VignetteGenerators

@Suite("External generator runs")
struct ExternalRunnerTests {
    /// Thumbnails `bytes` named `name` with the generators of `dir`; returns the result and the attempts.
    func thumbnail(_ dir: ExternalScratch) throws -> (GeneratedThumbnail, String, [GeneratorRegistry.Attempt]) {
        let result = ExternalFixtures.load([dir.path])
        #expect(result.warnings.isEmpty)
        let file = dir.path + "/input.bin"
        try Data([0, 1, 2, 3, 0xFF]).write(to: URL(fileURLWithPath: file))
        let input = try GeneratorInput(path: file, resolver: TypeResolver(catalog: result.catalog))
        return try result.registry.thumbnail(for: input, request: ThumbnailRequest(maxPixelSize: 64))
    }

    @Test func aGeneratorThatSleepsForeverIsKilledAtItsTimeoutWithNoProcessLeft() throws {
        let dir = try ExternalScratch()
        let pidFile = dir.path + "/pid"
        // The script is the group leader; its background child must die with it.
        try dir.thumbnailGenerator(
            "sleepy", type: "public.data", timeout: 1, sandbox: false,
            script: ExternalScratch.outerPID(to: pidFile) + "\nsleep 1000 &\nsleep 1000")
        let start = ContinuousClock.now
        let (thumb, generator, attempts) = try thumbnail(dir)
        let elapsed = ContinuousClock.now - start
        // A hang guard, not a timing assertion: the script sleeps 1000 s.
        #expect(elapsed < .seconds(10), "took \(elapsed)")
        #expect(generator == "fallback")
        let isIcon = thumb.isIcon
        #expect(isIcon)
        #expect(attempts.first?.description == "sleepy: failed: timed out after 1 s; its process group was killed")
        let pid = try #require(Int32(String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(kill(-pid, 0) == -1 && errno == ESRCH, "process group \(pid) still exists")
    }

    @Test func theRunnerKillsTheWholeGroupAndKeepsStderrTail() throws {
        let runner = ProcessRunner(timeout: 0.5, stderrLimit: 8)
        let start = ContinuousClock.now
        let outcome = try runner.run(
            ["/bin/sh", "-c", "echo 0123456789abcdef >&2; trap '' TERM; sleep 1000 & wait"], directory: "/tmp",
            environment: ["PATH": "/usr/bin:/bin"])
        // A hang guard, not a timing assertion: the child sleeps 1000 s and ignores SIGTERM.
        #expect(ContinuousClock.now - start < .seconds(10))
        #expect(outcome.timedOut)
        #expect(outcome.signal == SIGKILL)
        #expect(String(decoding: outcome.stderr, as: UTF8.self) == "9abcdef\n")
        #expect(kill(-outcome.processGroup, 0) == -1 && errno == ESRCH)
    }

    @Test(.enabled(if: ExternalFixtures.installed("python3"), "needs python3"))
    func aCommandOverItsMemoryCapCannotAllocateAndWithoutTheCapItCan() throws {
        let allocate = ["python3", "-c", "bytearray(256 << 20)"]
        let environment = ["PATH": "/usr/bin:/bin"]
        let capped = try ProcessRunner(timeout: 20, memoryLimit: 64 << 20).run(allocate, directory: "/tmp", environment: environment)
        #expect(capped.exitStatus == 1)
        #expect(String(decoding: capped.stderr, as: UTF8.self).hasSuffix("MemoryError\n"))
        let free = try ProcessRunner(timeout: 20).run(allocate, directory: "/tmp", environment: environment)
        #expect(free.exitStatus == 0)
    }

    @Test(.enabled(if: ExternalFixtures.installed("python3"), "needs python3"))
    func aGeneratorOverItsManifestsMemoryCapFailsAndFallsThrough() throws {
        let dir = try ExternalScratch()
        try dir.write("hungry.sh", "#!/bin/sh\nexec python3 -c 'bytearray(256 << 20)'\n", executable: true)
        try dir.write(
            "hungry.json",
            """
            { "format": 1, "generator": { "kind": "thumbnail", "types": ["public.data"], "priority": "preferred",
              "exec": ["./hungry.sh", "%i", "%o"], "maxMemoryBytes": 67108864 } }
            """)
        let (_, generator, attempts) = try thumbnail(dir)
        #expect(generator == "fallback")
        #expect(
            attempts.first?.description
                == "hungry: failed: exited with status 1; stderr: Traceback (most recent call last): / File \"<string>\", line 1, in <module> / MemoryError"
        )
    }

    @Test func stdinIsClosedAndStdoutIsCappedAndStragglersAreKilled() throws {
        let runner = ProcessRunner(timeout: 5, stdoutLimit: 4)
        let outcome = try runner.run(
            ["/bin/sh", "-c", "cat; printf 'hello world'; sleep 1000 &"], directory: "/tmp", environment: ["PATH": "/usr/bin:/bin"])
        #expect(outcome.exitStatus == 0)
        #expect(outcome.stdout == Array("hell".utf8))
        #expect(outcome.stdoutTruncated)
        #expect(kill(-outcome.processGroup, 0) == -1 && errno == ESRCH)
    }

    @Test func anotherChildOfThisProcessKeepsItsExitStatusForItsOwner() throws {
        // A child someone else in this process started (and will wait for) has exited: running a
        // command, which reaps the orphans it adopts, must leave that status alone.
        var child: pid_t = 0
        let words: [String] = ["/bin/sh", "-c", "exit 7"]
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        #expect(posix_spawn(&child, "/bin/sh", nil, nil, argv, environ) == 0)
        var info = siginfo_t()
        #expect(waitid(P_PID, id_t(child), &info, WEXITED | WNOWAIT) == 0)  // a zombie now, not reaped
        let outcome = try ProcessRunner(timeout: 5, isolate: true).run(
            ["/bin/true"], directory: "/tmp", environment: ["PATH": "/usr/bin:/bin"])
        #expect(outcome.exitStatus == 0)
        var status: Int32 = 0
        #expect(waitpid(child, &status, 0) == child)
        #expect((status >> 8) & 0xff == 7)
    }

    @Test func aMissingProgramIsAClearError() {
        #expect(throws: VignetteError(.io, "cannot run no-such-tool-vgn: program not found")) {
            try ProcessRunner(timeout: 1).run(["no-such-tool-vgn"], directory: "/tmp", environment: [:])
        }
    }

    @Test func anExitStatusFailsWithTheTailOfStderrAndFallsThrough() throws {
        let dir = try ExternalScratch()
        try dir.thumbnailGenerator(
            "broken", type: "public.data", script: "echo 'starting' >&2\necho 'cannot read input: bad magic' >&2\nexit 1")
        let (_, generator, attempts) = try thumbnail(dir)
        #expect(generator == "fallback")
        #expect(
            attempts.map(\.description).first == "broken: failed: exited with status 1; stderr: starting / cannot read input: bad magic")
    }

    @Test func garbageOutputIsRefused() throws {
        let dir = try ExternalScratch()
        try dir.thumbnailGenerator(
            "garbage", type: "public.data",
            script: "head -c 1000 /dev/urandom > \"$2\"; printf 'GIF89a' | dd of=\"$2\" conv=notrunc 2>/dev/null")
        let (_, generator, attempts) = try thumbnail(dir)
        #expect(generator == "fallback")
        #expect(attempts.first?.description == "garbage: failed: its output is not a PNG or JPEG image")
    }

    @Test func anAbsurdlyLargePNGHeaderIsRefusedBeforeDecoding() throws {
        let dir = try ExternalScratch()
        // Signature, then an IHDR for 50000 × 50000 (0x0000C350), 8-bit RGBA; no image data at all.
        try dir.thumbnailGenerator(
            "huge", type: "public.data",
            script:
                #"printf '\211PNG\r\n\032\n\000\000\000\rIHDR\000\000\303\120\000\000\303\120\010\006\000\000\000\000\000\000\000' > "$2""#)
        let (_, generator, attempts) = try thumbnail(dir)
        #expect(generator == "fallback")
        #expect(attempts.first?.description == "huge: failed: its output image is 50000 × 50000 pixels, over the limit of 100 MP")
    }

    @Test func noOutputFileIsAFailure() throws {
        let dir = try ExternalScratch()
        try dir.thumbnailGenerator("lazy", type: "public.data", script: "exit 0")
        let (_, _, attempts) = try thumbnail(dir)
        #expect(attempts.first?.description == "lazy: failed: wrote no output file")
    }

    @Test func anOutputThatIsALinkIsNotFollowed() throws {
        // A command could point its output at a file it may not read itself (sandboxed) and have
        // Vignette read it: a link to a perfectly good PNG is still refused.
        let dir = try ExternalScratch()
        let png = ExternalFixtures.packageRoot + "/Samples/logo.png"
        try dir.thumbnailGenerator("linker", type: "public.data", script: "ln -s '\(png)' \"$2\"")
        let (_, generator, attempts) = try thumbnail(dir)
        #expect(generator == "fallback")
        #expect(attempts.first?.description == "linker: failed: its output is not a regular file")
    }

    @Test func aGoodOutputIsDecodedAtTheRequestedSize() throws {
        let dir = try ExternalScratch()
        let png = ExternalFixtures.packageRoot + "/Samples/logo.png"
        try dir.thumbnailGenerator(
            "copy", type: "public.data", sandbox: false, script: "test \"$3\" = 64 || exit 3\ncp '\(png)' \"$2\"")
        let (thumb, generator, _) = try thumbnail(dir)
        #expect(generator == "copy")
        #expect(max(thumb.bitmap.width, thumb.bitmap.height) == 64)
        let isIcon = thumb.isIcon
        #expect(!isIcon)
    }

    @Test func uploadedBytesAreGivenToTheCommandAsAFileWithTheirExtensionAndAURI() throws {
        let dir = try ExternalScratch()
        try dir.write(
            "echo.json",
            #"{ "generator": { "kind": "text", "types": ["public.plain-text"], "priority": "preferred", "exec": ["/bin/sh", "-c", "basename \"$0\"; cat \"$0\"; echo \"$1\" | sed 's|file://.*/|URI:|'", "%i", "%u"] } }"#
        )
        let result = ExternalFixtures.load([dir.path])
        let input = GeneratorInput(bytes: Array("payload".utf8), filename: "a b.qqq", resolver: TypeResolver(catalog: result.catalog))
        let (preview, generator, _) = try result.registry.preview(for: input, request: PreviewRequest())
        #expect(generator == "echo")
        #expect(preview.text == "input.qqq\npayloadURI:input.qqq\n")
        #expect(preview.html == "<pre class=\"vignette-text\">input.qqq\npayloadURI:input.qqq\n</pre>")
    }

    @Test func fileURIsAreEscapedLikeGLib() {
        #expect(FileURI.string(forAbsolutePath: "/home/me/a b#c%;é/(x)+y=z@~.png") == "file:///home/me/a%20b%23c%25%3B%C3%A9/(x)+y=z@~.png")
    }

    @Test func aTextCommandMayWriteItsOutputFileAndIsCutAtTheRequestLimit() throws {
        let dir = try ExternalScratch()
        try dir.write(
            "lines.json",
            #"{ "generator": { "kind": "text", "types": ["public.data"], "priority": "preferred", "exec": ["/bin/sh", "-c", "printf 'mime=%%s\\n' \"$1\" > \"$0\"; seq 1 5000 >> \"$0\"", "%o", "%m", "%i"] } }"#
        )
        let result = ExternalFixtures.load([dir.path])
        #expect(result.warnings.isEmpty, "\(result.warnings)")
        let input = GeneratorInput(bytes: [0, 1, 2], filename: "x.bin", resolver: TypeResolver(catalog: result.catalog))
        let (preview, generator, _) = try result.registry.preview(for: input, request: PreviewRequest(maxBytes: 1 << 20, maxLines: 3))
        #expect(generator == "lines")
        #expect(preview.text == "mime=application/octet-stream\n1\n2")
        #expect(preview.truncated)
    }
}
