import Foundation
import Testing
import VignetteTestSupport

/// The attack from issue 17: while a request waits for the only worker, its file is replaced
/// by a symbolic link out of the root. The answer must come from the file the request opened.
@Suite("vignette serve and a link swapped while a request waits")
struct SymlinkSwapTests {
    @Test func aQueuedRequestAnswersFromTheFileItOpenedNeverFromOutsideTheRoot() throws {
        let outside = try CLI.tempDirectory()
        try Data("the secret outside the root\n".utf8).write(to: URL(fileURLWithPath: outside + "/secret.txt"))
        // A preview generator for zip files that holds the only worker for fifteen seconds: time
        // for the two requests below to queue behind it even on a loaded machine (two seconds
        // were not always enough, and the queue was never seen at depth 2). It runs sandboxed,
        // so it cannot wait for a signal from the test instead.
        let generators = try CLI.tempDirectory()
        try
            #"{ "generator": { "kind": "text", "types": ["public.zip-archive"], "exec": ["sh", "-c", "sleep 15; echo held", "hold", "%i"], "priority": "preferred", "timeoutSeconds": 40 } }"#
            .write(toFile: generators + "/hold.json", atomically: true, encoding: .utf8)
        let cache = try CLI.tempDirectory()
        let server = try ServeProcess(arguments: [
            "--concurrency", "1", "--queue", "4", "--generators", generators, "--cache-dir", cache, "--timeout", "120",
        ])
        let root = server.root
        try Data("the original victim\n".utf8).write(to: URL(fileURLWithPath: root + "/victim.txt"))
        try Data("the original victim\n".utf8).write(to: URL(fileURLWithPath: root + "/twin.txt"))
        try Data([0x50, 0x4B, 5, 6] + [UInt8](repeating: 0, count: 18)).write(to: URL(fileURLWithPath: root + "/hold.zip"))
        // The same text draws the same picture: the twin's thumbnail is what the victim's must be.
        let reference = try #require(LoopbackSocket.fetch(port: server.port, "/v1/thumbnail?path=twin.txt&size=64"))
        #expect(reference.head.hasPrefix("HTTP/1.1 200 OK"))

        let answers = Answers()
        let group = DispatchGroup()
        func request(_ name: String, _ path: String) {
            DispatchQueue.global().async(group: group) { answers.set(name, LoopbackSocket.fetch(port: server.port, path)) }
        }
        request("hold", "/v1/preview?path=hold.zip&format=text")
        #expect(waitForMetric(server.port, "vignette_work_running 1.0"))
        request("preview", "/v1/preview?path=victim.txt&format=text")
        request("thumbnail", "/v1/thumbnail?path=victim.txt&size=64")
        #expect(waitForMetric(server.port, "vignette_work_queue_depth 2.0"))
        // Both are queued behind the holder: swap the file for a link out of the root.
        #expect(rename(root + "/victim.txt", root + "/victim.orig") == 0)
        #expect(symlink(outside + "/secret.txt", root + "/victim.txt") == 0)
        #expect(group.wait(timeout: .now() + 60) == .success)

        #expect(answers.get("hold").map { String(decoding: $0.body, as: UTF8.self) }?.contains("held") == true)
        let preview = try #require(answers.get("preview"))
        #expect(preview.head.hasPrefix("HTTP/1.1 200 OK"), "\(preview.head)")
        #expect(String(decoding: preview.body, as: UTF8.self).contains("the original victim"))
        #expect(!String(decoding: preview.body, as: UTF8.self).contains("secret"))
        let thumbnail = try #require(answers.get("thumbnail"))
        #expect(thumbnail.head.hasPrefix("HTTP/1.1 200 OK"), "\(thumbnail.head)")
        let sameAsOriginal = thumbnail.body == reference.body
        #expect(sameAsOriginal, "the queued thumbnail is not the original file's picture")

        // While the link is there, the name leads out of the root: 404.
        #expect(LoopbackSocket.get(port: server.port, "/v1/preview?path=victim.txt&format=text")?.hasPrefix("HTTP/1.1 404") == true)
        #expect(LoopbackSocket.get(port: server.port, "/v1/thumbnail?path=victim.txt&size=64")?.hasPrefix("HTTP/1.1 404") == true)
        // Put back, the file's cached picture is the original's: nothing from outside was kept.
        #expect(unlink(root + "/victim.txt") == 0)
        #expect(rename(root + "/victim.orig", root + "/victim.txt") == 0)
        let again = try #require(LoopbackSocket.fetch(port: server.port, "/v1/thumbnail?path=victim.txt&size=64"))
        #expect(again.head.contains("X-Vignette-Cache: hit") || again.head.contains("x-vignette-cache: hit"), "\(again.head)")
        let cachedIsOriginal = again.body == reference.body
        #expect(cachedIsOriginal, "the cached thumbnail is not the original file's picture")
    }

    /// Polls `/metrics` (at most 20 s) until it contains `line`.
    func waitForMetric(_ port: Int, _ line: String) -> Bool {
        for _ in 0..<1000 {
            if LoopbackSocket.get(port: port, "/metrics")?.contains(line) == true { return true }
            usleep(20_000)
        }
        return false
    }
}

/// Responses gathered from several threads.
private final class Answers: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [String: (head: String, body: [UInt8])] = [:]

    func set(_ name: String, _ value: (head: String, body: [UInt8])?) {
        lock.lock()
        values[name] = value
        lock.unlock()
    }

    func get(_ name: String) -> (head: String, body: [UInt8])? {
        lock.lock()
        defer { lock.unlock() }
        return values[name]
    }
}
