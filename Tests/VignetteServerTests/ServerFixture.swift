import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import VignetteCache
import VignetteCore
import VignetteGenerators

@testable import VignetteServer

/// A served root in a fresh temporary directory: the fixtures, a file outside the root, and
/// symbolic links that lead out of it.
struct ServerFixture {
    let top: String
    let root: String

    init() throws {
        top = NSTemporaryDirectory() + "vignette-serve-\(UUID().uuidString)"
        root = top + "/root"
        let fm = FileManager.default
        try fm.createDirectory(atPath: root + "/sub", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: top + "/outside", withIntermediateDirectories: true)
        guard let fixtures = Bundle.module.url(forResource: "Fixtures", withExtension: nil) else {
            throw VignetteError(.notFound, "fixtures are missing from the test bundle")
        }
        for name in ["photo.jpg", "bomb.jpg", "basn2c08.png", "notes.txt"] {
            try fm.copyItem(atPath: fixtures.appendingPathComponent(name).path, toPath: root + "/" + name)
        }
        try fm.copyItem(atPath: root + "/notes.txt", toPath: root + "/sub/inner notes.txt")
        try Data("secret\n".utf8).write(to: URL(fileURLWithPath: top + "/outside/secret.txt"))
        try fm.createSymbolicLink(atPath: root + "/etc", withDestinationPath: "/etc")
        try fm.createSymbolicLink(atPath: root + "/link-out.txt", withDestinationPath: top + "/outside/secret.txt")
        try fm.createSymbolicLink(atPath: root + "/link-in.txt", withDestinationPath: "notes.txt")
        try Data("API_TOKEN=hunter2\n".utf8).write(to: URL(fileURLWithPath: root + "/.env"))
        try fm.createDirectory(atPath: root + "/.git", withIntermediateDirectories: true)
        try Data("[core]\n".utf8).write(to: URL(fileURLWithPath: root + "/.git/config"))
        try fm.createSymbolicLink(atPath: root + "/settings.txt", withDestinationPath: ".env")
    }

    /// A service over the root with the built-in generators (plus `extra`, registered last);
    /// `idle` replaces the header timeout (also a kept-alive connection's idle time).
    func service(
        cache: Bool = false, maxUpload: Int = 1 << 20, concurrency: Int = 2, queue: Int = 4, timeout: Double = 30,
        extra: [any Generator] = [], dotfiles: Bool = false, signing: URLSigning? = nil, pipelineKeys: PipelineKeys? = nil,
        idle: Double? = nil
    ) throws -> VignetteService {
        guard let served = ServedRoot(root, servesDotfiles: dotfiles) else { throw VignetteError(.notFound, path: root, "no root") }
        let registry = BuiltInGenerators.makeRegistry()
        for g in extra { registry.register(g) }
        var config = ServerConfiguration(
            root: served, cache: cache ? try ResponseCache(directory: top + "/cache") : nil, maxUploadBytes: maxUpload,
            concurrency: concurrency, queue: queue, timeoutSeconds: timeout, signing: signing)
        config.pipelineKeys = pipelineKeys
        if let idle { config.headerTimeoutSeconds = idle }
        return VignetteService(configuration: config, registry: registry)
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: top)
    }
}

extension TestResponse {
    /// The body as text.
    var text: String { String(buffer: body) }
    /// The body's bytes.
    var bytes: [UInt8] { Array(body.readableBytesView) }
}

/// Width and height from a PNG's IHDR, or nil when `bytes` is not a PNG.
func pngSize(_ bytes: [UInt8]) -> (Int, Int)? {
    guard bytes.count > 24, bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) else { return nil }
    func be(_ i: Int) -> Int { bytes[i..<i + 4].reduce(0) { $0 << 8 | Int($1) } }
    return (be(16), be(20))
}

/// The JSON error body the service sends.
func errorBody(_ code: String, _ message: String) -> String {
    "{\"error\":{\"code\":\"\(code)\",\"message\":\"\(message)\"}}\n"
}

/// A generator for plain text that waits until the test opens its gate: makes "busy" and
/// "slow" deterministic without sleeping.
final class GateGenerator: ThumbnailGenerating, PreviewGenerating, @unchecked Sendable {
    let identifier = "test.gate"
    let supportedTypes = ["public.plain-text"]
    let priority = GeneratorPriority.preferred
    let limits = GeneratorLimits.none
    /// Signalled each time a call starts.
    let entered = DispatchSemaphore(value: 0)
    private let gate = DispatchSemaphore(value: 0)

    /// Lets every waiting and future call through.
    func open() {
        for _ in 0..<16 { gate.signal() }
    }

    /// Waits (at most 300 s, a hang guard) for a call to start, on a Dispatch thread: blocking
    /// one of Swift concurrency's few threads would stall the server under test. The guard is
    /// long because on two cores the request's task may queue behind many blocking tests.
    func waitUntilEntered() async -> Bool {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: self.entered.wait(timeout: .now() + 300) == .success)
            }
        }
    }

    private func pass() {
        entered.signal()
        _ = gate.wait(timeout: .now() + 300)
    }

    func makeThumbnail(for input: GeneratorInput, request: ThumbnailRequest) throws -> GeneratedThumbnail {
        pass()
        return GeneratedThumbnail(bitmap: Bitmap(width: 1, height: 1))
    }

    func makePreview(for input: GeneratorInput, request: PreviewRequest) throws -> TextPreview {
        pass()
        return TextPreview(title: "gate", text: "gate", html: "gate")
    }
}
