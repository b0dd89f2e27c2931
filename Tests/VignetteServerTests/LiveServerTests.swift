import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import VignetteTestSupport

@testable import VignetteServer

@Suite("A real loopback server")
struct LiveServerTests {
    @Test func servesThumbnailsRefusesEscapesAndOversizedUploadsOverASocket() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        // The client keeps one connection for every request. On a loaded machine the test's task
        // can wait longer than the 10-s idle limit between two of them, and the server then rightly
        // closes the connection ("I/O on closed channel"); idleness is not this test's subject.
        let app = try fixture.service(cache: true, maxUpload: 4096, idle: 600).application(host: "127.0.0.1", port: 0)
        try await app.test(.live) { client in
            let thumbnail = try await client.execute(uri: "/v1/thumbnail?path=photo.jpg&size=64", method: .get)
            #expect(thumbnail.status == .ok)
            #expect(pngSize(thumbnail.bytes).map { [$0.0, $0.1] } == [64, 42])
            let etag = try #require(thumbnail.headers[.eTag])
            let unchanged = try await client.execute(
                uri: "/v1/thumbnail?path=photo.jpg&size=64", method: .get, headers: [.ifNoneMatch: etag])
            #expect(unchanged.status == .notModified)
            for escape in ["../outside/secret.txt", "%252e%252e/outside/secret.txt", "etc/passwd", "/etc/passwd"] {
                let refused = try await client.execute(uri: "/v1/type?path=\(escape)", method: .get)
                #expect(refused.status == .notFound, "\(escape)")
            }
            // An upload declared over the limit is refused from its head, before any of the body is
            // read. A raw socket sends only the head: a client that went on writing the body raced
            // the server's close on a loaded machine ("I/O on closed channel").
            let port = try #require(client.port)
            let socket = try #require(LoopbackSocket(port: port, timeout: 120))
            socket.send(
                Array(
                    ("POST /v1/thumbnail?filename=big.bin HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 8192\r\n"
                        + "Connection: close\r\n\r\n").utf8))
            let answer = String(decoding: socket.readToEnd(), as: UTF8.self)
            #expect(answer.hasPrefix("HTTP/1.1 413 Payload Too Large\r\n"), "\(answer.prefix(80))")
            #expect(answer.hasSuffix("\r\n\r\n" + errorBody("too-large", "upload is over the limit of 4.1 KB")))
        }
    }
}
