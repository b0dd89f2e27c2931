import Foundation
import Testing

/// External generators' limits through the real binary, as an ordinary user (root is exempt
/// from the process cap).
@Suite("External generators, contained, through the CLI")
struct ContainmentCommandTests {
    let root = CLI.packageRoot

    @Test func aForkBombIsStoppedByItsProcessCapAndTheIconComesWithAWarning() throws {
        let dir = try CLI.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        chmod(dir, 0o777)
        let fd = open(dir + "/bomb.sh", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
        let script = Array("#!/bin/sh\ni=0\nwhile [ $i -lt 10000 ]; do sleep 30 & i=$((i+1)); done\n".utf8)
        #expect(script.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == script.count)
        close(fd)
        try
            #"{ "generator": { "kind": "thumbnail", "types": ["public.data"], "exec": ["./bomb.sh", "%i", "%o"], "priority": "preferred", "maxProcesses": 50, "timeoutSeconds": 20 } }"#
            .write(toFile: dir + "/bomb.json", atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(atPath: root + "/Samples/unknown.bin", toPath: dir + "/unknown.bin")
        for file in ["bomb.json", "unknown.bin"] { chmod(dir + "/" + file, 0o644) }
        let r = try CLI.run(
            ["thumbnail", "--no-system-thumbnailers", "--generators", dir, dir + "/unknown.bin", "-o", dir + "/out.png"], user: "4242")
        #expect(r.status == 0)
        #expect(r.stderr.hasPrefix("vignette: \(dir)/unknown.bin: warning: bomb: failed: exited with status 2; stderr: "), "\(r.stderr)")
        #expect(r.stderr.contains("Cannot fork"), "\(r.stderr)")
        #expect(r.stderr.hasSuffix("; drew the generic icon instead\n"), "\(r.stderr)")
        #expect(FileManager.default.fileExists(atPath: dir + "/out.png"))
        let left = try CLI.runProgram("/usr/bin/pgrep", ["-u", "4242"])
        #expect(left.stdout.isEmpty, "processes of the generator's user are left: \(left.stdout)")
    }
}

@Suite("vignette generators shows how each command is contained")
struct SandboxListingTests {
    @Test func theSandboxLineSaysBwrapOrWhyNot() throws {
        let dir = try CLI.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try #"{ "generator": { "kind": "text", "types": ["public.data"], "exec": ["cat", "%i"] } }"#
            .write(toFile: dir + "/boxed.json", atomically: true, encoding: .utf8)
        try #"{ "generator": { "kind": "text", "types": ["public.data"], "exec": ["cat", "%i"], "sandbox": false } }"#
            .write(toFile: dir + "/open.json", atomically: true, encoding: .utf8)
        let r = try CLI.run(["generators", "--no-system-thumbnailers", "--generators", dir])
        #expect(r.status == 0)
        let bwrap = FileManager.default.isExecutableFile(atPath: "/usr/bin/bwrap")
        #expect(
            r.stdout.contains(
                "boxed  [preview]  priority standard  from \(dir)/boxed.json\n  types:  public.data\n  limits: 30 s per run\n  sandbox: "
                    + (bwrap
                        ? "bwrap: no network, read-only /usr, only its input and its own folder\n"
                        : "none: bwrap (Debian package bubblewrap) is not installed (limits and the process-tree kill still apply)\n")))
        #expect(
            r.stdout.contains(
                "  sandbox: none: its manifest says \"sandbox\": false (limits and the process-tree kill still apply)\n"))
    }
}
