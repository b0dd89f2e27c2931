import Foundation
import VignetteCore

/// A file of secret keys, one per line: blank lines and `#` comments skipped, each key at least
/// a minimum length. Several keys let a new one roll out before the old one is dropped.
enum KeyFile {
    /// The keys of `path`, each at least `minimumBytes` long; `kind` names them in errors
    /// ("signing", "pipeline").
    ///
    /// - Throws: `VignetteError` naming the file and the line that is wrong.
    static func read(_ path: String, kind: String, minimumBytes: Int) throws -> [[UInt8]] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw VignetteError(.notFound, path: path, "cannot read the \(kind) key file")
        }
        var keys: [[UInt8]] = []
        for (index, line) in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let key = line.trimmingCharacters(in: .whitespaces)
            if key.isEmpty || key.hasPrefix("#") { continue }
            guard key.utf8.count >= minimumBytes else {
                throw VignetteError(
                    .invalidRequest, path: path,
                    "the key on line \(index + 1) is \(key.utf8.count) bytes; \(kind) keys need at least \(minimumBytes)")
            }
            keys.append(Array(key.utf8))
        }
        guard !keys.isEmpty else { throw VignetteError(.invalidRequest, path: path, "holds no \(kind) key") }
        return keys
    }
}
