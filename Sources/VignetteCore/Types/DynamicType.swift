/// Stable made-up types for tags no declaration claims (`dyn.ext.foo`, `dyn.mime.application_2Fx-foo`).
///
/// The same tag always gives the same identifier, and the identifier decodes back to the tag,
/// so a dynamic type survives a round trip through JSON or a command line.
public enum DynamicType {
    /// The reserved prefix of dynamic identifiers.
    public static let prefix = "dyn."

    /// The dynamic type for an unknown filename extension; conforms to `public.data`.
    public static func forExtension(_ ext: String) -> UniformType {
        let ext = ext.lowercased()
        return UniformType(
            TypeDeclaration(
                identifier: prefix + "ext." + encode(ext), conformsTo: [UniformType.ID.data],
                description: "\(ext.uppercased()) file", extensions: [ext]),
            isDynamic: true)
    }

    /// The dynamic type for an unknown MIME type; `text/*` conforms to `public.plain-text`, the rest to `public.data`.
    public static func forMIME(_ mime: String) -> UniformType {
        let mime = mime.lowercased()
        let parent = mime.hasPrefix("text/") ? UniformType.ID.plainText : UniformType.ID.data
        return UniformType(
            TypeDeclaration(
                identifier: prefix + "mime." + encode(mime), conformsTo: [parent],
                description: mime, mimeTypes: [mime]),
            isDynamic: true)
    }

    /// The single parent of a dynamic type.
    static func parent(of type: UniformType) -> String {
        type.declaration.conformsTo.first ?? UniformType.ID.data
    }

    /// Decodes a `dyn.` identifier back into its type; nil when malformed.
    public static func decode(_ identifier: String) -> UniformType? {
        guard identifier.hasPrefix(prefix) else { return nil }
        let rest = identifier.dropFirst(prefix.count)
        if rest.hasPrefix("ext."), let tag = decodeTag(rest.dropFirst(4)) { return forExtension(tag) }
        if rest.hasPrefix("mime."), let tag = decodeTag(rest.dropFirst(5)) { return forMIME(tag) }
        return nil
    }

    /// Keeps `a-z 0-9 - .`; every other byte becomes `_XX` (upper-case hex).
    static func encode(_ tag: String) -> String {
        var out = ""
        for byte in tag.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                out += "_" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return out
    }

    static func decodeTag(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let b = iterator.next() {
            if b == UInt8(ascii: "_") {
                guard let h = iterator.next(), let l = iterator.next(),
                    let v = UInt8(String(decoding: [h, l], as: UTF8.self), radix: 16)
                else { return nil }
                bytes.append(v)
            } else {
                bytes.append(b)
            }
        }
        guard !bytes.isEmpty else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}
