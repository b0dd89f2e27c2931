import Testing
import VignetteCore
import VignetteGenerators

@Suite("Plain text previews")
struct PlainTextGeneratorTests {
    @Test func aLongFileIsCutAtTheLineLimitWithAMarkerGivingTheTotal() throws {
        let text = (1...5000).map { "line \($0)" }.joined(separator: "\n") + "\n"
        let (result, generator) = try preview(text, named: "many.txt", request: PreviewRequest(maxBytes: 1 << 20, maxLines: 2000))
        #expect(generator == "text")
        #expect(result.title == "Plain text, ASCII, 5,000 lines")
        let lines = result.text.split(separator: "\n").map(String.init)
        #expect(lines.count == 2001)
        #expect(lines[1999] == "line 2000")
        #expect(lines[2000] == "… cut: showing the first 2,000 of 5,000 lines")
        #expect(result.truncated)
        #expect(result.html.hasSuffix("<p class=\"vignette-cut\">… cut: showing the first 2,000 of 5,000 lines</p>\n"))
    }

    @Test func aLargeFileIsReadOnlyToTheByteLimitAndSaysHowMuchWasShown() throws {
        let text = String(repeating: "0123456789abcdef\n", count: 10_000)  // 170 KB
        let (result, _) = try preview(text, named: "big.txt", request: PreviewRequest(maxBytes: 1000, maxLines: 2000))
        #expect(result.title == "Plain text, ASCII, 59+ lines")
        let lines = result.text.split(separator: "\n").map(String.init)
        #expect(lines.first == "0123456789abcdef")
        #expect(lines.last == "… cut: showing the first 1 KB of 170 KB")
        #expect(result.truncated)
    }

    @Test func bothLimitsTogetherNameTheLinesShownAndTheFileSize() throws {
        let text = String(repeating: "x\n", count: 100_000)
        let (result, _) = try preview(text, named: "both.txt", request: PreviewRequest(maxBytes: 1000, maxLines: 10))
        #expect(result.text.hasSuffix("x\n… cut: showing the first 10 lines of 200 KB"))
    }

    @Test func crAndCRLFFilesAreSplitIntoLinesAndNamedInTheTitle() throws {
        let (crlf, _) = try preview("one\r\ntwo\r\nthree\r\n", named: "dos.txt")
        #expect(crlf.title == "Plain text, ASCII, CRLF line ends, 3 lines")
        #expect(crlf.text == "one\ntwo\nthree")
        let (cr, _) = try preview("one\rtwo\rthree", named: "mac.txt")
        #expect(cr.title == "Plain text, ASCII, CR line ends, 3 lines")
        #expect(cr.text == "one\ntwo\nthree")
    }

    @Test func aFileWithMixedLineEndsSaysSo() throws {
        let (result, _) = try preview(try fixture("text/hanoi.vim"), named: "hanoi.txt")
        #expect(result.title == "Plain text, ASCII, mixed line ends, 72 lines")
        #expect(!result.text.contains("\r"))
    }

    @Test func aOneMegabyteSingleLineIsCutWithAVisibleMarker() throws {
        let text = String(repeating: "abcdefgh", count: 131_072)
        let (result, _) = try preview(text, named: "one-line.txt")
        let lines = result.text.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(lines[0] == String(repeating: "abcdefgh", count: 125) + " … [line cut at 1,000 characters]")
        #expect(lines[1] == "… cut: showing the first 65.5 KB of 1 MB")
        #expect(result.title == "Plain text, ASCII, 1+ lines")
    }

    @Test func theHTMLIsEscapedInPre() throws {
        let (result, _) = try preview("if a < b && c > 'd' then \"e\"\n", named: "x.txt")
        #expect(result.html == "<pre class=\"vignette-text\">if a &lt; b &amp;&amp; c &gt; &#39;d&#39; then &quot;e&quot;</pre>\n")
    }

    @Test func binaryDataNamedAsTextFallsThroughToTheViewer() throws {
        let bytes: [UInt8] = (0..<4096).map { UInt8($0 % 7) }
        let (result, generator) = try preview(bytes, named: "binary.txt")
        #expect(generator == "fallback")
        #expect(result.text.contains("00000000  00 01 02 03 04 05 06 00"))
    }

    @Test func sourceCodeIsTitledByLanguageAndMarkedForHighlighting() throws {
        let (result, generator) = try preview("fn main() {\n    println!(\"<hi>\");\n}\n", named: "main.rs")
        #expect(generator == "source-code")
        #expect(result.title == "Rust source, 3 lines")
        #expect(
            result.html.hasPrefix(
                "<pre class=\"vignette-text\"><code class=\"language-rust\">fn main() {\n    println!(&quot;&lt;hi&gt;&quot;);\n}</code></pre>"
            ))
    }

    @Test func yamlAndTomlAreTitledByFormat() throws {
        let (yaml, g1) = try preview("a: 1\nb:\n  - x\n", named: "c.yaml")
        #expect(g1 == "structured-text")
        #expect(yaml.title == "YAML document, 3 lines")
        let (toml, _) = try preview("[server]\nport = 80\n", named: "c.toml")
        #expect(toml.title == "TOML document, 2 lines")
        #expect(toml.text == "[server]\nport = 80")
    }

    @Test func anXMLPropertyListIsShownAsText() throws {
        let xml = "<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n<dict><key>A</key><string>b</string></dict>\n</plist>\n"
        let (result, generator) = try preview(xml, named: "Info.plist")
        #expect(generator == "structured-text")
        #expect(result.title.hasSuffix("property list, 4 lines"))
        #expect(result.text.hasPrefix("<?xml version=\"1.0\"?>\n<plist"))
    }

    @Test func aBinaryPropertyListGetsASummaryNotGarbage() throws {
        // bplist00 of {"Name": "Vignette", "Count": 3}, written by Python's plistlib.
        let bytes: [UInt8] = [
            0x62, 0x70, 0x6C, 0x69, 0x73, 0x74, 0x30, 0x30, 0xD2, 0x01, 0x02, 0x03, 0x04, 0x54, 0x4E, 0x61,
            0x6D, 0x65, 0x55, 0x43, 0x6F, 0x75, 0x6E, 0x74, 0x58, 0x56, 0x69, 0x67, 0x6E, 0x65, 0x74, 0x74,
            0x65, 0x10, 0x03, 0x08, 0x0D, 0x12, 0x18, 0x21, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x01,
            0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x05, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
            0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x23,
        ]
        let (result, generator) = try preview(bytes, named: "prefs.plist")
        #expect(generator == "structured-text")
        #expect(result.title == "Binary property list, 5 objects")
        #expect(result.text == "Objects:    5\nTop level:  dictionary, 2 entries\n  Name   string \"Vignette\"\n  Count  integer 3")
    }
}
