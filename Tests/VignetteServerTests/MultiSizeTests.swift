import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import VignetteServer

@Suite("size=64,256,1024: several sizes from one decode, as multipart/mixed")
struct MultiSizeTests {
    /// The parts of a `multipart/mixed` body: each part's headers (lower-cased names) and bytes.
    func parts(_ body: [UInt8], contentType: String?) throws -> [(headers: [String: String], bytes: [UInt8])] {
        let type = try #require(contentType)
        let boundary = try #require(type.components(separatedBy: "boundary=").last)
        let delimiter = Array("--\(boundary)".utf8)
        var result: [(headers: [String: String], bytes: [UInt8])] = []
        var offset = 0
        func find(_ needle: [UInt8], from: Int) -> Int? {
            guard body.count >= needle.count else { return nil }
            return (from...(body.count - needle.count)).first { body[$0..<$0 + needle.count].elementsEqual(needle) }
        }
        guard var start = find(delimiter, from: 0) else { return [] }
        while true {
            offset = start + delimiter.count
            if body[offset..<offset + 2].elementsEqual(Array("--".utf8)) { break }
            offset += 2
            let headerEnd = try #require(find(Array("\r\n\r\n".utf8), from: offset))
            var headers: [String: String] = [:]
            for line in String(decoding: body[offset..<headerEnd], as: UTF8.self).components(separatedBy: "\r\n") {
                let pair = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                headers[pair[0].lowercased()] = pair[1]
            }
            let length = try #require(Int(headers["content-length"] ?? ""))
            let content = Array(body[(headerEnd + 4)..<(headerEnd + 4 + length)])
            result.append((headers, content))
            start = try #require(find(delimiter, from: headerEnd + 4 + length))
        }
        return result
    }

    @Test func threeSizesComeAsThreePartsInTheOrderAsked() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let app = try fixture.service(cache: true).application(host: "127.0.0.1", port: 0)
        try await app.test(.router) { client in
            // The fixture photo is 227 pixels wide: every size asked is below its own.
            let uri = "/v1/thumbnail?path=photo.jpg&size=200,64,128"
            let first = try await client.execute(uri: uri, method: .get)
            #expect(first.status == .ok)
            #expect(first.headers[.contentType]?.hasPrefix("multipart/mixed; boundary=vignette-") == true)
            #expect(first.headers[.vary] == "Accept")
            let got = try parts(first.bytes, contentType: first.headers[.contentType])
            #expect(got.map { $0.headers["x-vignette-size"] } == ["200", "64", "128"])
            #expect(got.map { $0.headers["content-type"] } == ["image/png", "image/png", "image/png"])
            #expect(
                got.map { $0.headers["content-disposition"] } == [
                    "inline; filename=\"200.png\"", "inline; filename=\"64.png\"", "inline; filename=\"128.png\"",
                ])
            #expect(got.map { pngSize($0.bytes).map { max($0.0, $0.1) } } == [200, 64, 128])

            // The response cache keeps the whole body, boundary included.
            let second = try await client.execute(uri: uri, method: .get)
            #expect(second.headers[HTTPField.Name("X-Vignette-Cache")!] == "hit")
            #expect(second.headers[.contentType] == first.headers[.contentType])
            #expect(second.bytes == first.bytes)
            #expect(second.headers[.eTag] == first.headers[.eTag])
            // A different list is a different answer.
            let other = try await client.execute(uri: "/v1/thumbnail?path=photo.jpg&size=64,256", method: .get)
            #expect(other.headers[.eTag] != first.headers[.eTag])
        }
    }

    @Test func negotiatedFormatAppliesToEveryPartAndUploadsWork() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let photo = try [UInt8](Data(contentsOf: URL(fileURLWithPath: fixture.root + "/photo.jpg")))
        let app = try fixture.service().application(host: "127.0.0.1", port: 0)
        try await app.test(.router) { client in
            let response = try await client.execute(
                uri: "/v1/thumbnail?size=32,96&format=auto&filename=photo.jpg", method: .post, headers: [.accept: "image/webp,*/*"],
                body: ByteBuffer(bytes: photo))
            #expect(response.status == .ok)
            #expect(response.headers[.cacheControl] == "no-store")
            let got = try parts(response.bytes, contentType: response.headers[.contentType])
            #expect(got.map { $0.headers["content-type"] } == ["image/webp", "image/webp"])
            #expect(got.allSatisfy { $0.bytes.starts(with: Array("RIFF".utf8)) })
        }
    }

    @Test func badSizeListsAreRefusedByName() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let app = try fixture.service().application(host: "127.0.0.1", port: 0)
        try await app.test(.router) { client in
            for (query, message) in [
                ("size=64,,256", "size must be a whole number from 1 to 2048, not "),
                ("size=64,4096", "size must be a whole number from 1 to 2048, not 4096"),
                ("size=1,2,3,4,5,6,7,8,9", "size lists at most 8 sizes, not 9"),
                ("size=64,1024&scale=4", "size × scale must be at most 2048 pixels, not 1024 × 4 = 4096"),
            ] {
                let response = try await client.execute(uri: "/v1/thumbnail?path=photo.jpg&\(query)", method: .get)
                #expect(response.status == .badRequest)
                #expect(String(buffer: response.body).contains(message), "\(query)")
            }
        }
    }

    @Test func multipartBodyAvoidsABoundaryThatAPartContains() throws {
        let part = MultipartBody.Part(headers: [("Content-Type", "image/png")], bytes: Array("x--fixed-boundary y".utf8))
        #expect(MultipartBody(parts: [part], boundary: "fixed-boundary") == nil)
        let body = try #require(MultipartBody(parts: [part], boundary: "other"))
        #expect(
            String(decoding: body.bytes, as: UTF8.self)
                == "--other\r\nContent-Type: image/png\r\nContent-Length: 19\r\n\r\nx--fixed-boundary y\r\n--other--\r\n")
        #expect(body.contentType == "multipart/mixed; boundary=other")
    }
}
