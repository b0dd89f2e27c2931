import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import VignetteCore
import VignetteGenerators

@testable import VignetteServer

/// `POST /pipeline` as Nextcloud's Imaginary preview provider calls it.
///
/// The request shapes are copied from nextcloud/server `lib/private/Preview/Imaginary.php`
/// (commit 0005a2442a650c6e30753335033d6dee7a6c29ea), `getCroppedThumbnail`: it POSTs the
/// file's bytes (with the file's MIME type) to `preview_imaginary_url` + `/pipeline` with the
/// query `operations=json_encode($operations)&key=preview_imaginary_key` ('' by default).
/// `$operations` is `[{"operation":"autorotate"}]` (or, for SVG, PDF and Illustrator files,
/// `[{"operation":"convert","params":{"type":"png"}}]`; for HEIC nothing), then
/// `{"operation":"fit"|"smartcrop","params":{"width":$maxX,"height":$maxY,"stripmeta":"true",
/// "type":$mimeType,"norotation":"true","quality":$quality}}` with `type` `png` for PNG and GIF,
/// `webp` when `preview_format` is webp, else `jpeg`, and the quality the app config's string
/// (`"80"`). It takes only a 200, and then `Image-Width`/`Image-Height` with `Content-Type`.
@Suite("POST /pipeline: Nextcloud's Imaginary preview provider")
struct PipelineTests {
    /// The operations the provider sends (its `json_encode` output, keys in its order).
    static func operations(
        _ resize: String, width: Int, height: Int, type: String, autorotate: Bool = true, convert: Bool = false
    ) -> String {
        let first =
            convert
            ? "{\"operation\":\"convert\",\"params\":{\"type\":\"\(type)\"}},"
            : autorotate ? "{\"operation\":\"autorotate\"}," : ""
        return "[" + first + "{\"operation\":\"\(resize)\",\"params\":{\"width\":\(width),\"height\":\(height),"
            + "\"stripmeta\":\"true\",\"type\":\"\(type)\",\"norotation\":\"true\",\"quality\":\"80\"}}]"
    }

    /// `/pipeline?operations=…&key=…`, encoded as Guzzle's `query` option does (RFC 3986).
    static func uri(_ operations: String, key: String = "") -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let encoded = operations.addingPercentEncoding(withAllowedCharacters: allowed)!
        return "/pipeline?operations=\(encoded)&key=\(key)"
    }

    /// A 300 × 100 PNG whose left half is transparent.
    static func alphaPNG() throws -> [UInt8] {
        var pixels = [UInt8](repeating: 0, count: 300 * 100 * 4)
        for y in 0..<100 {
            for x in 0..<300 {
                let i = (y * 300 + x) * 4
                pixels[i] = UInt8(x % 256)
                pixels[i + 1] = UInt8(y * 2)
                pixels[i + 2] = 200
                pixels[i + 3] = x < 150 ? 0 : 255
            }
        }
        return try ThumbnailOutput(format: .png).encode(Bitmap(width: 300, height: 100, pixels: pixels))
    }

    func photo(_ fixture: ServerFixture) throws -> ByteBuffer {
        ByteBuffer(bytes: try Data(contentsOf: URL(fileURLWithPath: fixture.root + "/photo.jpg")))
    }

    /// Status 200, the type, the headers Nextcloud reads, and the encoded picture's own size.
    func expectPicture(
        _ response: TestResponse, _ type: String, _ width: Int, _ height: Int, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(response.status == .ok, "\(response.text)", sourceLocation: sourceLocation)
        #expect(response.headers[.contentType] == type, sourceLocation: sourceLocation)
        #expect(response.headers[.imageWidth] == String(width), sourceLocation: sourceLocation)
        #expect(response.headers[.imageHeight] == String(height), sourceLocation: sourceLocation)
        let size: (Int, Int)? =
            switch type {
            case "image/png": pngSize(response.bytes)
            case "image/jpeg": jpegSize(response.bytes)
            case "image/webp": webpSize(response.bytes)
            default: nil
            }
        #expect(size.map { [$0.0, $0.1] } == [width, height], sourceLocation: sourceLocation)
    }

    @Test func aJPEGPhotoFitsTheBoxesNextcloudAsks() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let app = try fixture.service(maxUpload: 4 << 20).application(host: "127.0.0.1", port: 0)
        let body = try photo(fixture)
        try await app.test(.router) { client in
            func post(_ ops: String) async throws -> TestResponse {
                try await client.execute(uri: Self.uri(ops), method: .post, headers: [.contentType: "image/jpeg"], body: body)
            }
            // photo.jpg is 227 × 149. Nextcloud's first call is its largest preview (4096 × 4096
            // by default): never enlarged.
            expectPicture(try await post(Self.operations("fit", width: 4096, height: 4096, type: "jpeg")), "image/jpeg", 227, 149)
            expectPicture(try await post(Self.operations("fit", width: 100, height: 100, type: "jpeg")), "image/jpeg", 100, 66)
            // Not square: the limiting side decides (here the height, then the width).
            expectPicture(try await post(Self.operations("fit", width: 200, height: 50, type: "jpeg")), "image/jpeg", 76, 50)
            expectPicture(try await post(Self.operations("fit", width: 64, height: 256, type: "jpeg")), "image/jpeg", 64, 42)
            // preview_format webp; and the HEIC shape (no autorotate).
            expectPicture(try await post(Self.operations("fit", width: 64, height: 64, type: "webp")), "image/webp", 64, 42)
            expectPicture(
                try await post(Self.operations("fit", width: 64, height: 64, type: "jpeg", autorotate: false)), "image/jpeg", 64, 42)
            let answer = try await post(Self.operations("fit", width: 64, height: 64, type: "png"))
            expectPicture(answer, "image/png", 64, 42)
            // preview_imaginary_key: sent as key, ignored without --pipeline-key-file.
            let keyed = try await client.execute(
                uri: Self.uri(Self.operations("fit", width: 64, height: 64, type: "png"), key: "s3cret"), method: .post, body: body)
            expectPicture(keyed, "image/png", 64, 42)
            #expect(answer.headers[.cacheControl] == "no-store")
        }
    }

    @Test func withPipelineKeysOnlyTheKeyOpensThePipelineAndSigningExemptsIt() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let keys = PipelineKeys(keys: [Array("nextcloud-preview-key".utf8), Array("the next key to roll out".utf8)])
        let signing = URLSigning(keys: [Array("a signing key of at least 32 bytes".utf8)])
        let app = try fixture.service(maxUpload: 4 << 20, signing: signing, pipelineKeys: keys).application(host: "127.0.0.1", port: 0)
        let body = try photo(fixture)
        let ops = Self.operations("fit", width: 64, height: 64, type: "png")
        try await app.test(.router) { client in
            for key in ["nextcloud-preview-key", "the%20next%20key%20to%20roll%20out"] {
                expectPicture(try await client.execute(uri: Self.uri(ops, key: key), method: .post, body: body), "image/png", 64, 42)
            }
            let wrong = try await client.execute(uri: Self.uri(ops, key: "nextcloud-preview-kez"), method: .post, body: body)
            #expect(wrong.status == .unauthorized)
            #expect(wrong.text == #"{"error":{"code":"unauthorized","message":"the key parameter is not a pipeline key"}}"# + "\n")
            let missing = try await client.execute(uri: "/pipeline?operations=[]", method: .post, body: body)
            #expect(missing.status == .unauthorized)
            #expect(missing.text.contains(#""message":"the key parameter is required""#))
            // The other endpoints still need signed URLs.
            let unsigned = try await client.execute(uri: "/v1/thumbnail?path=photo.jpg", method: .get)
            #expect(unsigned.status == .forbidden)
        }
    }

    @Test func pipelineKeyFilesNameTheirMistakes() throws {
        let dir = try ServerFixture().top
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data("# Nextcloud\nshort\n".utf8).write(to: URL(fileURLWithPath: dir + "/keys"))
        #expect(
            throws: VignetteError(.invalidRequest, path: dir + "/keys", "the key on line 2 is 5 bytes; pipeline keys need at least 16")
        ) { try PipelineKeys(keyFile: dir + "/keys") }
        #expect(throws: VignetteError(.notFound, path: dir + "/none", "cannot read the pipeline key file: no such file or directory")) {
            try PipelineKeys(keyFile: dir + "/none")
        }
        #expect(throws: VignetteError(.io, path: dir, "cannot read the pipeline key file: it is a directory")) {
            try PipelineKeys(keyFile: dir)
        }
        // A FIFO nobody writes to is empty, not a hang; a device that never ends stops at the cap.
        #expect(mkfifo(dir + "/fifo", 0o600) == 0)
        #expect(throws: VignetteError(.invalidRequest, path: dir + "/fifo", "holds no pipeline key")) {
            try PipelineKeys(keyFile: dir + "/fifo")
        }
        #expect(throws: VignetteError(.io, path: "/dev/zero", "cannot read the pipeline key file: it holds more than 1 MB")) {
            try PipelineKeys(keyFile: "/dev/zero")
        }
    }

    @Test func smartcropAndCropCutExactlyTheBox() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let app = try fixture.service(maxUpload: 4 << 20).application(host: "127.0.0.1", port: 0)
        let body = try photo(fixture)
        try await app.test(.router) { client in
            func post(_ ops: String) async throws -> TestResponse {
                try await client.execute(uri: Self.uri(ops), method: .post, headers: [.contentType: "image/jpeg"], body: body)
            }
            expectPicture(try await post(Self.operations("smartcrop", width: 64, height: 64, type: "jpeg")), "image/jpeg", 64, 64)
            expectPicture(try await post(Self.operations("smartcrop", width: 96, height: 96, type: "webp")), "image/webp", 96, 96)
            expectPicture(try await post(Self.operations("crop", width: 80, height: 80, type: "png")), "image/png", 80, 80)
            // Boxes that are not square, wider and taller than the photo's 227 × 149.
            expectPicture(try await post(Self.operations("smartcrop", width: 100, height: 60, type: "jpeg")), "image/jpeg", 100, 60)
            expectPicture(try await post(Self.operations("crop", width: 40, height: 120, type: "png")), "image/png", 40, 120)
            expectPicture(try await post(Self.operations("smartcrop", width: 300, height: 20, type: "webp")), "image/webp", 300, 20)
        }
    }

    @Test func aPNGWithAlphaKeepsItInPNGAndWebP() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let app = try fixture.service(maxUpload: 4 << 20).application(host: "127.0.0.1", port: 0)
        let wide = ByteBuffer(bytes: try Self.alphaPNG())
        let logo = ByteBuffer(bytes: try Data(contentsOf: URL(fileURLWithPath: CLIPaths.samples + "/logo.png")))
        try await app.test(.router) { client in
            func post(_ ops: String, _ body: ByteBuffer) async throws -> TestResponse {
                try await client.execute(uri: Self.uri(ops), method: .post, headers: [.contentType: "image/png"], body: body)
            }
            let png = try await post(Self.operations("fit", width: 90, height: 90, type: "png"), wide)
            expectPicture(png, "image/png", 90, 30)
            #expect(png.bytes.count > 25 && png.bytes[25] == 6, "RGBA")
            expectPicture(try await post(Self.operations("fit", width: 60, height: 10, type: "png"), wide), "image/png", 30, 10)
            expectPicture(try await post(Self.operations("fit", width: 90, height: 90, type: "webp"), wide), "image/webp", 90, 30)
            expectPicture(try await post(Self.operations("smartcrop", width: 50, height: 50, type: "png"), wide), "image/png", 50, 50)
            let logoPNG = try await post(Self.operations("fit", width: 128, height: 128, type: "png"), logo)
            expectPicture(logoPNG, "image/png", 128, 128)
            #expect(logoPNG.bytes.count > 25 && logoPNG.bytes[25] == 6, "RGBA")
            // The shape Nextcloud sends for SVG and PDF (convert first), on a PNG.
            expectPicture(
                try await post(Self.operations("fit", width: 64, height: 64, type: "png", convert: true), logo), "image/png", 64, 64)
        }
    }

    @Test func badOperationsAre400NamingTheProblem() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let app = try fixture.service(maxUpload: 4 << 20).application(host: "127.0.0.1", port: 0)
        let body = try photo(fixture)
        try await app.test(.router) { client in
            func post(_ uri: String) async throws -> TestResponse {
                try await client.execute(uri: uri, method: .post, body: body)
            }
            let cases: [(String, String)] = [
                ("/pipeline", "the operations parameter is required (a JSON list of imaginary operations)"),
                (Self.uri("{\"operation\":\"fit\"}"), "operations must be a JSON list of {\\\"operation\\\":…,\\\"params\\\":{…}} objects"),
                (Self.uri("[{\"operation\":\"fit\""), "operations must be a JSON list of {\\\"operation\\\":…,\\\"params\\\":{…}} objects"),
                (
                    Self.uri("[{\"operation\":\"blur\",\"params\":{\"sigma\":2}}]"),
                    "operation blur is not supported (only autorotate, convert, fit, crop and smartcrop)"
                ),
                (
                    Self.uri("[{\"operation\":\"fit\",\"params\":{\"width\":\"wide\",\"height\":10}}]"),
                    "operation fit: width must be a whole number at least 1, not \\\"wide\\\""
                ),
                (
                    Self.uri("[{\"operation\":\"fit\",\"params\":{\"width\":0,\"height\":10}}]"),
                    "operation fit: width must be a whole number at least 1, not 0"
                ),
                (Self.uri("[{\"operation\":\"fit\",\"params\":{\"width\":10}}]"), "operation fit: width and height are required"),
                (
                    Self.uri("[{\"operation\":\"fit\",\"params\":{\"width\":10,\"height\":10,\"gravity\":\"north\"}}]"),
                    "operation fit: unknown parameter gravity"
                ),
                (
                    Self.uri("[{\"operation\":\"fit\",\"params\":{\"width\":10,\"height\":10,\"type\":\"gif\"}}]"),
                    "operation fit: type must be jpeg, png, webp, avif or auto, not gif"
                ),
                (
                    Self.uri("[{\"operation\":\"fit\",\"params\":{\"width\":10,\"height\":10,\"quality\":\"101\"}}]"),
                    "operation fit: quality must be a whole number from 1 to 100, not \\\"101\\\""
                ),
                (
                    Self.uri("[{\"operation\":\"fit\",\"params\":{\"width\":10,\"height\":10,\"stripmeta\":\"yes\"}}]"),
                    "operation fit: stripmeta must be true or false, not \\\"yes\\\""
                ),
                (Self.uri("[{\"operation\":\"autorotate\"}]"), "operations must include one of fit, crop and smartcrop"),
                (
                    Self.uri(
                        Self.operations("fit", width: 9, height: 9, type: "png").dropLast()
                            + ",{\"operation\":\"crop\",\"params\":{\"width\":5}}]"),
                    "operation crop: only one of fit, crop and smartcrop may be given (fit was)"
                ),
            ]
            for (uri, message) in cases {
                let answer = try await post(uri)
                #expect(answer.status == .badRequest, "\(uri)")
                #expect(answer.text == errorBody("invalid-request", message), "\(uri)")
            }
        }
    }

    @Test func uploadLimitsAndMethodsAreTheOtherUploads() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let app = try fixture.service(maxUpload: 1000).application(host: "127.0.0.1", port: 0)
        let ops = Self.operations("fit", width: 64, height: 64, type: "jpeg")
        try await app.test(.router) { client in
            let big = ByteBuffer(repeating: 0x41, count: 5000)
            let declared = try await client.execute(uri: Self.uri(ops), method: .post, headers: [.contentLength: "5000"], body: big)
            #expect(declared.status == .contentTooLarge)
            #expect(declared.text == errorBody("too-large", "upload is over the limit of 1 KB"))
            let streamed = try await client.execute(uri: Self.uri(ops), method: .post, body: big)
            #expect(streamed.status == .contentTooLarge)
            #expect(streamed.text == errorBody("too-large", "upload is over the limit of 1 KB"))
            let get = try await client.execute(uri: Self.uri(ops), method: .get)
            #expect(get.status == .methodNotAllowed)
            #expect(get.headers[.allow] == "POST")
            // Bytes no generator draws: an error (Nextcloud then tries its other providers), not an icon.
            let junk = try await client.execute(uri: Self.uri(ops), method: .post, body: ByteBuffer(repeating: 0x00, count: 900))
            #expect(junk.status == .unprocessableContent, "\(junk.text)")
        }
        // The pixel cap holds.
        let bomb = try Data(contentsOf: URL(fileURLWithPath: fixture.root + "/bomb.jpg"))
        try await fixture.service().application(host: "127.0.0.1", port: 0).test(.router) { client in
            let answer = try await client.execute(uri: Self.uri(ops), method: .post, body: ByteBuffer(bytes: bomb))
            #expect(answer.status == .unprocessableContent)
            #expect(answer.text == errorBody("limit-exceeded", "image is 20000 × 20000 pixels (400 MP), over the limit of 100 MP"))
        }
    }

    @Test func thePlanClampsToTheOutputCapAndReadsStringsAndNumbers() throws {
        let plan = try PipelinePlan(operations: Self.operations("fit", width: 4096, height: 3000, type: "webp"), accept: nil)
        #expect(plan.width == 2048 && plan.height == 2048 && plan.crop == .fit && plan.format == .webp && plan.quality == 80)
        #expect(plan.request == ThumbnailRequest(maxPixelSize: 2048, crop: .fit))
        let numbers = try PipelinePlan(
            operations: "[{\"operation\":\"crop\",\"params\":{\"height\":120,\"quality\":55,\"stripmeta\":true}}]", accept: nil)
        #expect(numbers.width == 120 && numbers.height == 120 && numbers.crop == .fill && numbers.format == nil && numbers.quality == 55)
        let auto = try PipelinePlan(
            operations: "[{\"operation\":\"smartcrop\",\"params\":{\"width\":10,\"height\":30,\"type\":\"auto\"}}]",
            accept: "image/webp,*/*")
        #expect(auto.request == ThumbnailRequest(maxPixelSize: 30, crop: .smart))
        #expect(auto.cropBox.map { [$0.width, $0.height] } == [10, 30])
        #expect(auto.output(for: Bitmap(width: 1, height: 1), inputMediaType: "image/png").format == .webp)
        // No type and no Accept: the input's format when we write it, else PNG or JPEG by alpha.
        let none = try PipelinePlan(operations: "[{\"operation\":\"fit\",\"params\":{\"width\":10,\"height\":30}}]", accept: nil)
        #expect(none.output(for: Bitmap(width: 1, height: 1), inputMediaType: "image/webp").format == .webp)
        #expect(none.output(for: Bitmap(width: 1, height: 1, pixels: [1, 2, 3, 255]), inputMediaType: "image/gif").format == .jpeg)
    }
}

/// Width and height from a JPEG's first SOF marker.
func jpegSize(_ bytes: [UInt8]) -> (Int, Int)? {
    guard bytes.starts(with: [0xFF, 0xD8]) else { return nil }
    var i = 2
    while i + 9 < bytes.count {
        guard bytes[i] == 0xFF else { return nil }
        let marker = bytes[i + 1]
        let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
        if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
            return (Int(bytes[i + 7]) << 8 | Int(bytes[i + 8]), Int(bytes[i + 5]) << 8 | Int(bytes[i + 6]))
        }
        i += 2 + length
    }
    return nil
}

/// Width and height from a WebP's VP8X, VP8 or VP8L header.
func webpSize(_ bytes: [UInt8]) -> (Int, Int)? {
    guard bytes.count >= 30, bytes[0..<4] == Array("RIFF".utf8)[...], bytes[8..<12] == Array("WEBP".utf8)[...] else { return nil }
    func le(_ i: Int, _ n: Int) -> Int { (0..<n).reduce(0) { $0 | Int(bytes[i + $1]) << (8 * $1) } }
    switch String(decoding: bytes[12..<16], as: UTF8.self) {
    case "VP8X": return (le(24, 3) + 1, le(27, 3) + 1)
    case "VP8 ": return (le(26, 2) & 0x3FFF, le(28, 2) & 0x3FFF)
    case "VP8L":
        let bits = le(21, 4)
        return ((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
    default: return nil
    }
}
