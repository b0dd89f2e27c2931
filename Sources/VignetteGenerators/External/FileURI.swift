/// `file://` URIs for `%u`, escaped like GLib's `g_filename_to_uri`.
enum FileURI {
    /// Bytes kept as they are; everything else becomes `%XX` (upper case).
    static let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/!$&'()*+,=:@".utf8)

    /// The URI of an absolute path.
    static func string(forPath path: String) -> String {
        var out = "file://"
        for byte in path.utf8 {
            if unreserved.contains(byte) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 0xF, radix: 16, uppercase: true)
            }
        }
        return out
    }
}
