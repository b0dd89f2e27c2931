import Crypto
import Foundation
import VignetteCore

/// The keys `POST /pipeline` accepts in its `key` parameter: Nextcloud's
/// `preview_imaginary_key`, as imaginary's `-key` checks it.
///
/// Nextcloud cannot sign URLs, so with these keys `/pipeline` is exempt from URL signing and
/// proves itself with the key instead. Keys are compared in constant time.
public struct PipelineKeys: Sendable {
    /// The accepted keys' bytes.
    private let keys: [[UInt8]]
    /// Shortest key accepted, in bytes.
    public static let minimumKeyBytes = 16

    /// Accepting `keys` (raw bytes each).
    public init(keys: [[UInt8]]) {
        precondition(!keys.isEmpty, "PipelineKeys needs a key")
        self.keys = keys
    }

    /// The keys of `path`: one per line, blank lines and `#` comments skipped, each at least 16 bytes.
    ///
    /// - Throws: `VignetteError` naming the file and the line that is wrong.
    public init(keyFile path: String) throws {
        self.init(keys: try KeyFile.read(path, kind: "pipeline", minimumBytes: Self.minimumKeyBytes))
    }

    /// Whether `given` is one of the keys.
    func accepts(_ given: String?) -> Bool {
        guard let given else { return false }
        // HMAC both sides under a fresh key: equal inputs give equal codes, and comparing the
        // codes takes the same time wherever the inputs differ.
        let nonce = SymmetricKey(size: .bits256)
        let code = HMAC<SHA256>.authenticationCode(for: Data(given.utf8), using: nonce)
        return keys.contains { HMAC<SHA256>.isValidAuthenticationCode(code, authenticating: Data($0), using: nonce) }
    }
}
