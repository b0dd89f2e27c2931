import Crypto
import Foundation

/// The canonical `file://` URI of a local path and the cache name derived from it, as GLib makes them.
///
/// Escaping follows GLib's `g_filename_to_uri`: ASCII letters, digits and
/// `- . _ ~ / ! $ & ' ( ) * + , = : @` are kept; every other byte (space, `# % ; ? [ ] " < > | \ ^ \` { }`,
/// control bytes and every byte of a non-ASCII character) becomes `%XX` in upper case.
public enum ThumbnailURI {
    /// The `file:///…` URI of an absolute path, escaped byte by byte like GLib.
    public static func fileURI(forAbsolutePath path: String) -> String {
        var out = "file://"
        out.reserveCapacity(path.utf8.count + 8)
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(path.utf8.count)
        for byte in path.utf8 {
            if isKept(byte) {
                bytes.append(byte)
            } else {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0xF)])
            }
        }
        out += String(decoding: bytes, as: UTF8.self)
        return out
    }

    /// The cache file name for `uri`: lower-case hex MD5 of the URI, plus `.png`.
    public static func cacheName(forURI uri: String) -> String {
        let digest = Insecure.MD5.hash(data: Array(uri.utf8))
        return digest.map { byte in
            let s = String(byte, radix: 16)
            return s.count == 1 ? "0" + s : s
        }.joined() + ".png"
    }

    /// Whether GLib leaves `byte` as it is in a path.
    static func isKept(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return keptPunctuation.contains(byte)
        }
    }

    private static let keptPunctuation: Set<UInt8> = Set("-._~/!$&'()*+,=:@".utf8)
}
