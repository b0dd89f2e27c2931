import Foundation
import Testing
import VignetteTestSupport

/// A request that times out stops its work (issue 17): a 99 MP decode used to run on for
/// seconds after its 504, and an external program to its own end.
@Suite("vignette serve stops the work of a request it gave up")
struct AbandonedWorkTests {
    @Test func aTimedOutRequestsProgramIsEndedWithIt() throws {
        let token = "1000.\(UInt32.random(in: 1000...999_999))"
        let generators = try CLI.tempDirectory()
        try
            #"{ "generator": { "kind": "text", "types": ["public.zip-archive"], "exec": ["sh", "-c", "sleep \#(token)", "hold", "%i"], "priority": "preferred", "timeoutSeconds": 600 } }"#
            .write(toFile: generators + "/hold.json", atomically: true, encoding: .utf8)
        let server = try ServeProcess(arguments: ["--timeout", "1", "--generators", generators])
        try Data([0x50, 0x4B, 5, 6] + [UInt8](repeating: 0, count: 18)).write(to: URL(fileURLWithPath: server.root + "/hold.zip"))
        let answer = LoopbackSocket.get(port: server.port, "/v1/preview?path=hold.zip&format=text") ?? ""
        #expect(answer.hasPrefix("HTTP/1.1 504"), "\(answer)")
        // Gone within a few seconds (a hang guard: without the fix it lives for 600 s).
        var left = Self.processes(containing: token)
        for _ in 0..<500 where !left.isEmpty {
            usleep(20_000)
            left = Self.processes(containing: token)
        }
        #expect(left.isEmpty, "the generator of a timed-out request is still running")
        // And its worker is free again (polled, bounded: it returns once the group is reaped).
        var idle = false
        for _ in 0..<500 where !idle {
            idle = LoopbackSocket.get(port: server.port, "/metrics")?.contains("vignette_work_running 0.0") == true
            if !idle { usleep(20_000) }
        }
        #expect(idle, "the worker of a timed-out request is still busy")
    }

    /// Processes whose command line contains `token`.
    static func processes(containing token: String) -> [String] {
        let pids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc"))?.filter { $0.allSatisfy(\.isNumber) } ?? []
        return pids.filter { pid in
            guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
            return String(decoding: data, as: UTF8.self).contains(token)
        }
    }
}
