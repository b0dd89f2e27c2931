import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import VignetteCore
import VignetteGenerators

@testable import VignetteServer

/// HTTP semantics, protective headers, dotfiles, paths and signed URLs.
@Suite("HTTP policy through the router")
struct HTTPPolicyTests {
    /// One request per GET route.
    static let getRoutes = [
        "/v1/thumbnail?path=photo.jpg&size=32", "/v1/preview?path=notes.txt", "/v1/type?path=notes.txt", "/v1/generators",
        "/view?path=notes.txt", "/healthz", "/readyz", "/metrics",
    ]

    static let csp =
        "default-src 'none'; img-src data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    @Test func everyGetRouteIsCoveredHere() {
        let paths = Set(Self.getRoutes.map { String($0.split(separator: "?")[0]) })
        #expect(paths == Set(ResponsePolicy.routes.filter { $0.value.contains(.get) }.keys))
    }

    @Test func headOnEveryGetRouteHasGetsHeadersAndNoBody() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let app = try fixture.service().application(host: "127.0.0.1", port: 0)
        try await app.test(.router) { client in
            for uri in Self.getRoutes {
                let get = try await client.execute(uri: uri, method: .get)
                let head = try await client.execute(uri: uri, method: .head)
                #expect(get.status == .ok, "\(uri)")
                #expect(head.status == get.status, "\(uri)")
                #expect(head.body.readableBytes == 0, "\(uri)")
                #expect(get.body.readableBytes > 0, "\(uri)")
                if uri == "/metrics" {
                    // The counters moved between the two requests; the fields are the same.
                    #expect(Set(head.headers.map(\.name)) == Set(get.headers.map(\.name)))
                } else {
                    #expect(head.headers == get.headers, "\(uri)")
                }
            }
        }
    }

    @Test func aWrongMethodIs405WithAllowAndAnUnknownPathIs404() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let app = try fixture.service().application(host: "127.0.0.1", port: 0)
        try await app.test(.router) { client in
            let delete = try await client.execute(uri: "/v1/thumbnail?path=photo.jpg", method: .delete)
            #expect(delete.status == .methodNotAllowed)
            #expect(delete.headers[.allow] == "GET, HEAD, POST")
            #expect(delete.text == errorBody("method-not-allowed", "/v1/thumbnail takes GET, HEAD, POST, not DELETE"))
            let post = try await client.execute(uri: "/v1/type?path=notes.txt", method: .post)
            #expect(post.status == .methodNotAllowed)
            #expect(post.headers[.allow] == "GET, HEAD")
            let options = try await client.execute(uri: "/view", method: .options)
            #expect(options.status == .methodNotAllowed)
            let unknown = try await client.execute(uri: "/v2/nothing", method: .get)
            #expect(unknown.status == .notFound)
            #expect(unknown.text == errorBody("not-found", "not found"))
        }
    }

    @Test func htmlCarriesTheContentSecurityPolicyAndEveryResponseNosniff() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let app = try fixture.service().application(host: "127.0.0.1", port: 0)
        try await app.test(.router) { client in
            for uri in ["/view?path=notes.txt", "/v1/preview?path=notes.txt&format=html"] {
                let page = try await client.execute(uri: uri, method: .get)
                #expect(page.headers[.contentType] == "text/html; charset=utf-8", "\(uri)")
                #expect(page.headers[.contentSecurityPolicy] == Self.csp, "\(uri)")
                #expect(page.headers[HTTPField.Name("Referrer-Policy")!] == "no-referrer", "\(uri)")
                #expect(page.headers[.xContentTypeOptions] == "nosniff", "\(uri)")
            }
            let view = try await client.execute(uri: "/view?path=notes.txt", method: .get)
            #expect(view.text.contains("<meta http-equiv=\"Content-Security-Policy\" content=\"\(Self.csp)\">"))
            for uri in ["/v1/thumbnail?path=photo.jpg&size=16", "/v1/type?path=nope.txt", "/healthz"] {
                let other = try await client.execute(uri: uri, method: .get)
                #expect(other.headers[.xContentTypeOptions] == "nosniff", "\(uri)")
                #expect(other.headers[.contentSecurityPolicy] == nil, "\(uri)")
            }
        }
    }

    @Test func dotfilesAre404UnlessServed() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let refused = ["/v1/preview?path=.env&format=text", "/v1/preview?path=.git/config&format=text", "/view?path=settings.txt"]
        try await fixture.service().application(host: "127.0.0.1", port: 0).test(.router) { client in
            for uri in refused {
                let response = try await client.execute(uri: uri, method: .get)
                #expect(response.status == .notFound, "\(uri)")
                #expect(!response.text.contains("hunter2"), "\(uri)")
            }
        }
        try await fixture.service(dotfiles: true).application(host: "127.0.0.1", port: 0).test(.router) { client in
            let env = try await client.execute(uri: refused[0], method: .get)
            #expect(env.status == .ok)
            #expect(env.text == "API_TOKEN=hunter2")
        }
    }

    @Test func noResponseShowsWhereTheRootIs() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let manifests = fixture.top + "/manifests"
        try FileManager.default.createDirectory(atPath: manifests, withIntermediateDirectories: true)
        try #"{ "generator": { "kind": "text", "types": ["public.data"], "exec": ["cat", "%i"] } }"#
            .write(toFile: manifests + "/cat.json", atomically: true, encoding: .utf8)
        let loaded = GeneratorLoader.load(
            GeneratorLoader.Configuration(
                manifestDirectories: [GeneratorLoader.Folder(manifests, required: true)], thumbnailerDirectories: []))
        let external = loaded.registry.generators.filter { $0.origin.hasPrefix("/") }
        #expect(external.count == 1)
        let service = try fixture.service(extra: external)
        let files = ["photo.jpg", "notes.txt", "basn2c08.png", "bomb.jpg", "sub/inner%20notes.txt", "link-in.txt", "missing.txt"]
        var uris = ["/v1/generators", "/healthz", "/readyz", "/metrics", "/v1/thumbnail?path=../outside/secret.txt"]
        for file in files {
            uris += [
                "/v1/thumbnail?path=\(file)", "/v1/thumbnail?path=\(file)&icon=1", "/v1/type?path=\(file)", "/view?path=\(file)",
                "/v1/preview?path=\(file)", "/v1/preview?path=\(file)&format=html", "/v1/preview?path=\(file)&format=text",
            ]
        }
        let real = try #require(ServedRoot(fixture.top)).path
        let requests = uris
        try await service.application(host: "127.0.0.1", port: 0).test(.router) { client in
            var pages = 0
            for uri in requests {
                let response = try await client.execute(uri: uri, method: .get)
                let body = String(decoding: response.bytes, as: UTF8.self)
                #expect(!body.contains(fixture.top) && !body.contains(real), "\(uri) shows a server path")
                // Files are read through descriptors: their /proc names must not show either.
                #expect(!body.contains("/proc/"), "\(uri) shows a descriptor's path")
                if response.status == .ok { pages += 1 }
            }
            // Uploads wait in nameless temporary files: no temporary path shows.
            for uri in [
                "/v1/preview?filename=x.bin", "/v1/preview?format=html", "/v1/preview?filename=a.txt&format=text",
                "/v1/thumbnail?filename=b.jpg",
            ] {
                let response = try await client.execute(uri: uri, method: .post, body: ByteBuffer(bytes: Array("just some bytes\n".utf8)))
                let body = String(decoding: response.bytes, as: UTF8.self)
                #expect(response.status == .ok, "\(uri)")
                #expect(!body.contains("/proc/") && !body.contains(NSTemporaryDirectory()) && !body.contains("/tmp"), "\(uri): \(body)")
            }
            #expect(pages > 40)
            let view = try await client.execute(uri: "/view?path=sub/inner%20notes.txt", method: .get)
            #expect(view.text.contains("<tr><th>Path</th><td>sub/inner notes.txt</td></tr>"))
            let generators = try await client.execute(uri: "/v1/generators", method: .get)
            #expect(generators.text.contains("\"origin\":\"cat.json\""))
        }
    }

    @Test func signedURLsWithEitherOfTwoKeysAreServedAndNothingElseStartsWork() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let (old, new) = (Array("an old key of thirty-two bytes or more".utf8), Array("the new key, also 32 bytes or longer".utf8))
        let service = try fixture.service(signing: URLSigning(keys: [new, old]))
        let byOld = URLSigning(keys: [old])
        let byNew = URLSigning(keys: [new])
        let target = "/v1/thumbnail?path=photo.jpg&size=32"
        try await service.application(host: "127.0.0.1", port: 0).test(.router) { client in
            #expect(try await client.execute(uri: byNew.sign(target), method: .get).status == .ok)
            #expect(try await client.execute(uri: byOld.sign("/v1/preview?path=notes.txt"), method: .get).status == .ok)
            let unsigned = try await client.execute(uri: target, method: .get)
            #expect(unsigned.status == .forbidden)
            #expect(unsigned.text == errorBody("forbidden", "this server only answers signed URLs (a sig parameter, last)"))
            let tampered = byNew.sign(target).replacingOccurrences(of: "size=32", with: "size=2048")
            #expect(
                try await client.execute(uri: tampered, method: .get).text == errorBody("forbidden", "the URL's signature does not match"))
            let signature = byNew.sign(target).components(separatedBy: "sig=")[1]
            let otherPath = "/v1/thumbnail?path=bomb.jpg&size=32&sig=" + signature
            #expect(try await client.execute(uri: otherPath, method: .get).status == .forbidden)
            let stranger = URLSigning(keys: [Array("somebody else's key, 32 bytes long".utf8)])
            #expect(try await client.execute(uri: stranger.sign(target), method: .get).status == .forbidden)
            #expect(try await client.execute(uri: "/healthz", method: .get).status == .ok)
            let metrics = try await client.execute(uri: "/metrics", method: .get).text
            let generations = metrics.split(separator: "\n").filter { $0.hasPrefix("vignette_generations_total{") }
            #expect(generations.map { $0.split(separator: " ").last ?? "" }.sorted() == ["1", "1"], "\(generations)")
        }
    }

    @Test func aKeyFileNamesItsShortLineAndNeedsAKey() throws {
        let dir = NSTemporaryDirectory() + "vignette-keys-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "# rotated 2026-11\n0123456789abcdef0123456789abcdef\nshort\n".write(toFile: dir + "/keys", atomically: true, encoding: .utf8)
        #expect(
            throws: VignetteError(.invalidRequest, path: dir + "/keys", "the key on line 3 is 5 bytes; signing keys need at least 32")
        ) { try URLSigning(keyFile: dir + "/keys") }
        try "# none yet\n\n".write(toFile: dir + "/empty", atomically: true, encoding: .utf8)
        #expect(throws: VignetteError(.invalidRequest, path: dir + "/empty", "holds no signing key")) {
            try URLSigning(keyFile: dir + "/empty")
        }
    }
}
