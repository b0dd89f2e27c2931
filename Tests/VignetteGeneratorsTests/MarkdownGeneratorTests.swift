import Testing
import VignetteCore
import VignetteGenerators

@Suite("Markdown previews")
struct MarkdownGeneratorTests {
    @Test func aHeadingIsRenderedAndNamesTheDocument() throws {
        let (result, generator) = try preview("# First heading\n\nSome *text*.\n", named: "a.md")
        #expect(generator == "markdown")
        #expect(result.title == "Markdown document, \"First heading\"")
        #expect(result.html == "<h1>First heading</h1><p>Some <em>text</em>.</p>")
        #expect(result.text == "# First heading\n\nSome *text*.")
    }

    @Test func scriptsHandlersAndJavascriptLinksAreStripped() throws {
        let source = """
            # T

            [ok](https://example.com)

            <script>alert(1)</script>

            <img src=x onerror=alert(1)><a href="JaVa&#115;cript:alert(2)" onclick="x">link</a>

            <div style="position:fixed" onmouseover="y">kept</div><iframe src="https://e"></iframe>

            <a href="java\tscript:z">tab</a>
            """
        let (result, _) = try preview(source, named: "evil.md")
        let html = result.html.lowercased()
        #expect(!html.contains("<script"))
        #expect(!html.contains("alert(1)"))
        #expect(!html.contains("onerror"))
        #expect(!html.contains("onclick"))
        #expect(!html.contains("onmouseover"))
        #expect(!html.contains("javascript"))
        #expect(!html.contains("<iframe"))
        #expect(!html.contains("style="))
        #expect(result.html.contains("<img src=\"x\"><a>link</a>"))
        #expect(result.html.contains("<div>kept</div>"))
        #expect(result.html.contains("<p><a href=\"https://example.com\">ok</a></p>"))
        #expect(result.html.contains("<a>tab</a>"))
    }

    @Test(.timeLimit(.minutes(1)))
    func aParagraphTagLeftOpenAtTheEndIsShownAsTypedInsteadOfHanging() throws {
        // Ink looped forever on these (the markdown fuzz harness found the first).
        for (source, html) in [
            ("Some notes about <p", "<p>Some notes about &lt;p</p>"),
            ("x\n\n<pre", "<p>x</p><p>&lt;pre</p>"),
            ("# Title\n\nand <P class", "<h1>Title</h1><p>and &lt;P class</p>"),
        ] {
            let (result, generator) = try preview(source, named: "cut.md")
            #expect(generator == "markdown")
            #expect(result.html == html, "\(source)")
            #expect(result.text == source)
        }
    }

    @Test func aMailedPageFetchesNothing() throws {
        let source = """
            ![pixel](https://tracker.example/p.gif)
            <img src="//cdn.example/q.png"><img src=" HTTP://x.example/r.png"><img src="local.png">
            <img srcset="https://a.example/1x.png 1x" src="data:image/png;base64,iVBORw0KGgo=">
            """
        let (result, _) = try preview(source, named: "mail.md")
        let html = result.html.lowercased()
        #expect(!html.contains("tracker.example"))
        #expect(!html.contains("cdn.example"))
        #expect(!html.contains("x.example"))
        #expect(!html.contains("srcset"))
        #expect(result.html.contains(#"<img src="local.png">"#))
        #expect(result.html.contains(#"<img src="data:image/png;base64,iVBORw0KGgo=">"#))
    }

    @Test func codeBlocksKeepTheirLanguageAndEscapedContent() throws {
        let (result, _) = try preview("```html\n<script>x</script>\n```\n", named: "c.md")
        #expect(result.html == "<pre><code class=\"language-html\">&lt;script&gt;x&lt;/script&gt;\n</code></pre>")
        #expect(result.title == "Markdown document, 3 lines")
    }

    @Test(arguments: [">", "[", "![", "- ", "<"])
    func deeplyNestedMarkdownIsShownAsSourceInsteadOfHanging(_ unit: String) throws {
        let source = String(repeating: unit, count: 20_000)
        let (result, generator) = try preview(source, named: "deep.md")
        #expect(generator == "markdown")
        #expect(result.title == "Markdown document, 1 line (too complex to render safely)")
        #expect(result.html.hasPrefix("<pre class=\"vignette-text\"><code class=\"language-markdown\">"))
    }
}
