import CVignetteCodecs
import VignetteCore

/// A streaming decoder for one compressed stream (deflate, gzip, bzip2, xz, lzma), over the C shim.
///
/// The caller owns every buffer and decides how much output it accepts in total; errors are
/// `VignetteError`s whose reasons come from the shim ("unexpected end of gzip data").
final class Decompressor {
    /// The compression formats the shim decodes.
    enum Kind: Int32, Sendable {
        /// Raw deflate (zip method 8).
        case deflate = 1
        /// gzip, members concatenated.
        case gzip = 2
        /// bzip2, streams concatenated.
        case bzip2 = 3
        /// xz, streams concatenated.
        case xz = 4
        /// Legacy `.lzma` (LZMA_Alone).
        case lzma = 5
        /// Zstandard, frames concatenated.
        case zstd = 6

        /// The format's usual name ("gzip").
        var name: String {
            switch self {
            case .deflate: "deflate"
            case .gzip: "gzip"
            case .bzip2: "bzip2"
            case .xz: "xz"
            case .lzma: "lzma"
            case .zstd: "zstd"
            }
        }
    }

    /// What one `feed` call did.
    struct Step {
        /// Input bytes used.
        var consumed: Int
        /// Output bytes written.
        var produced: Int
        /// Whether the stream is complete (input after `consumed` is not part of it).
        var ended: Bool
    }

    let kind: Kind
    private let handle: OpaquePointer

    /// Starts a decoder of `kind`.
    init(_ kind: Kind) throws {
        var err = vgn_error()
        guard let handle = vgn_stream_open(kind.rawValue, &err) else {
            throw Decompressor.error(err)
        }
        self.kind = kind
        self.handle = handle
    }

    deinit {
        vgn_stream_close(handle)
    }

    /// Decodes from `input` into `output` (non-empty); `finish` says `input` is the last of it.
    func feed(_ input: UnsafeRawBufferPointer, finish: Bool, into output: UnsafeMutableRawBufferPointer) throws -> Step {
        var err = vgn_error()
        var consumed = 0
        var produced = 0
        let status = vgn_stream_feed(
            handle, input.baseAddress?.assumingMemoryBound(to: UInt8.self), input.count, finish ? 1 : 0,
            output.baseAddress?.assumingMemoryBound(to: UInt8.self), output.count, &consumed, &produced, &err)
        if status < 0 { throw Decompressor.error(err) }
        return Step(consumed: consumed, produced: produced, ended: status == VGN_STREAM_END)
    }

    /// The CRC-32 of `bytes` (zip and gzip polynomial).
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { vgn_crc32(0, $0.baseAddress, $0.count) }
    }

    private static func error(_ err: vgn_error) -> VignetteError {
        let message = withUnsafeBytes(of: err.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        let code: VignetteError.Code
        switch err.code {
        case VGN_E_LIMIT.rawValue: code = .limitExceeded
        case VGN_E_UNSUPPORTED.rawValue: code = .unsupported
        case VGN_E_NOMEM.rawValue, VGN_E_STATE.rawValue, VGN_E_IO.rawValue: code = .io
        default: code = .corrupt
        }
        return VignetteError(code, message)
    }
}
