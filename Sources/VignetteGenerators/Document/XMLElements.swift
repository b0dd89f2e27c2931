/// The start tags of a small XML document, in order: local name and attributes.
///
/// Read with `XMLTokenizer`, the bounded reader of Office parts: no DTD (a document with a
/// `<!DOCTYPE` yields the elements before it), only the predefined entities and character
/// references expanded, nesting and element counts capped. Callers cap the document's size
/// before parsing. A malformed document yields the elements read before the error.
struct XMLElements {
    /// One start tag.
    struct Element {
        /// The element's name without its namespace prefix ("item" for "opf:item").
        let name: String
        /// Attributes by name without prefix (the first of a name wins).
        let attributes: [String: String]
    }

    /// The start tags in document order.
    let elements: [Element]

    /// Parses `bytes`, keeping at most `maxElements` start tags.
    init(_ bytes: [UInt8], maxElements: Int = 10_000) {
        var reader = XMLTokenizer(bytes, part: "XML document")
        var elements: [Element] = []
        while elements.count < maxElements, let event = try? reader.next() {
            guard case .start(let tag) = event else { continue }
            var attributes: [String: String] = [:]
            for attribute in tag.attributes where attributes[attribute.name] == nil { attributes[attribute.name] = attribute.value }
            elements.append(Element(name: tag.name, attributes: attributes))
        }
        self.elements = elements
    }

    /// The elements named `name`.
    func named(_ name: String) -> [Element] { elements.filter { $0.name == name } }
}
