import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import VignetteCache
import VignetteCore

extension VignetteService {
    /// The JSON error response for `error` (an unexpected error is logged and answered 500).
    func errorResponse(_ error: any Error) -> Response {
        let failure =
            HTTPFailure(error, timeoutSeconds: configuration.timeoutSeconds)
            ?? {
                logger.error("unexpected error", metadata: ["error": "\(error)"])
                return HTTPFailure.internal
            }()
        return Self.json(["error": ["code": failure.code, "message": failure.message]], status: failure.status, headers: failure.headers)
    }

    /// A JSON response (sorted keys, slashes unescaped).
    static func json(_ object: Any, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        let data =
            (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return body(Array(data) + [0x0A], contentType: "application/json", status: status, headers: headers)
    }

    /// A response carrying `bytes`.
    static func body(_ bytes: [UInt8], contentType: String, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        var fields = headers
        fields[.contentType] = contentType
        fields[.contentLength] = String(bytes.count)
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// The query as a dictionary (values decoded once; the first of repeated keys wins).
    static func query(_ request: Request) -> [String: String] {
        var result: [String: String] = [:]
        for (key, value) in request.uri.queryParameters where result[String(key)] == nil {
            result[String(key)] = String(value)
        }
        return result
    }

    /// "30 s", "0.5 s".
    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }

    /// The request's `path` parameter opened below the root (and that parameter, the only path
    /// a response may show), or 404/400.
    func servedFile(_ query: [String: String]) throws -> ServedFile {
        guard let relative = query["path"] else { throw VignetteError(.invalidRequest, "the path parameter is required") }
        guard let opened = configuration.root.open(relative) else { throw HTTPFailure.notFound }
        return ServedFile(opened: opened, relative: relative)
    }

    /// The content key of an opened file (from its descriptor's `fstat`, so it describes the
    /// very file the answer is made from) and the options of the response.
    func key(_ kind: String, file: ServedFile, _ options: [String]) -> ContentKey {
        let f = file.opened
        let facts = [
            String(f.size), "\(f.modified.seconds).\(f.modified.nanoseconds)", String(f.identity.device), String(f.identity.inode),
        ]
        return ContentKey([kind, VignetteVersion.string, f.realPath] + facts + options)
    }

    /// 304 when the request's `If-None-Match` names `key`.
    func notModified(_ request: Request, _ key: ContentKey) -> Response? {
        guard let header = request.headers[.ifNoneMatch], key.matches(ifNoneMatch: header) else { return nil }
        return Response(status: .notModified, headers: [.eTag: key.etag, .cacheControl: cacheControl])
    }

    /// `Cache-Control` for responses about files by path.
    var cacheControl: String { "public, max-age=\(configuration.maxAgeSeconds)" }

    /// A worker slot for an upload, taken before its body is read; when there is none the
    /// answer is 503 and the body is not read at all.
    func reserveForUpload(_ context: VignetteRequestContext) throws -> WorkPool.Reservation {
        do {
            return try pool.reserve()
        } catch {
            context.channel.close(mode: .input, promise: nil)
            throw error
        }
    }

    /// The request body, in a private temporary file (already unlinked) opened for reading,
    /// refused with 413 beyond the upload limit without reading the rest.
    ///
    /// Callers reserve a worker slot first, so bodies are only read for requests that will be
    /// served, and never held in memory: what waits for a worker is on disk.
    func upload(_ request: Request, _ context: VignetteRequestContext, filename: String?) async throws -> OpenedFile {
        let limit = configuration.maxUploadBytes
        let tooLarge = HTTPFailure(.contentTooLarge, code: "too-large", "upload is over the limit of \(ByteCount.text(limit))")
        if let text = request.headers[.contentLength], let length = Int(text), length > limit {
            // Closing the input stops the server from draining a body nobody will use.
            context.channel.close(mode: .input, promise: nil)
            throw tooLarge
        }
        let (fd, path) = try OpenedFile.nameless(purpose: "the upload")
        let name = ((filename ?? "") as NSString).lastPathComponent
        let file = OpenedFile(descriptor: fd, name: name, realPath: path)
        var written = 0
        for try await chunk in request.body {
            written += chunk.readableBytes
            guard written <= limit else {
                context.channel.close(mode: .input, promise: nil)
                throw tooLarge
            }
            let status = chunk.withUnsafeReadableBytes { AtomicFile.writeAll($0, to: fd) }
            guard status == 0 else { throw VignetteError(.io, "cannot keep the upload: \(String(cString: strerror(status)).lowercased())") }
        }
        return file
    }
}

/// A file a request names, opened below the root, with the root-relative path responses show.
struct ServedFile: Sendable {
    /// The open file; everything about the answer is read through it.
    let opened: OpenedFile
    /// The request's path, relative to the root.
    let relative: String
}
