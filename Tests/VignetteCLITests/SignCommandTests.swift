import Foundation
import Testing

/// `vignette sign`, checked against an independent HMAC (Python's hmac module).
@Suite("vignette sign")
struct SignCommandTests {
    @Test func aSignedURLKeepsItsHostAndEndsWithTheHMACOfPathAndQuery() throws {
        let dir = try CLI.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "# first key signs\n0123456789abcdef0123456789abcdef\nan older key still accepted......\n"
            .write(toFile: dir + "/keys", atomically: true, encoding: .utf8)
        let r = try CLI.run(["sign", "--key-file", dir + "/keys", "http://127.0.0.1:8080/v1/thumbnail?path=a%20b.jpg&size=256"])
        #expect(r.status == 0, "\(r.stderr)")
        let script = """
            import base64, hashlib, hmac
            m = b"/v1/thumbnail?path=a%20b.jpg&size=256"
            d = hmac.new(b"0123456789abcdef0123456789abcdef", m, hashlib.sha256).digest()
            print("http://127.0.0.1:8080" + m.decode() + "&sig=" + base64.urlsafe_b64encode(d).decode().rstrip("="))
            """
        let expected = try CLI.runProgram("/usr/bin/python3", ["-c", script])
        #expect(r.stdout == expected.stdout)
        let bare = try CLI.run(["sign", "--key-file", dir + "/keys", "/view?path=notes.txt"])
        #expect(bare.stdout.hasPrefix("/view?path=notes.txt&sig="))
    }

    @Test func badInputIsNamed() throws {
        let dir = try CLI.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "short\n".write(toFile: dir + "/keys", atomically: true, encoding: .utf8)
        let short = try CLI.run(["sign", "--key-file", dir + "/keys", "/view?path=a"])
        #expect(short.status == 1)
        #expect(short.stderr == "vignette: \(dir)/keys: the key on line 1 is 5 bytes; signing keys need at least 32\n")
        try "0123456789abcdef0123456789abcdef\n".write(toFile: dir + "/keys", atomically: true, encoding: .utf8)
        let relative = try CLI.run(["sign", "--key-file", dir + "/keys", "view?path=a"])
        #expect(relative.status == 2)
        #expect(relative.stderr.contains("give a URL or a path starting with /, not view?path=a"))
        let twice = try CLI.run(["sign", "--key-file", dir + "/keys", "/view?path=a&sig=abc"])
        #expect(twice.stderr.contains("the URL is signed already: /view?path=a&sig=abc"))
    }
}
