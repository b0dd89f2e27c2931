/// `file://` URIs of local paths, escaped exactly like GLib's `g_filename_to_uri`.
///
/// ASCII letters, digits and `- . _ ~ / ! $ & ' ( ) * + , = : @` are kept; every other byte
/// (space, `# % ; ? [ ] " < > | \ ^ \` { }`, control bytes and every byte of a non-ASCII
/// character) becomes `%XX` in upper case. The freedesktop cache names entries by the MD5 of
/// this string, so one byte escaped differently is a thumbnail the desktop never finds.
public enum FileURI {
    /// The `file:///…` URI of an absolute path.
    public static func string(forAbsolutePath path: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes = Array("file://".utf8)
        bytes.reserveCapacity(path.utf8.count + 8)
        for byte in path.utf8 {
            if isKept(byte) {
                bytes.append(byte)
            } else {
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether GLib leaves `byte` as it is in a path.
    public static func isKept(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            keptPunctuation.contains(byte)
        }
    }

    private static let keptPunctuation: Set<UInt8> = Set("-._~/!$&'()*+,=:@".utf8)
}
