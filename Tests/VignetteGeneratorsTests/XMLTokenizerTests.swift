import Testing
import VignetteCore

@testable import VignetteGenerators

@Suite("XMLTokenizer")
struct XMLTokenizerTests {
    private func events(_ xml: String) throws -> [XMLTokenizer.Event] {
        var reader = XMLTokenizer(Array(xml.utf8), part: "part.xml")
        var out: [XMLTokenizer.Event] = []
        while let event = try reader.next() { out.append(event) }
        return out
    }

    @Test func tagsAttributesAndTextComeOutInOrderWithoutPrefixes() throws {
        let xml =
            "\u{FEFF}<?xml version=\"1.0\"?><!-- c --><w:p a:b='1' c=\"x &amp; y\"><w:t>A&lt;B &#x263A;&#65;</w:t><w:br/><![CDATA[<raw>]]></w:p>"
        #expect(
            try events(xml) == [
                .start(
                    XMLTokenizer.Tag(
                        name: "p",
                        attributes: [
                            XMLTokenizer.Attribute(name: "b", value: "1", prefixed: true),
                            XMLTokenizer.Attribute(name: "c", value: "x & y"),
                        ])),
                .start(XMLTokenizer.Tag(name: "t")), .text("A<B ☺A"), .end("t"),
                .start(XMLTokenizer.Tag(name: "br")), .end("br"),
                .text("<raw>"), .end("p"),
            ])
    }

    @Test func textContentAndSkippingStopAtTheElementsEnd() throws {
        var reader = XMLTokenizer(Array("<a><b>one<i>two</i><e/></b><c>three</c></a>".utf8), part: "part.xml")
        _ = try reader.next()
        _ = try reader.next()
        #expect(try reader.textContent() == "onetwo")
        _ = try reader.next()
        try reader.skipElement()
        #expect(try reader.next() == .end("a"))
        #expect(try reader.next() == nil)
    }

    @Test(arguments: [
        ("<a><b></a>", "part.xml has an end tag </a> that matches no open element"),
        ("<a>", "part.xml ends inside <a>"),
        ("<a x=1/>", "part.xml has an unquoted attribute value in <a>"),
        ("<a>&bogus;</a>", "part.xml uses the undefined entity &bogus; (entities are not expanded)"),
        ("<a>&#xD800;</a>", "part.xml has an invalid character reference &#xD800;"),
        ("<a><!-- never closed", "part.xml ends inside a comment"),
    ])
    func malformedXMLIsCorruptWithThePartNamed(xml: String, message: String) {
        #expect(throws: VignetteError(.corrupt, message)) { try events(xml) }
    }

    @Test func aDoctypeIsRefusedEvenWithoutEntities() {
        #expect(
            throws: VignetteError(
                .refused, "part.xml has a DOCTYPE or other declaration; Office parts have none, and entities are not expanded")
        ) { try events("<!DOCTYPE a><a/>") }
    }
}
