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
        if let e = error as? VignetteError { return presented(e).description }
        return "\(error)"
    }

    /// `error` as the user should read it: about a name that is not UTF-8, the real reason; an empty name as `''`.
    static func presented(_ error: VignetteError) -> VignetteError {
        // An empty name would print as "vignette: : no such file or directory"; quoted as ls does.
        if error.path == "" { return VignetteError(error.code, path: "''", error.reason) }
        // Swift repaired the argument's bytes into another name, which is then not found.
        guard let path = error.path, let shown = UndecodableArguments.shown[path] else { return error }
        return VignetteError(.unsupported, path: shown, "the file name is not valid UTF-8")
    }

    /// `{"code": …, "message": …}` for JSON output.
    static func jsonObject(_ error: any Error) -> [String: Any] {
        if let e = error as? VignetteError {
            let shown = presented(e)
            return ["code": shown.code.rawValue, "message": shown.description]
        }
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

/// The command-line arguments that are not valid UTF-8, by the name Swift made of each.
///
/// `CommandLine.arguments` replaces each bad byte with U+FFFD, which names another file (usually
/// none): "no such file or directory" would be wrong about a file that is there.
enum UndecodableArguments {
    /// The repaired argument and how messages show the original (`bad\xFFname.jpg`).
    static let shown: [String: String] = {
        var found: [String: String] = [:]
        for index in 0..<Int(CommandLine.argc) {
            guard let argument = CommandLine.unsafeArgv[index] else { continue }
            let bytes = Array(UnsafeRawBufferPointer(start: argument, count: strlen(argument)))
            if String(validating: bytes, as: UTF8.self) == nil {
                found[String(decoding: bytes, as: UTF8.self)] = UndecodableName.shown(bytes)
            }
        }
        return found
    }()
}
