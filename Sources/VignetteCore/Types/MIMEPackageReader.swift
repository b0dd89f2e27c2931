import Foundation

/// Reads a shared-mime-info package (the freedesktop XML schema) into a `MIMEPackage`.
///
/// A small XML reader of its own, for two reasons: speed (Debian's 2.4 MB
/// `freedesktop.org.xml`, most of it translated comments, is read on every command) and
/// safety (it knows no DTD and expands no entity but the five predefined ones and character
/// references, so an entity bomb is only text). Every limit is checked before the work it
/// bounds: file size, nesting depth, glob length, magic offsets.
public struct MIMEPackageReader {
    /// Larger files are not read (Debian's largest package is 2.4 MB).
    public static let maxFileSize = 16 << 20
    /// Deeper nesting is refused (magic rules nest a few levels).
    static let maxDepth = 64
    /// Longer glob patterns are skipped.
    public static let maxGlobLength = 255
    /// Magic that looks further into a file than this is skipped (`FileSample`'s read cap).
    public static let maxMagicReach = FileSample.maxExtraRead
    /// A type's magic may hold at most this many matches; each costs time on every file.
    static let maxMatchesPerType = 2048

    /// Reads the package at `path`; problems are reported in the result, never thrown.
    public static func read(path: String) -> MIMEPackage {
        var st = stat()
        if stat(path, &st) == 0, Int(st.st_size) > maxFileSize {
            let mb = Double(st.st_size) / 1_048_576
            return MIMEPackage(
                path: path, types: [],
                problems: [
                    VignetteError(
                        .limitExceeded, path: path,
                        "is \(String(format: "%.1f", mb)) MB; MIME packages larger than \(maxFileSize >> 20) MB are not read")
                ])
        }
        // Through FileSample: a FIFO or device named *.xml is refused unopened instead of blocking every command.
        let bytes: [UInt8]
        do {
            bytes = try FileSample.readContents(ofFile: path, limit: maxFileSize)
        } catch let error as VignetteError {
            return MIMEPackage(path: path, types: [], problems: [error])
        } catch {
            return MIMEPackage(path: path, types: [], problems: [VignetteError(.io, path: path, "could not be read")])
        }
        return read(Data(bytes), path: path)
    }

    /// Reads package bytes held in memory; `path` names the file in problems.
    public static func read(bytes: [UInt8], path: String) -> MIMEPackage {
        read(Data(bytes), path: path)
    }

    /// Reads package bytes; `path` names the file in problems.
    static func read(_ data: Data, path: String) -> MIMEPackage {
        if data.count > maxFileSize {
            return MIMEPackage(
                path: path, types: [],
                problems: [VignetteError(.limitExceeded, path: path, "MIME packages larger than \(maxFileSize >> 20) MB are not read")])
        }
        return data.withUnsafeBytes { raw in
            var reader = MIMEPackageReader(bytes: raw, path: path)
            do {
                try reader.parse()
                return MIMEPackage(path: path, types: reader.types, problems: reader.problems)
            } catch let error as VignetteError {
                return MIMEPackage(path: path, types: [], problems: reader.problems + [error])
            } catch {
                return MIMEPackage(path: path, types: [], problems: [VignetteError(.corrupt, path: path, "\(error)")])
            }
        }
    }

    // MARK: State

    private let b: UnsafeRawBufferPointer
    private let path: String
    private var i = 0
    private var lineOffset = 0
    private var lineNumber = 1
    private(set) var types: [MIMEPackage.Definition] = []
    private(set) var problems: [VignetteError] = []

    /// Open elements, innermost last.
    private var stack: [Element] = []
    private var current: MIMEPackage.Definition? = nil
    private var magicPriority = 50
    private var magicLine = 0
    private var magicMatches: [MagicMatch] = []
    /// Matches being built, innermost last; nil for one skipped (its subtree is skipped too).
    private var matchStack: [PendingMatch?] = []
    private var matchCount = 0
    private var commentText: String? = nil
    private var skipDepth: Int? = nil

    private enum Element: Equatable {
        case mimeInfo, mimeType, comment(english: Bool), magic, match, treemagic, other
    }

    private struct PendingMatch {
        var match: MagicMatch
        var line: Int
        var hadChildren = false
    }

    private init(bytes: UnsafeRawBufferPointer, path: String) {
        self.b = bytes
        self.path = path
    }

    // MARK: Problems

    /// The line of byte `offset`; offsets are asked for in increasing order, so this counts forward.
    private mutating func line(at offset: Int) -> Int {
        if offset < lineOffset {
            lineOffset = 0
            lineNumber = 1
        }
        guard let base = b.baseAddress else { return 1 }
        var n = lineNumber
        var k = lineOffset
        while k < offset, let hit = memchr(base + k, 0x0A, offset - k) {
            n += 1
            k = base.distance(to: UnsafeRawPointer(hit)) + 1
        }
        lineOffset = offset
        lineNumber = n
        return n
    }

    private mutating func problem(_ line: Int, _ reason: String, code: VignetteError.Code = .invalidDeclaration) {
        problems.append(VignetteError(code, path: "\(path):\(line)", reason))
    }

    private mutating func malformed(_ reason: String) -> VignetteError {
        VignetteError(.corrupt, path: "\(path):\(line(at: min(i, b.count)))", "not well-formed XML: \(reason); the file was skipped")
    }

    // MARK: Scanning

    private mutating func parse() throws {
        if b.count >= 3, b[0] == 0xEF, b[1] == 0xBB, b[2] == 0xBF { i = 3 }
        while i < b.count {
            if b[i] == UInt8(ascii: "<") {
                try markup()
            } else {
                let start = i
                if let hit = memchr(b.baseAddress! + i, Int32(UInt8(ascii: "<")), b.count - i) {
                    i = b.baseAddress!.distance(to: UnsafeRawPointer(hit))
                } else {
                    i = b.count
                }
                if commentText != nil { commentText! += try decodeText(start, i) }
            }
        }
        if !stack.isEmpty { throw malformed("the file ends before \(stack.count) element(s) are closed") }
    }

    private func has(_ text: StaticString, at offset: Int) -> Bool {
        let n = text.utf8CodeUnitCount
        guard offset + n <= b.count else { return false }
        let p = text.utf8Start
        for k in 0..<n where b[offset + k] != p[k] { return false }
        return true
    }

    private mutating func skip(past terminator: StaticString, what: String) throws {
        let n = terminator.utf8CodeUnitCount
        while i + n <= b.count {
            if has(terminator, at: i) {
                i += n
                return
            }
            i += 1
        }
        throw malformed("unterminated \(what)")
    }

    private mutating func markup() throws {
        if has("<!--", at: i) {
            i += 4
            try skip(past: "-->", what: "comment")
        } else if has("<![CDATA[", at: i) {
            let start = i + 9
            i = start
            try skip(past: "]]>", what: "CDATA section")
            if commentText != nil { commentText! += String(decoding: UnsafeRawBufferPointer(rebasing: b[start..<(i - 3)]), as: UTF8.self) }
        } else if has("<?", at: i) {
            i += 2
            try skip(past: "?>", what: "processing instruction")
        } else if has("<!", at: i) {
            // The DOCTYPE and its internal subset are skipped unread: declared entities are never
            // expanded, so a reference to one is an error, not a bomb.
            var quote: UInt8? = nil
            var inSubset = false
            while i < b.count {
                let c = b[i]
                if let q = quote {
                    if c == q { quote = nil }
                } else if c == UInt8(ascii: "\"") {
                    quote = c
                } else if c == UInt8(ascii: "'") {
                    quote = c
                } else if inSubset, has("<!--", at: i) {
                    i += 4
                    try skip(past: "-->", what: "comment")
                    continue
                } else if c == UInt8(ascii: "[") {
                    inSubset = true
                } else if c == UInt8(ascii: "]") {
                    inSubset = false
                } else if c == UInt8(ascii: ">"), !inSubset {
                    break
                }
                i += 1
            }
            guard i < b.count else { throw malformed("unterminated document type declaration") }
            i += 1
        } else if i + 1 < b.count, b[i + 1] == UInt8(ascii: "/") {
            i += 2
            let name = name()
            skipSpace()
            guard i < b.count, b[i] == UInt8(ascii: ">") else { throw malformed("bad end tag </\(name)") }
            i += 1
            guard !stack.isEmpty else { throw malformed("</\(name)> closes nothing") }
            try end()
        } else {
            try startTag()
        }
    }

    private mutating func skipSpace() {
        while i < b.count, b[i] == 0x20 || b[i] == 0x0A || b[i] == 0x09 || b[i] == 0x0D { i += 1 }
    }

    private static func isNameByte(_ c: UInt8) -> Bool {
        c > 0x7F || (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || (c >= 0x30 && c <= 0x39) || c == 0x2D || c == 0x5F
            || c == 0x2E || c == 0x3A
    }

    /// An element or attribute name, with any namespace prefix dropped.
    private mutating func name() -> String {
        let start = i
        while i < b.count, Self.isNameByte(b[i]) { i += 1 }
        var local = start
        for k in start..<i where b[k] == UInt8(ascii: ":") { local = k + 1 }
        // `xml:lang` keeps its prefix: it is the one prefixed attribute read.
        if local > start, i - start == 8, has("xml:lang", at: start) { local = start }
        return String(decoding: UnsafeRawBufferPointer(rebasing: b[local..<i]), as: UTF8.self)
    }

    private mutating func startTag() throws {
        let tagStart = i
        if stack.last == .mimeType, try skipTranslation() { return }
        i += 1
        let element = name()
        guard !element.isEmpty else { throw malformed("a '<' that starts no element") }
        var attributes: [(String, String)] = []
        var selfClosing = false
        while true {
            skipSpace()
            guard i < b.count else { throw malformed("unterminated <\(element)> tag") }
            if b[i] == UInt8(ascii: ">") {
                i += 1
                break
            }
            if b[i] == UInt8(ascii: "/"), i + 1 < b.count, b[i + 1] == UInt8(ascii: ">") {
                i += 2
                selfClosing = true
                break
            }
            let attribute = name()
            guard !attribute.isEmpty else { throw malformed("bad attribute in <\(element)>") }
            skipSpace()
            guard i < b.count, b[i] == UInt8(ascii: "=") else { throw malformed("attribute \(attribute) has no value") }
            i += 1
            skipSpace()
            guard i < b.count, b[i] == UInt8(ascii: "\"") || b[i] == UInt8(ascii: "'") else {
                throw malformed("attribute \(attribute) is not quoted")
            }
            let quote = b[i]
            i += 1
            let start = i
            while i < b.count, b[i] != quote {
                if b[i] == UInt8(ascii: "<") { throw malformed("'<' in the value of \(attribute)") }
                i += 1
            }
            guard i < b.count else { throw malformed("unterminated value of \(attribute)") }
            attributes.append((attribute, try decodeText(start, i)))
            i += 1
        }
        guard stack.count < Self.maxDepth else { throw malformed("elements nested more than \(Self.maxDepth) deep") }
        try start(element, attributes, offset: tagStart)
        if selfClosing { try end() }
    }

    /// Skips an element with an `xml:lang` attribute (a translated comment or acronym: most of
    /// Debian's package) without building any string; false, with nothing consumed, for others.
    private mutating func skipTranslation() throws -> Bool {
        var k = i + 1
        let nameStart = k
        while k < b.count, Self.isNameByte(b[k]) { k += 1 }
        let nameEnd = k
        var found = false
        var quote: UInt8? = nil
        while k < b.count {
            let c = b[k]
            if let q = quote {
                if c == q { quote = nil }
            } else if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
                quote = c
            } else if c == UInt8(ascii: ">") {
                break
            } else if c == UInt8(ascii: "x"), has("xml:lang", at: k) {
                found = true
            }
            k += 1
        }
        guard found, k < b.count, nameEnd > nameStart else { return false }
        if b[k - 1] == UInt8(ascii: "/") {
            i = k + 1
            return true
        }
        // The end tag is `</name>`; translated text holds no markup.
        k += 1
        let length = nameEnd - nameStart
        let base = b.baseAddress!
        while k + length + 2 < b.count {
            guard let hit = memchr(base + k, Int32(UInt8(ascii: "<")), b.count - k) else { return false }
            k = base.distance(to: UnsafeRawPointer(hit))
            if k + length + 2 < b.count {
                guard b[k + 1] == UInt8(ascii: "/") else { return false }
                var same = true
                for n in 0..<length where b[k + 2 + n] != b[nameStart + n] {
                    same = false
                    break
                }
                guard same, b[k + 2 + length] == UInt8(ascii: ">") else { return false }
                i = k + 3 + length
                return true
            }
            k += 1
        }
        return false
    }

    /// Text between `start` and `end` with entity and character references replaced.
    private mutating func decodeText(_ start: Int, _ end: Int) throws -> String {
        var k = start
        var hasReference = false
        while k < end {
            if b[k] == UInt8(ascii: "&") {
                hasReference = true
                break
            }
            k += 1
        }
        let raw = UnsafeRawBufferPointer(rebasing: b[start..<end])
        guard hasReference else { return String(decoding: raw, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(end - start)
        k = start
        while k < end {
            guard b[k] == UInt8(ascii: "&") else {
                out.append(b[k])
                k += 1
                continue
            }
            var semi = k + 1
            while semi < end, semi - k < 12, b[semi] != UInt8(ascii: ";") { semi += 1 }
            guard semi < end, b[semi] == UInt8(ascii: ";") else { throw malformed("a bare '&'") }
            let entity = String(decoding: UnsafeRawBufferPointer(rebasing: b[(k + 1)..<semi]), as: UTF8.self)
            switch entity {
            case "lt": out.append(UInt8(ascii: "<"))
            case "gt": out.append(UInt8(ascii: ">"))
            case "amp": out.append(UInt8(ascii: "&"))
            case "quot": out.append(UInt8(ascii: "\""))
            case "apos": out.append(UInt8(ascii: "'"))
            default:
                let digits = entity.dropFirst()
                let value: UInt32?
                if entity.hasPrefix("#x") || entity.hasPrefix("#X") {
                    value = UInt32(digits.dropFirst(), radix: 16)
                } else if entity.hasPrefix("#") {
                    value = UInt32(digits)
                } else {
                    throw malformed("unknown entity &\(entity); (entities are not expanded)")
                }
                guard let value, let scalar = Unicode.Scalar(value) else {
                    throw malformed("bad character reference &\(entity);")
                }
                out.append(contentsOf: Array(String(Character(scalar)).utf8))
            }
            k = semi + 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    // MARK: Elements

    private mutating func start(_ element: String, _ attributes: [(String, String)], offset: Int) throws {
        func attribute(_ key: String) -> String? { attributes.first { $0.0 == key }?.1 }
        if skipDepth != nil {
            stack.append(.other)
            return
        }
        let parent = stack.last
        switch (parent, element) {
        case (nil, "mime-info"):
            stack.append(.mimeInfo)
        case (nil, _):
            throw malformed("the root element is <\(element)>, not <mime-info>")
        case (.mimeInfo?, "mime-type"):
            let line = line(at: offset)
            guard let mime = attribute("type"), Self.isMIMEType(mime) else {
                problem(line, "<mime-type> has no valid type attribute (type/subtype); the element was skipped")
                skipSubtree()
                return
            }
            current = MIMEPackage.Definition(mime: mime, line: line)
            stack.append(.mimeType)
        case (.mimeType?, _):
            try typeChild(element, attribute, offset: offset)
        case (.magic?, "match"), (.match?, "match"):
            try matchStart(attribute, offset: offset)
        default:
            stack.append(.other)
        }
    }

    private mutating func skipSubtree() {
        stack.append(.other)
        skipDepth = stack.count
    }

    private mutating func typeChild(_ element: String, _ attribute: (String) -> String?, offset: Int) throws {
        let line = line(at: offset)
        switch element {
        case "comment":
            let english = attribute("xml:lang") == nil
            if english { commentText = "" }
            stack.append(.comment(english: english))
        case "alias":
            if let mime = attribute("type"), Self.isMIMEType(mime) {
                current?.aliases.append(mime)
            } else {
                problem(line, "<alias> has no valid type attribute; skipped")
            }
            stack.append(.other)
        case "sub-class-of":
            if let mime = attribute("type"), Self.isMIMEType(mime) {
                current?.parents.append(.init(value: mime, line: line))
            } else {
                problem(line, "<sub-class-of> has no valid type attribute; skipped")
            }
            stack.append(.other)
        case "glob":
            glob(attribute, line: line)
            stack.append(.other)
        case "glob-deleteall":
            current?.deletesGlobs = true
            stack.append(.other)
        case "magic-deleteall":
            current?.deletesMagic = true
            stack.append(.other)
        case "root-XML":
            if let local = attribute("localName"), !local.isEmpty {
                current?.rootXML.append(.init(namespaceURI: attribute("namespaceURI") ?? "", localName: local))
            } else {
                problem(line, "<root-XML> has no localName; skipped")
            }
            stack.append(.other)
        case "generic-icon":
            if let name = attribute("name"), !name.isEmpty { current?.genericIcon = name }
            stack.append(.other)
        case "magic":
            magicLine = line
            magicMatches = []
            matchStack = []
            if let text = attribute("priority") {
                guard let p = Int(text), (0...100).contains(p) else {
                    problem(line, "magic priority \"\(text)\" is not a number from 0 to 100; the rule was skipped")
                    skipSubtree()
                    return
                }
                magicPriority = p
            } else {
                magicPriority = 50
            }
            stack.append(.magic)
        case "treemagic":
            skipSubtree()
        default:
            stack.append(.other)
        }
    }

    private mutating func glob(_ attribute: (String) -> String?, line: Int) {
        guard let pattern = attribute("pattern"), !pattern.isEmpty else {
            problem(line, "<glob> has no pattern; skipped")
            return
        }
        guard pattern.utf8.count <= Self.maxGlobLength else {
            problem(line, "glob pattern is \(pattern.utf8.count) characters long; at most \(Self.maxGlobLength) are read; skipped")
            return
        }
        if pattern.allSatisfy({ $0 == "*" || $0 == "?" }) {
            problem(line, "glob pattern \"\(pattern)\" matches every name; skipped")
            return
        }
        var weight = 50
        if let text = attribute("weight") {
            guard let w = Int(text), (0...100).contains(w) else {
                problem(line, "glob weight \"\(text)\" is not a number from 0 to 100; skipped")
                return
            }
            weight = w
        }
        let caseSensitive = attribute("case-sensitive") == "true"
        current?.globs.append(.init(pattern: pattern, weight: weight, caseSensitive: caseSensitive, line: line))
    }

    private mutating func matchStart(_ attribute: (String) -> String?, offset: Int) throws {
        let line = line(at: offset)
        if !matchStack.isEmpty, matchStack[matchStack.count - 1] != nil { matchStack[matchStack.count - 1]!.hadChildren = true }
        stack.append(.match)
        if matchStack.contains(where: { $0 == nil }) {
            matchStack.append(nil)
            return
        }
        matchCount += 1
        if matchCount > Self.maxMatchesPerType {
            if matchCount == Self.maxMatchesPerType + 1 {
                problem(line, "more than \(Self.maxMatchesPerType) magic matches for one type; the rest are skipped")
            }
            matchStack.append(nil)
            return
        }
        do {
            let pattern = try Self.pattern(
                type: attribute("type"), value: attribute("value"), offset: attribute("offset"), mask: attribute("mask"))
            matchStack.append(PendingMatch(match: MagicMatch(pattern: pattern), line: line))
        } catch let reason as MatchProblem {
            problem(line, "magic match skipped: \(reason.text)")
            matchStack.append(nil)
        }
    }

    private mutating func end() throws {
        let element = stack.removeLast()
        if let depth = skipDepth {
            if stack.count < depth { skipDepth = nil }
            return
        }
        switch element {
        case .comment(english: true):
            if let text = commentText {
                current?.comment = Self.trimmed(text)
            }
            commentText = nil
        case .match:
            guard let finished = matchStack.popLast() else { return }
            guard let finished else { return }
            // A match whose every child was skipped would match more than its author meant: drop it too.
            if finished.hadChildren, finished.match.children.isEmpty { return }
            if matchStack.isEmpty {
                magicMatches.append(finished.match)
            } else if matchStack[matchStack.count - 1] != nil {
                matchStack[matchStack.count - 1]!.match.children.append(finished.match)
            }
        case .magic:
            let rule = MagicRule(priority: magicPriority, matches: magicMatches)
            if !rule.matches.isEmpty { current?.magic.append(.init(value: rule, line: magicLine)) }
            magicMatches = []
        case .mimeType:
            if let finished = current { types.append(finished) }
            current = nil
            matchCount = 0
        default:
            break
        }
    }

    // MARK: Values

    /// `text` without leading and trailing ASCII white space (Foundation's trimming is slow here).
    static func trimmed(_ text: some StringProtocol) -> String {
        let u = Array(text.utf8)
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x0A || $0 == 0x09 || $0 == 0x0D }
        guard let first = u.firstIndex(where: { !isSpace($0) }), let last = u.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(decoding: u[first...last], as: UTF8.self)
    }

    struct MatchProblem: Error {
        let text: String
    }

    static func isMIMEType(_ text: String) -> Bool {
        var slashes = 0
        var partLength = 0
        var count = 0
        for c in text.utf8 {
            count += 1
            if c == UInt8(ascii: "/") {
                guard partLength > 0 else { return false }
                slashes += 1
                partLength = 0
            } else {
                guard c > 0x20, c < 0x7F, c != UInt8(ascii: ";"), c != UInt8(ascii: "\"") else { return false }
                partLength += 1
            }
        }
        return slashes == 1 && partLength > 0 && count <= 255
    }

    /// The byte pattern a `match` element describes.
    static func pattern(type: String?, value: String?, offset: String?, mask: String?) throws -> BytePattern {
        guard let type else { throw MatchProblem(text: "no type attribute") }
        guard let value else { throw MatchProblem(text: "no value attribute") }
        guard let offset else { throw MatchProblem(text: "no offset attribute") }
        let bounds = offset.split(separator: ":", omittingEmptySubsequences: false)
        guard bounds.count <= 2, let start = Int(trimmed(bounds[0])), start >= 0 else {
            throw MatchProblem(text: "offset \"\(offset)\" is not N or N:M")
        }
        var end = start
        if bounds.count == 2 {
            guard let e = Int(trimmed(bounds[1])), e >= start else {
                throw MatchProblem(text: "offset \"\(offset)\" is not N or N:M with N <= M")
            }
            end = e
        }
        let bytes: [UInt8]
        var maskBytes: [UInt8]? = nil
        switch type {
        case "string":
            bytes = try unescape(value)
            if let mask { maskBytes = try hexMask(mask, count: bytes.count) }
        case "byte", "host16", "host32", "big16", "big32", "little16", "little32":
            let width = type == "byte" ? 1 : (type.hasSuffix("16") ? 2 : 4)
            let bigEndian = type.hasPrefix("big") || (type.hasPrefix("host") && 1.bigEndian == 1)
            bytes = try number(value, width: width, bigEndian: bigEndian)
            if let mask { maskBytes = try number(mask, width: width, bigEndian: bigEndian) }
        default:
            throw MatchProblem(text: "unknown match type \"\(type)\"")
        }
        guard !bytes.isEmpty else { throw MatchProblem(text: "empty value") }
        let reach = end.addingReportingOverflow(bytes.count)
        guard !reach.overflow, reach.partialValue <= maxMagicReach else {
            throw MatchProblem(text: "offset \(offset) looks past the first \(maxMagicReach) bytes of a file")
        }
        return BytePattern(offset: start, bytes: bytes, mask: maskBytes, range: end - start)
    }

    /// A number in C notation (`0x1F`, `017`, `31`) as `width` bytes.
    static func number(_ text: String, width: Int, bigEndian: Bool) throws -> [UInt8] {
        let t = trimmed(text)
        let parsed: UInt64?
        if t.hasPrefix("0x") || t.hasPrefix("0X") {
            parsed = UInt64(t.dropFirst(2), radix: 16)
        } else if t.count > 1, t.hasPrefix("0") {
            parsed = UInt64(t.dropFirst(), radix: 8)
        } else {
            parsed = UInt64(t)
        }
        guard let v = parsed, width == 8 || v < (UInt64(1) << (8 * UInt64(width))) else {
            throw MatchProblem(text: "value \"\(text)\" is not a number that fits \(width) byte(s)")
        }
        var out: [UInt8] = (0..<width).map { UInt8(truncatingIfNeeded: v >> (8 * UInt64($0))) }
        if bigEndian { out.reverse() }
        return out
    }

    /// A string match value with its escapes (`\x1f`, `\0`, `\n`, `\\`, `\ `) replaced.
    static func unescape(_ text: String) throws -> [UInt8] {
        let s = Array(text.utf8)
        var out: [UInt8] = []
        var k = 0
        func hex(_ c: UInt8) -> UInt8? {
            switch c {
            case 0x30...0x39: c - 0x30
            case 0x61...0x66: c - 0x61 + 10
            case 0x41...0x46: c - 0x41 + 10
            default: nil
            }
        }
        while k < s.count {
            guard s[k] == UInt8(ascii: "\\"), k + 1 < s.count else {
                out.append(s[k])
                k += 1
                continue
            }
            let c = s[k + 1]
            k += 2
            switch c {
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "x"):
                var v: UInt8 = 0
                var digits = 0
                while digits < 2, k < s.count, let h = hex(s[k]) {
                    v = v << 4 | h
                    k += 1
                    digits += 1
                }
                guard digits > 0 else { throw MatchProblem(text: "\\x without hex digits in \"\(text)\"") }
                out.append(v)
            case UInt8(ascii: "0")...UInt8(ascii: "7"):
                var v = Int(c - 0x30)
                var digits = 1
                while digits < 3, k < s.count, s[k] >= 0x30, s[k] <= 0x37 {
                    v = v * 8 + Int(s[k] - 0x30)
                    k += 1
                    digits += 1
                }
                guard v <= 255 else { throw MatchProblem(text: "octal escape above \\377 in \"\(text)\"") }
                out.append(UInt8(v))
            default:
                out.append(c)
            }
        }
        return out
    }

    /// A string match's mask: hex digits (`0xFFFF00`), one byte per byte of the value.
    static func hexMask(_ text: String, count: Int) throws -> [UInt8] {
        var t = Substring(trimmed(text))
        if t.hasPrefix("0x") || t.hasPrefix("0X") { t = t.dropFirst(2) }
        guard let bytes = BytePattern.parseHex(String(t)), bytes.count == count else {
            throw MatchProblem(text: "mask \"\(text)\" is not \(count) hex byte(s), as long as the value")
        }
        return bytes
    }
}
