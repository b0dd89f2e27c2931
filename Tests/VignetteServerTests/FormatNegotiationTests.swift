import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import VignetteServer

@Suite("format=auto: the output format chosen from Accept")
struct FormatNegotiationTests {
    /// The brand of an ISO-BMFF file (`avif`), or nil.
    func brand(_ bytes: [UInt8]) -> String? {
        guard bytes.count >= 12, bytes[4..<8] == Array("ftyp".utf8)[...] else { return nil }
        return String(decoding: bytes[8..<12], as: UTF8.self)
    }

    @Test func acceptPicksAVIFThenWebPThenPNGOrJPEGAlwaysWithVary() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        try FileManager.default.copyItem(atPath: CLIPaths.samples + "/logo.png", toPath: fixture.root + "/logo.png")
        let app = try fixture.service().application(host: "127.0.0.1", port: 0)
        try await app.test(.router) { client in
            func get(_ path: String, _ accept: String?) async throws -> TestResponse {
                var headers: HTTPFields = [:]
                if let accept { headers[.accept] = accept }
                return try await client.execute(uri: "/v1/thumbnail?path=\(path)&size=64&format=auto", method: .get, headers: headers)
            }
            let avif = try await get("photo.jpg", "image/avif,image/webp,*/*")
            #expect(avif.status == .ok)
            #expect(avif.headers[.contentType] == "image/avif")
            #expect(avif.headers[.vary] == "Accept")
            #expect(brand(avif.bytes) == "avif")

            let webp = try await get("photo.jpg", "image/webp,*/*")
            #expect(webp.headers[.contentType] == "image/webp")
            #expect(webp.headers[.vary] == "Accept")
            #expect(webp.bytes.starts(with: Array("RIFF".utf8)) && webp.bytes[8..<12] == Array("WEBP".utf8)[...])

            // `*/*` is sent by every client: it names no modern format. Opaque → JPEG, alpha → PNG.
            let any = try await get("photo.jpg", "*/*")
            #expect(any.headers[.contentType] == "image/jpeg")
            #expect(any.headers[.vary] == "Accept")
            #expect(any.bytes.starts(with: [0xFF, 0xD8, 0xFF]))
            let alpha = try await get("logo.png", "*/*")
            #expect(alpha.headers[.contentType] == "image/png")
            #expect(alpha.headers[.vary] == "Accept")
            let none = try await get("photo.jpg", nil)
            #expect(none.headers[.contentType] == "image/jpeg")

            // q=0 refuses a type; parameters and spaces are allowed.
            let refused = try await get("photo.jpg", "image/avif;q=0, image/webp ; q=0.9, */*;q=0.5")
            #expect(refused.headers[.contentType] == "image/webp")

            // Each format has its own tag, and a 304 still says Vary.
            let avifTag = try #require(avif.headers[.eTag])
            #expect(webp.headers[.eTag] != avifTag)
            #expect(any.headers[.eTag] != avifTag)
            let again = try await client.execute(
                uri: "/v1/thumbnail?path=photo.jpg&size=64&format=auto", method: .get,
                headers: [.accept: "image/avif,image/webp,*/*", .ifNoneMatch: avifTag])
            #expect(again.status == .notModified)
            #expect(again.headers[.vary] == "Accept")
        }
    }

    @Test func explicitFormatsAndTheResponseCacheKeepTheirTypes() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let app = try fixture.service(cache: true).application(host: "127.0.0.1", port: 0)
        try await app.test(.router) { client in
            for (format, type) in [("webp", "image/webp"), ("avif", "image/avif"), ("auto", "image/jpeg")] {
                let uri = "/v1/thumbnail?path=photo.jpg&size=48&format=\(format)"
                let first = try await client.execute(uri: uri, method: .get, headers: [.accept: "*/*"])
                let second = try await client.execute(uri: uri, method: .get, headers: [.accept: "*/*"])
                #expect(first.headers[.contentType] == type)
                #expect(first.headers[.vary] == "Accept")
                #expect(first.headers[HTTPField.Name("X-Vignette-Cache")!] == "miss")
                #expect(second.headers[HTTPField.Name("X-Vignette-Cache")!] == "hit")
                #expect(second.headers[.contentType] == type)
                #expect(second.bytes == first.bytes)
            }
            let upload = try await client.execute(
                uri: "/v1/thumbnail?size=32&format=auto&filename=photo.jpg", method: .post, headers: [.accept: "image/webp"],
                body: ByteBuffer(bytes: try Array(Data(contentsOf: URL(fileURLWithPath: fixture.root + "/photo.jpg")))))
            #expect(upload.status == .ok)
            #expect(upload.headers[.contentType] == "image/webp")
            #expect(upload.headers[.vary] == "Accept")
        }
    }

    @Test func cropFillAndSmartGiveTheSquareBox() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let app = try fixture.service().application(host: "127.0.0.1", port: 0)
        try await app.test(.router) { client in
            for mode in ["fill", "smart"] {
                let r = try await client.execute(uri: "/v1/thumbnail?path=photo.jpg&size=40&crop=\(mode)", method: .get)
                #expect(r.status == .ok)
                #expect(pngSize(r.bytes).map { [$0.0, $0.1] } == [40, 40])
            }
            let fit = try await client.execute(uri: "/v1/thumbnail?path=photo.jpg&size=40&crop=fit", method: .get)
            let fill = try await client.execute(uri: "/v1/thumbnail?path=photo.jpg&size=40&crop=fill", method: .get)
            #expect(fit.headers[.eTag] != fill.headers[.eTag])
            let bad = try await client.execute(uri: "/v1/thumbnail?path=photo.jpg&crop=zoom", method: .get)
            #expect(bad.status == .badRequest)
            #expect(String(buffer: bad.body).contains("crop must be fit, fill or smart, not zoom"))
        }
    }

    @Test func acceptHeadersAreParsedForExplicitTypesOnly() {
        #expect(
            ThumbnailOptions.acceptedTypes("image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8")
                == ["image/avif", "image/webp", "image/apng", "image/svg+xml", "image/*", "*/*"])
        #expect(ThumbnailOptions.acceptedTypes("IMAGE/WEBP;q=0, text/html") == ["text/html"])
        #expect(ThumbnailOptions.acceptedTypes("") == [])
    }
}

/// Paths of the repository's sample files, for tests that need one beside the fixtures.
enum CLIPaths {
    static var samples: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
            + "/Samples"
    }
}
