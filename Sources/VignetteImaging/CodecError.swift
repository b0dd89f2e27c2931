import CVignetteCodecs
import VignetteCore

/// Maps the C shim's error reports to `VignetteError`.
enum CodecError {
    /// A `VignetteError` for a failed shim call on a `format` file ("JPEG", "PNG").
    static func make(_ err: vgn_error, format: String) -> VignetteError {
        let message = text(err.message)
        switch Int32(err.code) {
        case VGN_E_UNSUPPORTED.rawValue:
            return VignetteError(.unsupported, "unsupported \(format): \(message)")
        case VGN_E_TRUNCATED.rawValue:
            return VignetteError(.corrupt, "truncated \(format): \(message)")
        case VGN_E_LIMIT.rawValue:
            return VignetteError(.refused, "\(format) over a decoder limit: \(message)")
        case VGN_E_NOMEM.rawValue:
            return VignetteError(.refused, "out of memory decoding \(format)")
        case VGN_E_STATE.rawValue:
            return VignetteError(.invalidRequest, "\(format) decoder misuse: \(message)")
        default:
            return VignetteError(.corrupt, "corrupt \(format): \(message)")
        }
    }

    /// The first warning of a report, if any.
    static func warning(_ err: vgn_error) -> String? {
        err.warning_count > 0 ? text(err.warning) : nil
    }

    static func text<T>(_ tuple: T) -> String {
        withUnsafeBytes(of: tuple) { raw in
            let bytes = raw.prefix { $0 != 0 }
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}
