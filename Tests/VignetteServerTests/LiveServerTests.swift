import Foundation
import Glibc
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
            let answer = try #require(
                Self.exchange(
                    port: port,
                    "POST /v1/thumbnail?filename=big.bin HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 8192\r\n"
                        + "Connection: close\r\n\r\n"))
            #expect(answer.hasPrefix("HTTP/1.1 413 Payload Too Large\r\n"), "\(answer.prefix(80))")
            #expect(answer.hasSuffix("\r\n\r\n" + errorBody("too-large", "upload is over the limit of 4.1 KB")))
        }
    }

    /// Sends `request` to 127.0.0.1:`port` and reads until the server closes (120 s at most a read).
    static func exchange(port: Int, _ request: String) -> String? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 120, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return nil }
        let bytes = Array(request.utf8)
        guard bytes.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == bytes.count else { return nil }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            received += buffer[..<n]
        }
        return String(decoding: received, as: UTF8.self)
    }
}
