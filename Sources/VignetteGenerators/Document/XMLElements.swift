import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The start tags of a small XML document, in order: local name and attributes.
///
/// External entities are never resolved; callers cap the document's size before parsing.
/// A malformed document yields the elements read before the error.
struct XMLElements {
    /// One start tag.
    struct Element {
        /// The element's name without its namespace prefix ("item" for "opf:item").
        let name: String
        /// Attributes by name without prefix.
        let attributes: [String: String]
    }

    /// The start tags in document order.
    let elements: [Element]

    /// Parses `bytes`, keeping at most `maxElements` start tags.
    init(_ bytes: [UInt8], maxElements: Int = 10_000) {
        let collector = Collector(maxElements: maxElements)
        let parser = XMLParser(data: Data(bytes))
        parser.shouldResolveExternalEntities = false
        parser.delegate = collector
        _ = parser.parse()
        elements = collector.elements
    }

    /// The elements named `name`.
    func named(_ name: String) -> [Element] { elements.filter { $0.name == name } }

    private final class Collector: NSObject, XMLParserDelegate {
        let maxElements: Int
        var elements: [Element] = []

        init(maxElements: Int) { self.maxElements = maxElements }

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName qName: String?,
            attributes attributeDict: [String: String] = [:]
        ) {
            guard elements.count < maxElements else {
                parser.abortParsing()
                return
            }
            var attributes: [String: String] = [:]
            for (key, value) in attributeDict { attributes[Collector.local(key)] = value }
            elements.append(Element(name: Collector.local(elementName), attributes: attributes))
        }

        static func local(_ name: String) -> String {
            name.split(separator: ":").last.map(String.init) ?? name
        }
    }
}
