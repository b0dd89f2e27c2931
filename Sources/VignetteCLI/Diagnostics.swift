import ArgumentParser
import Foundation
import VignetteCore

/// Error lines on stderr, one per failure, always `vignette: PATH: REASON`.
enum Diagnostics {
    /// Writes one line for `error` to stderr.
    static func report(_ error: any Error) {
        FileHandle.standardError.write(Data(("vignette: " + message(error) + "\n").utf8))
    }

    /// Writes a warning about `path` (the work still succeeded, perhaps only partly).
    static func warn(path: String, _ text: String) {
        FileHandle.standardError.write(Data("vignette: \(path): warning: \(text)\n".utf8))
    }

    /// The user-facing text of an error.
    static func message(_ error: any Error) -> String {
        if let e = error as? VignetteError { return e.description }
        return "\(error)"
    }

    /// `{"code": …, "message": …}` for JSON output.
    static func jsonObject(_ error: any Error) -> [String: Any] {
        if let e = error as? VignetteError { return ["code": e.code.rawValue, "message": e.description] }
        return ["code": "internal", "message": "\(error)"]
    }
}

/// Buffered standard output: one write per 64 KiB instead of one per line.
final class OutputBuffer {
    private var buffer: [UInt8] = []

    func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    func flush() {
        guard !buffer.isEmpty else { return }
        FileHandle.standardOutput.write(Data(buffer))
        buffer.removeAll(keepingCapacity: true)
    }
}

/// Stable, pretty JSON text from Foundation objects.
enum JSONOutput {
    static func string(_ object: Any) -> String {
        guard
            let data = try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        else { return "null" }
        return String(decoding: data, as: UTF8.self)
    }
}
