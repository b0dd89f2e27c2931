import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import VignetteServer

@Suite("A real loopback server")
struct LiveServerTests {
    @Test func servesThumbnailsRefusesEscapesAndOversizedUploadsOverASocket() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let app = try fixture.service(cache: true, maxUpload: 4096).application(host: "127.0.0.1", port: 0)
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
            // Twice the limit, small enough to be written whole before the server answers 413 and
            // closes (a 100 KB body raced that close on a loaded machine: "I/O on closed channel").
            let tooBig = try await client.execute(
                uri: "/v1/thumbnail?filename=big.bin", method: .post, body: ByteBuffer(repeating: 0, count: 8_192))
            #expect(tooBig.status == .contentTooLarge)
            #expect(tooBig.text == errorBody("too-large", "upload is over the limit of 4.1 KB"))
        }
    }
}
