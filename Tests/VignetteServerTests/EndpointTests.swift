import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import VignetteCore
import VignetteGenerators

@testable import VignetteServer

@Suite("HTTP endpoints through the router")
struct EndpointTests {
    @Test func thumbnailOfAFileBelowTheRootIsAPNGFittingTheSize() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let app = try fixture.service().application(host: "127.0.0.1", port: 0)
        try await app.test(.router) { client in
            let response = try await client.execute(uri: "/v1/thumbnail?path=photo.jpg&size=64", method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "image/png")
            #expect(response.headers[.cacheControl] == "public, max-age=3600")
            #expect(response.headers[HTTPField.Name("X-Vignette-Generator")!] == "image")
            #expect(pngSize(response.bytes).map { [$0.0, $0.1] } == [64, 42])
            let etag = try #require(response.headers[.eTag])
            #expect(etag.count == 34 && etag.hasPrefix("\"") && etag.hasSuffix("\""))
        }
    }

    @Test func matchingIfNoneMatchAnswers304AndAChangedFileDoesNot() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let app = try fixture.service().application(host: "127.0.0.1", port: 0)
        try await app.test(.router) { client in
            let first = try await client.execute(uri: "/v1/thumbnail?path=basn2c08.png", method: .get)
            let etag = try #require(first.headers[.eTag])
            let again = try await client.execute(uri: "/v1/thumbnail?path=basn2c08.png", method: .get, headers: [.ifNoneMatch: etag])
            #expect(again.status == .notModified)
            #expect(again.headers[.eTag] == etag)
            #expect(again.body.readableBytes == 0)
            let otherSize = try await client.execute(
                uri: "/v1/thumbnail?path=basn2c08.png&size=16", method: .get, headers: [.ifNoneMatch: etag])
            #expect(otherSize.status == .ok)
            // A new modification time is a new file: the old tag no longer matches.
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSince1970: 1_000_000)], ofItemAtPath: fixture.root + "/basn2c08.png")
            let touched = try await client.execute(uri: "/v1/thumbnail?path=basn2c08.png", method: .get, headers: [.ifNoneMatch: etag])
            #expect(touched.status == .ok)
            #expect(touched.headers[.eTag] != etag)
        }
    }

    @Test func jpegFormatAndIconOptionsAreHonoured() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let app = try fixture.service().application(host: "127.0.0.1", port: 0)
        try await app.test(.router) { client in
            let jpeg = try await client.execute(uri: "/v1/thumbnail?path=photo.jpg&format=jpeg&size=32&scale=2", method: .get)
            #expect(jpeg.status == .ok)
            #expect(jpeg.headers[.contentType] == "image/jpeg")
            #expect(jpeg.bytes.starts(with: [0xFF, 0xD8, 0xFF]))
            let icon = try await client.execute(uri: "/v1/thumbnail?path=notes.txt&icon=1&size=48", method: .get)
            #expect(icon.status == .ok)
            #expect(icon.headers[HTTPField.Name("X-Vignette-Generator")!] == "text-thumbnail")
            #expect(pngSize(icon.bytes) != nil)
        }
    }

    @Test func badOptionsAnswer400NamingTheParameter() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let app = try fixture.service().application(host: "127.0.0.1", port: 0)
        try await app.test(.router) { client in
            let size = try await client.execute(uri: "/v1/thumbnail?path=photo.jpg&size=0", method: .get)
            #expect(size.status == .badRequest)
            #expect(size.text == errorBody("invalid-request", "size must be a whole number from 1 to 2048, not 0"))
            let format = try await client.execute(uri: "/v1/thumbnail?path=photo.jpg&format=gif", method: .get)
            #expect(format.text == errorBody("invalid-request", "format must be png, jpeg, webp or avif, not gif"))
            let missing = try await client.execute(uri: "/v1/type", method: .get)
            #expect(missing.status == .badRequest)
            #expect(missing.text == errorBody("invalid-request", "the path parameter is required"))
            let preview = try await client.execute(uri: "/v1/preview?path=notes.txt&format=pdf", method: .get)
            #expect(preview.text == errorBody("invalid-request", "format must be text, html or json, not pdf"))
        }
    }

    @Test func uploadedBytesAreThumbnailedByTheirContentAndNotCached() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let app = try fixture.service().application(host: "127.0.0.1", port: 0)
        let photo = try Data(contentsOf: URL(fileURLWithPath: fixture.root + "/photo.jpg"))
        try await app.test(.router) { client in
            // Named .bin: the bytes say JPEG, so the image generator answers.
            let response = try await client.execute(
                uri: "/v1/thumbnail?size=100&filename=attachment.bin", method: .post, body: ByteBuffer(bytes: photo))
            #expect(response.status == .ok)
            #expect(response.headers[.cacheControl] == "no-store")
            #expect(response.headers[HTTPField.Name("X-Vignette-Generator")!] == "image")
            #expect(pngSize(response.bytes).map { [$0.0, $0.1] } == [100, 66])
            let preview = try await client.execute(
                uri: "/v1/preview?filename=notes.txt&format=text", method: .post, body: ByteBuffer(string: "hello, upload\n"))
            #expect(preview.status == .ok)
            #expect(preview.text == "hello, upload")
        }
    }

    @Test func previewComesAsJSONTextOrHTML() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let app = try fixture.service().application(host: "127.0.0.1", port: 0)
        try await app.test(.router) { client in
            let json = try await client.execute(uri: "/v1/preview?path=sub/inner%20notes.txt", method: .get)
            #expect(json.status == .ok)
            #expect(json.headers[.contentType] == "application/json")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.bytes)) as? [String: Any])
            #expect(object["generator"] as? String == "text")
            #expect(object["type"] as? String == "public.plain-text")
            #expect((object["text"] as? String)?.contains("hello, vignette") == true)
            let text = try await client.execute(uri: "/v1/preview?path=notes.txt&format=text", method: .get)
            #expect(text.headers[.contentType] == "text/plain; charset=utf-8")
            #expect(text.text.contains("hello, vignette"))
            let html = try await client.execute(uri: "/v1/preview?path=notes.txt&format=html", method: .get)
            #expect(html.headers[.contentType] == "text/html; charset=utf-8")
            #expect(html.text.contains("<pre class=\"vignette-text\">hello, vignette"))
            let etag = try #require(html.headers[.eTag])
            let again = try await client.execute(uri: "/v1/preview?path=notes.txt&format=html", method: .get, headers: [.ifNoneMatch: etag])
            #expect(again.status == .notModified)
        }
    }

    @Test func typeGeneratorsAndViewerDescribeTheFile() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let app = try fixture.service().application(host: "127.0.0.1", port: 0)
        try await app.test(.router) { client in
            let type = try await client.execute(uri: "/v1/type?path=photo.jpg", method: .get)
            #expect(type.status == .ok)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(type.bytes)) as? [String: Any])
            #expect(object["identifier"] as? String == "public.jpeg")
            #expect(object["mime"] as? String == "image/jpeg")
            #expect(object["path"] as? String == "photo.jpg")
            #expect((object["conformsTo"] as? [String])?.contains("public.image") == true)
            let generators = try await client.execute(uri: "/v1/generators", method: .get)
            let list = try #require(
                (try JSONSerialization.jsonObject(with: Data(generators.bytes)) as? [String: Any])?["generators"] as? [[String: Any]])
            let image = try #require(list.first { $0["identifier"] as? String == "image" })
            #expect(list.first?["identifier"] as? String == "fallback")
            #expect(list.count == BuiltInGenerators.makeRegistry().generators.count)
            #expect(image["capabilities"] as? [String] == ["thumbnail", "preview"])
            #expect(image["origin"] as? String == "built-in")
            let view = try await client.execute(uri: "/view?path=photo.jpg", method: .get)
            #expect(view.status == .ok)
            #expect(view.headers[.contentType] == "text/html; charset=utf-8")
            #expect(view.text.hasPrefix("<!DOCTYPE html>"))
            #expect(view.text.contains("<img class=\"thumb\" alt=\"thumbnail of photo.jpg\""))
        }
    }

    @Test func healthReadinessAndUnknownRoutesAnswerJSON() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let app = try fixture.service().application(host: "127.0.0.1", port: 0)
        try await app.test(.router) { client in
            let health = try await client.execute(uri: "/healthz", method: .get)
            #expect(health.status == .ok)
            #expect(health.text == "{\"status\":\"ok\"}\n")
            let ready = try await client.execute(uri: "/readyz", method: .get)
            #expect(ready.text == "{\"status\":\"ready\"}\n")
            let unknown = try await client.execute(uri: "/v2/nothing", method: .get)
            #expect(unknown.status == .notFound)
            #expect(unknown.text == errorBody("not-found", "not found"))
        }
    }

    @Test func thumbnailsAreReusedFromTheDiskCacheAndCountedInMetrics() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let app = try fixture.service(cache: true).application(host: "127.0.0.1", port: 0)
        try await app.test(.router) { client in
            let miss = try await client.execute(uri: "/v1/thumbnail?path=photo.jpg&size=50", method: .get)
            #expect(miss.headers[HTTPField.Name("X-Vignette-Cache")!] == "miss")
            let hit = try await client.execute(uri: "/v1/thumbnail?path=photo.jpg&size=50", method: .get)
            #expect(hit.headers[HTTPField.Name("X-Vignette-Cache")!] == "hit")
            #expect(hit.bytes == miss.bytes)
            #expect(hit.headers[.eTag] == miss.headers[.eTag])
            let metrics = try await client.execute(uri: "/metrics", method: .get)
            let text = metrics.text
            #expect(text.contains("vignette_http_requests_total{route=\"/v1/thumbnail\",status=\"200\"} 2"))
            #expect(text.contains("vignette_generations_total{generator=\"image\",capability=\"thumbnail\"} 1"))
            #expect(text.contains("vignette_cache_hits_total 1"))
            #expect(text.contains("vignette_cache_misses_total 1"))
            #expect(text.contains("vignette_work_queue_depth 0"))
            #expect(text.contains("vignette_http_request_duration_seconds_bucket{route=\"/v1/thumbnail\""))
        }
        let entries = try FileManager.default.subpathsOfDirectory(atPath: fixture.top + "/cache").filter { $0.hasSuffix(".png") }
        #expect(entries.count == 1)
    }
}

@Suite("HTML from external generators through the service")
struct ExternalHTMLTests {
    @Test func aScriptFromAnHTMLGeneratorIsGoneFromPreviewsAndTheViewer() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let evil = #"echo '<p onclick="steal()">hello</p><script>alert(1)</script><img src="https://tracker.example/p.gif" onerror="x()">'"#
        let spec = ExternalGeneratorSpec(
            identifier: "evil-html", kind: .html, types: ["public.plain-text"],
            exec: try ExecTemplate(["/bin/sh", "-c", evil, "%i"]), priority: .preferred, origin: "test")
        let generator = ExternalPreviewGenerator(spec: spec, catalog: .builtIn)
        let app = try fixture.service(extra: [generator]).application(host: "127.0.0.1", port: 0)
        try await app.test(.router) { client in
            for uri in ["/v1/preview?path=notes.txt&format=html", "/v1/preview?path=notes.txt&format=json", "/view?path=notes.txt"] {
                let response = try await client.execute(uri: uri, method: .get)
                #expect(response.status == .ok, "\(uri)")
                #expect(response.text.contains("hello"), "\(uri)")
                for banned in ["<script", "alert(1)", "onclick", "onerror", "tracker.example"] {
                    #expect(!response.text.contains(banned), "\(uri) still has \(banned)")
                }
            }
        }
    }
}
