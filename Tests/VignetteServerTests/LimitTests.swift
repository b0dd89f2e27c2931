import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import VignetteServer

@Suite("Limits and path safety")
struct LimitTests {
    /// Every way out of the root the issue lists, each on every path-taking route.
    static let escapes = [
        "..%2F..%2Foutside%2Fsecret.txt",  // "../../outside/secret.txt" once decoded
        "../outside/secret.txt",
        "%2e%2e/outside/secret.txt",  // encoded once
        "%252e%252e/outside/secret.txt",  // encoded twice
        "%252e%252e%252foutside%252fsecret.txt",
        "..%2foutside%2fsecret.txt",
        "/etc/passwd",
        "%2Fetc%2Fpasswd",
        "etc/passwd",  // a symlink to /etc inside the root
        "link-out.txt",  // a symlink to a file outside
        "sub/../../outside/secret.txt",
        "nothing-here.txt",
        "sub",  // a directory
        "notes.txt%00.png",
    ]

    @Test(arguments: ["/v1/thumbnail", "/v1/preview", "/v1/type", "/view"])
    func pathsLeavingTheRootAre404WithoutAReason(route: String) async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let app = try fixture.service().application(host: "127.0.0.1", port: 0)
        try await app.test(.router) { client in
            for escape in Self.escapes {
                let response = try await client.execute(uri: "\(route)?path=\(escape)", method: .get)
                #expect(response.status == .notFound, "\(route)?path=\(escape)")
                #expect(response.text == errorBody("not-found", "not found"), "\(route)?path=\(escape)")
            }
            // A link that stays inside the root is fine.
            let inside = try await client.execute(uri: "\(route)?path=link-in.txt", method: .get)
            #expect(inside.status == .ok)
        }
    }

    @Test func anUploadOverTheLimitIs413() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let app = try fixture.service(maxUpload: 1000).application(host: "127.0.0.1", port: 0)
        try await app.test(.router) { client in
            let big = ByteBuffer(repeating: 0x41, count: 5000)
            let declared = try await client.execute(
                uri: "/v1/thumbnail?filename=a.txt", method: .post, headers: [.contentLength: "5000"], body: big)
            #expect(declared.status == .contentTooLarge)
            #expect(declared.text == errorBody("too-large", "upload is over the limit of 1 KB"))
            // No Content-Length: the body is collected only up to the limit.
            let streamed = try await client.execute(uri: "/v1/preview?filename=a.txt", method: .post, body: big)
            #expect(streamed.status == .contentTooLarge)
            let small = try await client.execute(
                uri: "/v1/preview?filename=a.txt", method: .post, body: ByteBuffer(repeating: 0x41, count: 1000))
            #expect(small.status == .ok)
        }
    }

    @Test func aPixelBombIs422NotAnIcon() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let app = try fixture.service().application(host: "127.0.0.1", port: 0)
        let bomb = try Data(contentsOf: URL(fileURLWithPath: fixture.root + "/bomb.jpg"))
        try await app.test(.router) { client in
            let byPath = try await client.execute(uri: "/v1/thumbnail?path=bomb.jpg", method: .get)
            #expect(byPath.status == .unprocessableContent)
            #expect(byPath.text == errorBody("limit-exceeded", "image is 20000 × 20000 pixels (400 MP), over the limit of 100 MP"))
            let uploaded = try await client.execute(uri: "/v1/thumbnail?filename=x.jpg", method: .post, body: ByteBuffer(bytes: bomb))
            #expect(uploaded.status == .unprocessableContent)
        }
    }

    @Test func anOutputOverTheSizeCapIs400BeforeAnyWork() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let app = try fixture.service().application(host: "127.0.0.1", port: 0)
        try await app.test(.router) { client in
            let big = try await client.execute(uri: "/v1/thumbnail?path=bomb.jpg&size=2048&scale=4", method: .get)
            #expect(big.status == .badRequest)
            #expect(big.text == errorBody("invalid-request", "size × scale must be at most 2048 pixels, not 2048 × 4 = 8192"))
            let largest = try await client.execute(uri: "/v1/thumbnail?path=notes.txt&size=512&scale=4", method: .get)
            #expect(largest.status == .ok)
        }
    }

    @Test func moreThanConcurrencyPlusQueueIs503WithRetryAfter() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let gate = GateGenerator()
        // The gate holds the first request until the 503 is seen: on a loaded machine that can
        // take longer than the fixture's 30 s timeout, which would make the first a 504.
        let service = try fixture.service(concurrency: 1, queue: 0, timeout: 600, extra: [gate])
        let app = service.application(host: "127.0.0.1", port: 0)
        try await app.test(.router) { client in
            async let first = client.execute(uri: "/v1/thumbnail?path=notes.txt", method: .get)
            #expect(await gate.waitUntilEntered())
            let refused = try await client.execute(uri: "/v1/preview?path=notes.txt", method: .get)
            #expect(refused.status == .serviceUnavailable)
            #expect(refused.headers[.retryAfter] == "1")
            #expect(refused.text == errorBody("overloaded", "too many requests in progress; try again shortly"))
            let ready = try await client.execute(uri: "/readyz", method: .get)
            #expect(ready.status == .serviceUnavailable)
            gate.open()
            #expect(try await first.status == .ok)
        }
    }

    @Test func aRequestOverTheTimeoutIs504AndQueuedWorkIsDropped() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let gate = GateGenerator()
        let service = try fixture.service(concurrency: 1, queue: 2, timeout: 0.3, extra: [gate])
        let app = service.application(host: "127.0.0.1", port: 0)
        try await app.test(.router) { client in
            async let first = client.execute(uri: "/v1/thumbnail?path=notes.txt", method: .get)
            #expect(await gate.waitUntilEntered())
            // Queued behind the blocked one: it times out before it starts, and never starts.
            let queued = try await client.execute(uri: "/v1/preview?path=notes.txt", method: .get)
            #expect(queued.status == .gatewayTimeout)
            #expect(queued.text == errorBody("timeout", "no result within 0.3 s"))
            #expect(try await first.status == .gatewayTimeout)
            gate.open()
        }
        // Wait (bounded) for the worker to finish the first call and pass over the queued one.
        for _ in 0..<3000 where service.pool.inFlight > 0 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(service.pool.inFlight == 0)
        // Only the first call ever reached the generator.
        #expect(gate.entered.wait(timeout: .now()) == .timedOut)
    }
}
