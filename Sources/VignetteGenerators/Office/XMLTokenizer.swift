import Glibc
import VignetteCore

/// A bounded pull reader over one XML part of an Office file: start tags, end tags and text.
///
/// It knows no DTD: a `<!DOCTYPE` is refused (Office parts never have one, and an entity bomb
/// needs one), and only the five predefined entities and character references are expanded.
/// Nesting deeper than `maxDepth` and more than `maxElements` elements are refused before the
/// work they would cost. Names are reported without their namespace prefix (`w:p` is `p`):
/// Office writers use fixed prefixes, and the local names do not collide where it matters.
struct XMLTokenizer {
    /// One event of the stream.
    enum Event: Equatable {
        /// A start tag; an empty-element tag (`<a/>`) is reported as a start and an end.
        case start(Tag)
        /// An end tag, by local name.
        case end(String)
        /// Character data (CDATA included), entities expanded.
        case text(String)
    }

    /// A start tag: its local name and attributes (local names too).
    struct Tag: Equatable {
        /// The name after any `prefix:`.
        var name: String
        /// The attributes in document order, names without prefix.
        var attributes: [Attribute] = []

        /// The value of the first attribute with local name `name`.
        func attribute(_ name: String) -> String? {
            attributes.first { $0.name == name }?.value
        }

        /// The value of the first attribute with local name `name` and a namespace prefix
        /// (`r:id`, where `<p:sldId id="256" r:id="rId2"/>` has both).
        func prefixedAttribute(_ name: String) -> String? {
            attributes.first { $0.name == name && $0.prefixed }?.value
        }
    }

    /// One attribute of a tag.
    struct Attribute: Equatable {
        /// The local name.
        var name: String
        /// The value, entities expanded.
        var value: String
        /// Whether the name had a namespace prefix.
        var prefixed = false
    }

    /// Deepest nesting accepted.
    static let maxDepth = 256
    /// Most elements read from one part.
    static let maxElements = 2_000_000

    /// The part's name, for error messages (`word/document.xml`).
    let part: String
    private let bytes: [UInt8]
    private var i = 0
    private var open: [ArraySlice<UInt8>] = []
    private var pendingEnd: String? = nil
    private var elements = 0

    /// Whether `bytes` is only the start of the part: it ends after its last complete tag, and
    /// elements still open there end quietly.
    let isPartial: Bool

    /// A reader over `bytes`, the contents of `part` (or, when `partial`, its start).
    init(_ bytes: [UInt8], part: String, partial: Bool = false) {
        self.bytes = partial ? Array(bytes[..<((Self.findLast(UInt8(ascii: ">"), in: bytes) ?? -1) + 1)]) : bytes
        self.part = part
        isPartial = partial
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
    }

    /// How deep the reader is: the number of open elements (an empty-element tag is open
    /// from its start event to its end event).
    var depth: Int { open.count }

    /// The next event, or nil at the end of the part.
    mutating func next() throws -> Event? {
        if let name = pendingEnd {
            pendingEnd = nil
            open.removeLast()
            return .end(name)
        }
        while i < bytes.count {
            if bytes[i] != UInt8(ascii: "<") { return .text(try characterData()) }
            if has("</") { return try endTag() }
            if has("<?") {
                try skip(past: "?>", what: "processing instruction")
            } else if has("<!--") {
                try skip(past: "-->", what: "comment")
            } else if has("<![CDATA[") {
                let start = i + 9
                try skip(past: "]]>", what: "CDATA section")
                return .text(String(decoding: bytes[start..<(i - 3)], as: UTF8.self))
            } else if has("<!") {
                throw VignetteError(
                    .refused, "\(part) has a DOCTYPE or other declaration; Office parts have none, and entities are not expanded")
            } else {
                return try startTag()
            }
        }
        if let last = open.last, !isPartial {
            throw VignetteError(.corrupt, "\(part) ends inside <\(String(decoding: last, as: UTF8.self))>")
        }
        return nil
    }

    /// Reads past the end of the element just started, ignoring its content.
    mutating func skipElement() throws {
        let target = depth - 1
        while depth > target, try next() != nil {}
    }

    /// Reads on until the element open at depth `depth` (1 is the root) has ended.
    mutating func skip(toDepth depth: Int) throws {
        while self.depth >= depth, try next() != nil {}
    }

    /// The text content of the element just started (all its descendants' text), up to its end.
    mutating func textContent(limit: Int = 4096) throws -> String {
        let target = depth - 1
        var out = ""
        while depth > target, let event = try next() {
            if case .text(let text) = event, out.utf8.count < limit { out += text }
        }
        return out
    }

    /// Whether the bytes at the reading position start with `prefix`.
    private func has(_ prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard i + count <= bytes.count else { return false }
        return prefix.withUTF8Buffer { p in (0..<count).allSatisfy { bytes[i + $0] == p[$0] } }
    }

    /// Moves past the next `terminator` (of a comment, CDATA section or processing instruction).
    private mutating func skip(past terminator: StaticString, what: String) throws {
        let t = terminator.withUTF8Buffer { Array($0) }
        var j = i + 2
        while let at = Self.find(t[0], in: bytes, from: j) {
            if at + t.count <= bytes.count, bytes[at..<(at + t.count)].elementsEqual(t) {
                i = at + t.count
                return
            }
            j = at + 1
        }
        throw VignetteError(.corrupt, "\(part) ends inside a \(what)")
    }

    /// The index of the first `byte` at or after `start` (memchr: long text and comments are
    /// scanned at C speed even in debug builds).
    private static func find(_ byte: UInt8, in bytes: [UInt8], from start: Int, to end: Int? = nil) -> Int? {
        let end = min(end ?? bytes.count, bytes.count)
        guard start < end else { return nil }
        return bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, let hit = memchr(base + start, Int32(byte), end - start) else { return nil }
            return UnsafeRawPointer(hit) - UnsafeRawPointer(base)
        }
    }

    /// The index of the last `byte` in `bytes`: memchr over windows from the end, since a
    /// partial part's last `>` is near its end (and a part without one is scanned at C speed).
    private static func findLast(_ byte: UInt8, in bytes: [UInt8]) -> Int? {
        var end = bytes.count
        while end > 0 {
            let start = max(0, end - (64 << 10))
            var last: Int? = nil
            var from = start
            while let hit = find(byte, in: bytes, from: from, to: end) {
                last = hit
                from = hit + 1
            }
            if let last { return last }
            end = start
        }
        return nil
    }

    /// Whether `b` is XML whitespace.
    private static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x09 || b == 0x0D }

    /// Whether `b` can be part of a name (anything but whitespace and the markup delimiters).
    private static func isNameByte(_ b: UInt8) -> Bool {
        !isSpace(b) && b != UInt8(ascii: ">") && b != UInt8(ascii: "/") && b != UInt8(ascii: "=") && b != UInt8(ascii: "<")
    }

    /// `name` without its `prefix:`.
    private static func localName(_ name: ArraySlice<UInt8>) -> String {
        let start = name.lastIndex(of: UInt8(ascii: ":")).map { $0 + 1 } ?? name.startIndex
        return String(decoding: name[start...], as: UTF8.self)
    }

    /// The name at the reading position, which must not be empty.
    private mutating func name() throws -> ArraySlice<UInt8> {
        let start = i
        while i < bytes.count, Self.isNameByte(bytes[i]) { i += 1 }
        guard i > start else { throw VignetteError(.corrupt, "\(part) has a tag without a name at byte \(start)") }
        return bytes[start..<i]
    }

    /// Moves past whitespace.
    private mutating func skipSpace() {
        while i < bytes.count, Self.isSpace(bytes[i]) { i += 1 }
    }

    /// Reads a start or empty-element tag, counting it against the element and depth caps.
    private mutating func startTag() throws -> Event {
        i += 1
        let qualified = try name()
        var tag = Tag(name: Self.localName(qualified))
        while true {
            skipSpace()
            guard i < bytes.count else { throw VignetteError(.corrupt, "\(part) ends inside <\(tag.name)>") }
            if bytes[i] == UInt8(ascii: ">") {
                i += 1
                break
            }
            if bytes[i] == UInt8(ascii: "/"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: ">") {
                i += 2
                pendingEnd = tag.name
                break
            }
            let attributeName = try name()
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "=") else {
                throw VignetteError(.corrupt, "\(part) has an attribute without a value in <\(tag.name)>")
            }
            i += 1
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "'") else {
                throw VignetteError(.corrupt, "\(part) has an unquoted attribute value in <\(tag.name)>")
            }
            let quote = bytes[i]
            let start = i + 1
            guard let end = bytes[start...].firstIndex(of: quote) else {
                throw VignetteError(.corrupt, "\(part) ends inside an attribute value")
            }
            i = end + 1
            let value = try expand(bytes[start..<end])
            tag.attributes.append(
                Attribute(name: Self.localName(attributeName), value: value, prefixed: attributeName.contains(UInt8(ascii: ":"))))
        }
        elements += 1
        if elements > Self.maxElements {
            throw VignetteError(.refused, "\(part) has more than \(CountText.grouped(Self.maxElements)) elements")
        }
        guard open.count < Self.maxDepth else {
            throw VignetteError(.refused, "\(part) nests deeper than \(Self.maxDepth) elements")
        }
        open.append(qualified)
        return .start(tag)
    }

    /// Reads an end tag, which must close the innermost open element.
    private mutating func endTag() throws -> Event {
        i += 2
        let qualified = try name()
        skipSpace()
        guard i < bytes.count, bytes[i] == UInt8(ascii: ">") else {
            throw VignetteError(.corrupt, "\(part) has a malformed end tag </\(Self.localName(qualified))>")
        }
        i += 1
        guard let last = open.popLast(), last.elementsEqual(qualified) else {
            throw VignetteError(.corrupt, "\(part) has an end tag </\(Self.localName(qualified))> that matches no open element")
        }
        return .end(Self.localName(qualified))
    }

    /// Reads text up to the next `<`.
    private mutating func characterData() throws -> String {
        let start = i
        i = Self.find(UInt8(ascii: "<"), in: bytes, from: i) ?? bytes.count
        return try expand(bytes[start..<i])
    }

    /// `raw` with the predefined entities and character references replaced; any other
    /// entity is an error (there is no DTD to define one).
    private func expand(_ raw: ArraySlice<UInt8>) throws -> String {
        let hasEntity = raw.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.map { memchr($0, Int32(UInt8(ascii: "&")), buffer.count) != nil } ?? false
        }
        guard hasEntity else { return String(decoding: raw, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var j = raw.startIndex
        while j < raw.endIndex {
            let b = raw[j]
            guard b == UInt8(ascii: "&") else {
                out.append(b)
                j += 1
                continue
            }
            guard let semicolon = raw[j...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else {
                throw VignetteError(.corrupt, "\(part) has a bare & at byte \(j)")
            }
            let entity = String(decoding: raw[(j + 1)..<semicolon], as: UTF8.self)
            out += Array(try Self.character(entity, part: part).utf8)
            j = semicolon + 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func character(_ entity: String, part: String) throws -> String {
        switch entity {
        case "lt": return "<"
        case "gt": return ">"
        case "amp": return "&"
        case "quot": return "\""
        case "apos": return "'"
        default:
            var digits = Substring(entity)
            var radix = 10
            guard digits.first == "#" else {
                throw VignetteError(.corrupt, "\(part) uses the undefined entity &\(entity); (entities are not expanded)")
            }
            digits = digits.dropFirst()
            if digits.first == "x" || digits.first == "X" {
                radix = 16
                digits = digits.dropFirst()
            }
            guard let value = UInt32(digits, radix: radix), let scalar = Unicode.Scalar(value) else {
                throw VignetteError(.corrupt, "\(part) has an invalid character reference &\(entity);")
            }
            return String(Character(scalar))
        }
    }
}
