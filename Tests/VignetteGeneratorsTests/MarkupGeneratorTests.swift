import Testing
import VignetteCore
import VignetteGenerators

@Suite("HTML and XML previews")
struct MarkupGeneratorTests {
    @Test func theVisibleTextOfHTMLIsExtractedAndTheTitleUsed() throws {
        let source = """
            <!DOCTYPE html><html><head><title>Caf&eacute; &amp; bar</title>
            <style>body { color: red }</style><script>var x = "<p>no</p>";</script></head>
            <body><h1>Menu</h1><p>Coffee&nbsp;&mdash;   2&#8364;<br>Tea &#x2615;</p>
            <ul><li>one</li><li>two</li></ul><!-- hidden --><pre>  a
              b</pre></body></html>
            """
        let (result, generator) = try preview(source, named: "menu.html")
        #expect(generator == "markup")
        #expect(result.title == "HTML document, \"Café & bar\"")
        #expect(result.text == "Menu\nCoffee — 2€\nTea ☕\n• one\n• two\n  a\n  b")
        #expect(result.html.hasPrefix("<pre class=\"vignette-text\"><code class=\"language-html\">&lt;!DOCTYPE html&gt;"))
        #expect(!result.html.contains("<script"))
    }

    @Test func xmlTextIsOneLinePerElementWithCDATAKept() throws {
        let source =
            "<?xml version=\"1.0\"?>\n<rss><channel><title>News</title><item><![CDATA[a & <b>]]></item><!-- c --></channel></rss>\n"
        let (result, generator) = try preview(source, named: "feed.xml")
        #expect(generator == "markup")
        #expect(result.title.hasSuffix(", \"News\""))
        #expect(result.text == "News\na & <b>")
    }

    @Test func aDoctypeWithAnInternalSubsetIsSkippedWholeAndItsEntitiesAreNotExpanded() throws {
        let source = """
            <?xml version="1.0"?>
            <!DOCTYPE l [
              <!-- the subset's own declarations end in ">", and this comment's "don't" has a quote -->
              <!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
              <!ATTLIST l kind CDATA "x>y">
            ]>
            <l><m>&b;</m><m>kept</m></l>
            """
        let (result, _) = try preview(source, named: "laughs.xml")
        #expect(result.text == "&b;\nkept")
    }

    @Test func anXMLFileWithoutTextShowsItsSource() throws {
        let (result, _) = try preview("<?xml version=\"1.0\"?>\n<config><server port=\"80\"/></config>\n", named: "c.xml")
        #expect(result.title == "XML document, 2 lines")
        #expect(result.text == "<?xml version=\"1.0\"?>\n<config><server port=\"80\"/></config>")
    }
}
