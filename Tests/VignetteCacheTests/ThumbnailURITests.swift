import Testing
import VignetteCache
import VignetteCore

@Suite("ThumbnailURI")
struct ThumbnailURITests {
    // Expected values are what `gio info` (GLib 2.74) printed as `uri:` for files with these names.
    @Test(
        "paths are escaped like g_filename_to_uri",
        arguments: [
            ("/tmp/names/a b", "file:///tmp/names/a%20b"),
            ("/tmp/names/ap'os", "file:///tmp/names/ap'os"),
            ("/tmp/names/br[a]", "file:///tmp/names/br%5Ba%5D"),
            ("/tmp/names/bs\\x", "file:///tmp/names/bs%5Cx"),
            ("/tmp/names/c{u}|^`", "file:///tmp/names/c%7Bu%7D%7C%5E%60"),
            ("/tmp/names/h#x", "file:///tmp/names/h%23x"),
            ("/tmp/names/p%c", "file:///tmp/names/p%25c"),
            ("/tmp/names/q?x", "file:///tmp/names/q%3Fx"),
            ("/tmp/names/quote\"<>", "file:///tmp/names/quote%22%3C%3E"),
            ("/tmp/names/semi;colon", "file:///tmp/names/semi%3Bcolon"),
            ("/tmp/names/x!$&()*+,=:@~", "file:///tmp/names/x!$&()*+,=:@~"),
            ("/tmp/names/é", "file:///tmp/names/%C3%A9"),
            ("/tmp/names/tab\tnew\nline", "file:///tmp/names/tab%09new%0Aline"),
        ])
    func escapesLikeGLib(path: String, uri: String) {
        #expect(FileURI.string(forAbsolutePath: path) == uri)
    }

    @Test("the cache name is the lower-case MD5 of the URI (the spec's own example)")
    func cacheNameIsMD5OfURI() {
        #expect(ThumbnailURI.cacheName(forURI: "file:///home/jens/photos/me.png") == "c6ee772d9e49320e97ec29a7eb5b1697.png")
    }

    @Test("relative paths are made absolute without resolving links")
    func absolutePaths() {
        #expect(SourceFile.absolute("/a/./b//c/../d") == "/a/b/d")
        #expect(SourceFile.absolute("/..") == "/")
    }
}
