import Crypto

/// The cache name GLib derives from a file's canonical URI (`FileURI`, escaped like `g_filename_to_uri`).
public enum ThumbnailURI {
    /// The cache file name for `uri`: lower-case hex MD5 of the URI, plus `.png`.
    public static func cacheName(forURI uri: String) -> String {
        let digest = Insecure.MD5.hash(data: Array(uri.utf8))
        return digest.map { byte in
            let s = String(byte, radix: 16)
            return s.count == 1 ? "0" + s : s
        }.joined() + ".png"
    }
}
