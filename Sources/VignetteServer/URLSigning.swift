import Crypto
import Foundation
import Hummingbird
import VignetteCore

/// Signed URLs: with keys configured, a request is served only when its last query parameter
/// `sig` is the HMAC-SHA256 of everything before it, under one of the keys.
///
/// The signed message is the request target exactly as sent (path and query, still
/// percent-encoded) up to `?sig=` or `&sig=`; the signature is base64url without padding.
/// Signing the raw target rather than re-encoding decoded parameters leaves nothing to
/// canonicalize, so signer and server cannot disagree (imgproxy signs its raw path the same
/// way). An upload's body is not signed: the URL decides what work is allowed. Several keys
/// are accepted at once so that a new key can be rolled out before the old one is dropped.
/// The probes (`/healthz`, `/readyz`, `/metrics`) are exempt: orchestrators and Prometheus
/// cannot sign, and they start no generation.
public struct URLSigning: Sendable {
    /// The accepted keys' bytes, in the order of the key file (the first one signs).
    private let keys: [[UInt8]]
    /// Paths served without a signature.
    public static let exemptPaths: Set<String> = ["/healthz", "/readyz", "/metrics"]
    /// Shortest key accepted, in bytes (the HMAC-SHA256 output size).
    public static let minimumKeyBytes = 32

    /// Signing with `keys` (raw bytes each).
    public init(keys: [[UInt8]]) {
        precondition(!keys.isEmpty, "URLSigning needs a key")
        self.keys = keys
    }

    /// The keys of `path`: one per line, blank lines and `#` comments skipped, each at least
    /// 32 bytes.
    ///
    /// - Throws: `VignetteError(.invalidRequest)` naming the file and the line that is wrong.
    public init(keyFile path: String) throws {
        self.init(keys: try KeyFile.read(path, kind: "signing", minimumBytes: Self.minimumKeyBytes))
    }

    /// `target` (a path with its query, as it will be sent) with its signature appended as `sig`.
    public func sign(_ target: String) -> String {
        target + (target.contains("?") ? "&sig=" : "?sig=") + Self.signature(of: target, key: SymmetricKey(data: keys[0]))
    }

    /// The base64url signature of `message` under `key`.
    static func signature(of message: String, key: SymmetricKey) -> String {
        Data(HMAC<SHA256>.authenticationCode(for: Data(message.utf8), using: key)).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// Nothing when `request` may be served; 403 when its signature is missing or wrong.
    /// `alsoExempt`: paths that prove themselves another way (`/pipeline` with its own key).
    func check(_ request: Request, alsoExempt: Set<String> = []) throws {
        if Self.exemptPaths.contains(request.uri.path) || alsoExempt.contains(request.uri.path) { return }
        let target = request.head.path ?? ""
        guard let (message, signature) = Self.split(target) else {
            throw HTTPFailure(.forbidden, code: "forbidden", "this server only answers signed URLs (a sig parameter, last)")
        }
        var base64 = signature.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let code = Data(base64Encoded: base64),
            keys.contains(where: {
                HMAC<SHA256>.isValidAuthenticationCode(code, authenticating: Data(message.utf8), using: SymmetricKey(data: $0))
            })
        else {
            throw HTTPFailure(.forbidden, code: "forbidden", "the URL's signature does not match")
        }
    }

    /// The signed part of `target` and its signature, when `sig` is its last parameter.
    static func split(_ target: String) -> (message: String, signature: String)? {
        for marker in ["&sig=", "?sig="] {
            if let range = target.range(of: marker, options: .backwards) {
                let signature = String(target[range.upperBound...])
                guard !signature.contains("&"), !signature.isEmpty else { return nil }
                return (String(target[..<range.lowerBound]), signature)
            }
        }
        return nil
    }
}
