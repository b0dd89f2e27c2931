import Testing
import VignetteCore
import VignetteGenerators

@Suite("JSON previews")
struct JSONGeneratorTests {
    @Test func validJSONIsPrettyPrintedWithKeysInTheirOrder() throws {
        let (result, generator) = try preview(
            "{\"zeta\":1,\"alpha\":[true,null,{}],\"mid\":{\"s\":\"a\\\"b\",\"n\":-1.5e3},\"e\":[]}", named: "x.json")
        #expect(generator == "json")
        #expect(result.title == "JSON object, 4 keys")
        #expect(
            result.text == """
                {
                  "zeta": 1,
                  "alpha": [
                    true,
                    null,
                    {}
                  ],
                  "mid": {
                    "s": "a\\"b",
                    "n": -1.5e3
                  },
                  "e": []
                }
                """)
        #expect(result.html.hasPrefix("<pre class=\"vignette-text\"><code class=\"language-json\">{\n  &quot;zeta&quot;: 1,"))
    }

    @Test func invalidJSONIsShownAsWrittenWithTheErrorPosition() throws {
        let source = "{\n  \"a\": 1,\n    }\n"
        let (result, _) = try preview(source, named: "bad.json")
        #expect(result.title == "JSON (invalid: unexpected \"}\" at line 3, column 5)")
        #expect(result.text == "… invalid JSON: unexpected \"}\" at line 3, column 5\n{\n  \"a\": 1,\n    }")
        #expect(result.html.hasPrefix("<p class=\"vignette-error\">… invalid JSON: unexpected &quot;}&quot; at line 3, column 5</p>\n"))
    }

    @Test(arguments: [
        ("[1, 2", "JSON (invalid: unexpected end of input at line 1, column 6)"),
        ("{\"a\" 1}", "JSON (invalid: unexpected \"1\" at line 1, column 6)"),
        ("[01]", "JSON (invalid: invalid number at line 1, column 2)"),
        ("\"abc", "JSON (invalid: unterminated string at line 1, column 1)"),
        ("[\"é\", x]", "JSON (invalid: unexpected \"x\" at line 1, column 7)"),
        (" \n", "JSON (invalid: unexpected end of input at line 2, column 1)"),
    ])
    func eachKindOfErrorIsNamedWithItsPosition(_ source: String, _ title: String) throws {
        let (result, _) = try preview(source, named: "bad.json")
        #expect(result.title == title)
    }

    @Test func hostileNestingIsShownAsTextWithoutOverflowingTheStack() throws {
        let source = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let (result, generator) = try preview(source, named: "deep.json", request: PreviewRequest(maxBytes: 1 << 20))
        #expect(generator == "json")
        #expect(result.title == "JSON (not formatted: nesting deeper than 256 levels at line 1, column 257)")
        #expect(result.text.hasPrefix("… JSON not formatted: nesting deeper than 256 levels at line 1, column 257\n[[[["))
    }

    @Test func aJSONFileCutAtTheByteLimitIsPrintedAsFarAsItGoes() throws {
        let source = "[" + (1...1000).map(String.init).joined(separator: ",") + "]"
        let (result, _) = try preview(source, named: "long.json", request: PreviewRequest(maxBytes: 20, maxLines: 2000))
        #expect(result.title == "JSON array, first 20 bytes of 3.9 KB")
        #expect(result.text == "[\n  1,\n  2,\n  3,\n  4,\n  5,\n  6,\n  7,\n  8,\n  9,\n… cut: showing the first 20 bytes of 3.9 KB")
    }

    @Test func prettyPrintedOutputIsCutAtTheLineLimit() throws {
        let source = "[" + (1...100).map(String.init).joined(separator: ",") + "]"
        let (result, _) = try preview(source, named: "many.json", request: PreviewRequest(maxLines: 5))
        #expect(result.title == "JSON array, 100 items")
        #expect(result.text == "[\n  1,\n  2,\n  3,\n  4,\n… cut: showing the first 5 of 102 lines")
    }
}
