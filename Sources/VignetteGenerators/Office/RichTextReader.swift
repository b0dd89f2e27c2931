import Synchronization
import VignetteCore

/// The text of an RTF document as `OfficeDocument` blocks: paragraphs, headings (by outline
/// level, or a style named "heading N"), list items with their markers, and tables; and its `\info` properties.
///
/// A single pass over the bytes with a stack of group states (RTF 1.9.1): destinations that are
/// not text (font and colour tables, style sheets, pictures, field instructions, headers,
/// footers, footnotes, anything behind `\*`) are skipped; `\'hh` bytes are decoded in the code
/// page of the font in use (`\fcharset` in the font table, else `\ansicpg`); `\uN` is followed by
/// `\ucN` fallback characters, which are skipped; hidden text (`\v`) is left out. Hostile input
/// is bounded by the caller's byte count, `maxDepth` groups of state, the document's budget and
/// `maxPropertyLength`; `\bin` skips no more than what is there.
struct RichTextReader {
    /// Groups nested deeper than this are skipped whole (their state is not kept).
    static let maxDepth = 256
    /// Longest property value kept, in characters.
    static let maxPropertyLength = 1_000

    /// What the text of a group is for.
    private enum Destination: Equatable {
        /// The document's text.
        case body
        /// Not text: skipped.
        case skip
        /// The font table: font numbers and their character sets.
        case fontTable
        /// The style sheet: style numbers and names (for the headings' levels).
        case styleSheet
        /// A list item's marker (`\listtext`, `\pntext`).
        case marker
        /// A text property of `\info` with its label.
        case property(String)
        /// A date property of `\info` (`\yr \mo \dy \hr \min` words) with its label.
        case date(String)
    }

    /// The state a group saves and restores.
    private struct State {
        var destination = Destination.body
        var font = -1
        var fallbackCount = 1
        var hidden = false
        var inInfo = false
        var inTable = false
        var outlineLevel: Int?
        var style = 0
        var listLevel = 0
    }

    /// The properties found in `\info`, as `(label, value)` in the order found.
    private(set) var properties: [(label: String, value: String)] = []
    /// The blocks of the text.
    private(set) var body: OfficeDocument

    private var states = [State()]
    private var skippedDepth = 0
    private var documentCodepage = 1252
    private var defaultFont = -1
    private var fontCodepages: [Int: Int] = [:]
    private var tableFont = -1
    private var headingStyles: [Int: Int] = [:]
    private var styleEntry: Int?
    private var styleName: [Unicode.Scalar] = []
    private var localTables: [Int: [Unicode.Scalar]] = [:]
    private var pending: [UInt8] = []
    private var pendingCodepage = 0
    private var paragraph: [Unicode.Scalar] = []
    private var marker: [Unicode.Scalar] = []
    private var propertyText: [Unicode.Scalar] = []
    private var dateParts: [String: Int] = [:]
    private var highSurrogate: UInt32?
    private var fallbackToSkip = 0
    private var cells: [String] = []
    private var rows: [[String]] = []

    /// Reads the RTF document in `bytes` until `budget` characters of text are held; throws
    /// `.declined` when the bytes do not start with `{\rtf`.
    init(_ bytes: ArraySlice<UInt8>, budget: Int) throws {
        body = OfficeDocument(budget: budget)
        let start = bytes.firstIndex { !(0x09...0x0D).contains($0) && $0 != 0x20 } ?? bytes.endIndex
        guard bytes[start...].starts(with: Array("{\\rtf".utf8)) else {
            throw VignetteError(.declined, "not an RTF document: it does not start with {\\rtf")
        }
        parse(bytes[start...])
        finishParagraph()
        flushTable()
    }

    /// The document: the properties as `Label: value` items when `properties`, then the text.
    func document(budget: Int, properties withProperties: Bool) -> OfficeDocument {
        var document = OfficeDocument(budget: budget)
        if withProperties {
            let width = properties.map(\.label.count).max() ?? 0
            for (label, value) in properties {
                document.append(
                    .listItem(level: 0, marker: "", text: label + ":" + String(repeating: " ", count: width - label.count + 1) + value))
            }
        }
        for block in body.blocks { document.append(block) }
        if body.cut { document.cut = true }
        return document
    }

    private var state: State {
        get { states[states.count - 1] }
        set { states[states.count - 1] = newValue }
    }

    private mutating func parse(_ bytes: ArraySlice<UInt8>) {
        var i = bytes.startIndex
        let end = bytes.endIndex
        while i < end, !body.isFull, !body.cut {
            let byte = bytes[i]
            switch byte {
            case UInt8(ascii: "{"):
                flush()
                fallbackToSkip = 0
                if skippedDepth > 0 || states.count >= Self.maxDepth {
                    skippedDepth += 1
                } else {
                    states.append(state)
                }
                i += 1
            case UInt8(ascii: "}"):
                flush()
                fallbackToSkip = 0
                i += 1
                if skippedDepth > 0 {
                    skippedDepth -= 1
                } else {
                    closeGroup()
                    // The outermost group closed: what follows is not part of the document.
                    if states.count == 1 { return }
                }
            case UInt8(ascii: "\\"):
                i = controlWord(bytes, at: i + 1)
            case 0x0D, 0x0A:
                i += 1
            default:
                i += 1
                if skippedDepth > 0 || state.destination == .skip {
                    // A picture's hex or an object's data: nothing to decode until the next group or word.
                    while i < end, bytes[i] != UInt8(ascii: "{"), bytes[i] != UInt8(ascii: "}"), bytes[i] != UInt8(ascii: "\\") { i += 1 }
                    fallbackToSkip = 0
                    continue
                }
                if fallbackToSkip > 0 {
                    fallbackToSkip -= 1
                    continue
                }
                if byte == 0x09 {
                    append(" ")
                } else if byte >= 0x20, keepsText {
                    addByte(byte)
                }
            }
        }
    }

    /// Reads the control word or symbol after a backslash at `start`; returns the index after it.
    private mutating func controlWord(_ bytes: ArraySlice<UInt8>, at start: Int) -> Int {
        let end = bytes.endIndex
        guard start < end else { return end }
        let first = bytes[start]
        guard Self.isLetter(first) else { return controlSymbol(first, bytes, at: start) }
        var i = start
        while i < end, Self.isLetter(bytes[i]) { i += 1 }
        // Words are at most 32 letters; longer ones are nobody's and compare as such.
        let word = i - start <= 32 ? String(decoding: bytes[start..<i], as: UTF8.self) : ""
        var parameter: Int?
        var negative = false
        if i < end, bytes[i] == UInt8(ascii: "-"), i + 1 < end, Self.isDigit(bytes[i + 1]) {
            negative = true
            i += 1
        }
        if i < end, Self.isDigit(bytes[i]) {
            var value = 0
            while i < end, Self.isDigit(bytes[i]) {
                if value < 1_000_000_000 { value = value * 10 + Int(bytes[i] - 48) }
                i += 1
            }
            parameter = negative ? -value : value
        }
        if i < end, bytes[i] == 0x20 { i += 1 }
        if word == "bin" {
            flush()
            let count = max(0, parameter ?? 0)
            return count > end - i ? end : i + count
        }
        guard skippedDepth == 0 else { return i }
        if word == "u" {
            flush()
            if state.destination != .skip, !state.hidden { unicode(parameter ?? 0) }
            fallbackToSkip = state.fallbackCount
            return i
        }
        if fallbackToSkip > 0 {
            fallbackToSkip -= 1
            return i
        }
        flush()
        handle(word, parameter)
        return i
    }

    /// Handles the control symbol `\` + `symbol` at `start`; returns the index after it.
    private mutating func controlSymbol(_ symbol: UInt8, _ bytes: ArraySlice<UInt8>, at start: Int) -> Int {
        var next = start + 1
        guard skippedDepth == 0 else {
            return symbol == UInt8(ascii: "'") ? min(bytes.endIndex, start + 3) : next
        }
        if symbol == UInt8(ascii: "'") {
            var value: UInt8 = 0
            var digits = 0
            while digits < 2, next < bytes.endIndex, let digit = TransferDecoding.hexValue(bytes[next]) {
                value = value << 4 | digit
                digits += 1
                next += 1
            }
            if fallbackToSkip > 0 {
                fallbackToSkip -= 1
            } else if digits == 2, keepsText {
                addByte(value)
            }
            return next
        }
        if fallbackToSkip > 0 {
            fallbackToSkip -= 1
            return next
        }
        switch symbol {
        case UInt8(ascii: "*"): state.destination = .skip
        case UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "\\"): addByte(symbol)
        case UInt8(ascii: "~"): append("\u{A0}")
        case UInt8(ascii: "_"): append("\u{2011}")
        case 0x0D, 0x0A:
            flush()
            if state.destination == .body { endParagraph() }
        default: next = start + 1  // \- (optional hyphen), \: (index), \| (formula): nothing to show
        }
        return next
    }

    /// Handles the control word `word` with its parameter (after the pending bytes are flushed).
    private mutating func handle(_ word: String, _ parameter: Int?) {
        let inBody = state.destination == .body
        switch word {
        case "fonttbl":
            state.destination = .fontTable
        case "stylesheet":
            state.destination = .styleSheet
        case "s":
            if state.destination == .styleSheet {
                styleEntry = parameter
                styleName = []
            } else if let parameter {
                state.style = parameter
            }
        case "cs", "ds", "ts":
            if state.destination == .styleSheet { styleEntry = nil }
        case "colortbl", "pict", "fldinst", "header", "headerl", "headerr", "headerf", "footer", "footerl",
            "footerr", "footerf", "footnote", "listtable", "listoverridetable", "revtbl", "rsidtbl", "xmlnstbl", "themedata",
            "colorschememapping", "datastore", "latentstyles", "pgdsctbl", "filetbl", "nonshppict", "shpinst", "objdata",
            "bkmkstart", "bkmkend", "xe", "tc", "template", "generator", "userprops", "docvar", "annotation", "atnid",
            "atnauthor", "private":
            state.destination = .skip
        case "info":
            state.destination = .skip
            state.inInfo = true
        case "title", "subject", "author", "keywords", "doccomm", "operator", "company", "category":
            if state.inInfo { state.destination = .property(Self.propertyLabels[word]!) }
        case "creatim", "revtim":
            if state.inInfo {
                state.destination = .date(word == "creatim" ? "Created" : "Last saved")
                dateParts = [:]
            }
        case "yr", "mo", "dy", "hr", "min":
            if case .date = state.destination, let parameter { dateParts[word] = parameter }
        case "listtext", "pntext":
            state.destination = state.destination == .skip ? .skip : .marker
        case "f":
            guard let parameter else { return }
            if state.destination == .fontTable {
                tableFont = parameter
            } else {
                state.font = parameter
            }
        case "fcharset":
            if state.destination == .fontTable, let parameter, let codepage = Self.charsetCodepages[parameter] {
                fontCodepages[tableFont] = codepage
            }
        case "cpg":
            if state.destination == .fontTable, let parameter, parameter > 0 { fontCodepages[tableFont] = parameter }
        case "ansicpg": if let parameter, parameter > 0 { documentCodepage = parameter }
        case "mac": documentCodepage = 10000
        case "pc": documentCodepage = 437
        case "pca": documentCodepage = 850
        case "deff": if let parameter { defaultFont = parameter }
        case "uc": state.fallbackCount = min(max(parameter ?? 1, 0), 16)
        case "v": state.hidden = (parameter ?? 1) != 0
        case "pard":
            state.inTable = false
            state.outlineLevel = nil
            state.style = 0
            state.listLevel = 0
        case "intbl": state.inTable = true
        case "outlinelevel": if let parameter, (0...8).contains(parameter) { state.outlineLevel = parameter }
        case "ilvl": if let parameter, (0...8).contains(parameter) { state.listLevel = parameter }
        case "par", "sect", "page", "line":
            if inBody { endParagraph() }
        case "cell", "nestcell":
            if inBody { endCell() }
        case "row":
            if inBody { endRow() }
        case "tab": append(" ")
        case "emdash": append("\u{2014}")
        case "endash": append("\u{2013}")
        case "lquote": append("\u{2018}")
        case "rquote": append("\u{2019}")
        case "ldblquote": append("\u{201C}")
        case "rdblquote": append("\u{201D}")
        case "bullet": append("\u{2022}")
        case "emspace", "enspace", "qmspace": append(" ")
        case "zwj": append("\u{200D}")
        case "zwnj": append("\u{200C}")
        default: break
        }
    }

    /// Ends the group on top of the stack: a property's text is kept, a date put together.
    private mutating func closeGroup() {
        let closing = states.removeLast()
        let parent = states[states.count - 1]
        if closing.destination == .styleSheet, let style = styleEntry {
            let name = Self.string(styleName).split(separator: ";").first.map { OfficeDocument.flattened(String($0)).lowercased() } ?? ""
            if name.hasPrefix("heading "), let level = Int(name.dropFirst(8)), (1...9).contains(level) { headingStyles[style] = level }
            styleEntry = nil
        }
        guard closing.destination != parent.destination else { return }
        switch closing.destination {
        case .property(let label):
            let value = OfficeDocument.flattened(Self.string(propertyText))
            propertyText = []
            if !value.isEmpty, properties.count < 16 {
                properties.append((label, String(value.prefix(Self.maxPropertyLength))))
            }
        case .date(let label):
            if let year = dateParts["yr"], (1...9999).contains(year), let month = dateParts["mo"], (1...12).contains(month),
                let day = dateParts["dy"], (1...31).contains(day), properties.count < 16
            {
                var value = "\(year)-\(UTCDate.two(month))-\(UTCDate.two(day))"
                if let hour = dateParts["hr"], (0...23).contains(hour) {
                    value += " \(UTCDate.two(hour)):\(UTCDate.two(min(max(dateParts["min"] ?? 0, 0), 59)))"
                }
                properties.append((label, value))
            }
        default: break
        }
    }

    /// Appends `text` to the current destination (nothing when it is skipped or hidden).
    private mutating func append(_ text: String) {
        flush()
        for scalar in text.unicodeScalars { emit(scalar) }
    }

    /// Whether text in the current group is kept anywhere (bytes elsewhere are not even decoded).
    private var keepsText: Bool {
        let current = state
        switch current.destination {
        case .skip, .fontTable, .date: return false
        case .body: return !current.hidden
        case .marker, .property, .styleSheet: return true
        }
    }

    /// Adds a byte in the current font's code page to the bytes waiting to be decoded.
    private mutating func addByte(_ byte: UInt8) {
        let codepage = currentCodepage
        if codepage != pendingCodepage { flush() }
        pendingCodepage = codepage
        pending.append(byte)
    }

    /// The code page of the current font: its `\fcharset`, else the document's `\ansicpg`.
    private var currentCodepage: Int {
        let font = state.font >= 0 ? state.font : defaultFont
        return fontCodepages[font] ?? documentCodepage
    }

    /// Decodes the waiting bytes into the current destination.
    private mutating func flush() {
        guard !pending.isEmpty else { return }
        defer { pending.removeAll(keepingCapacity: true) }
        if pendingCodepage == Self.symbolCodepage {
            for byte in pending { emit(Self.symbolScalar(byte)) }
        } else if Self.doubleByteCodepages.contains(pendingCodepage) {
            let name = TextEncodingName(rawValue: "CP\(pendingCodepage)")
            for scalar in TextDecoder.decode(pending[...], as: name).unicodeScalars { emit(scalar) }
        } else {
            let table = singleByteTable(pendingCodepage)
            for byte in pending { emit(byte < 0x80 ? Unicode.Scalar(byte) : table[Int(byte) - 0x80]) }
        }
    }

    /// The characters of bytes 0x80–0xFF in a single-byte code page, decoded by iconv once per
    /// process (Windows-1252 for a code page iconv does not know).
    private mutating func singleByteTable(_ codepage: Int) -> [Unicode.Scalar] {
        if let table = localTables[codepage] ?? Self.singleByteTables.withLock({ $0[codepage] }) {
            localTables[codepage] = table
            return table
        }
        let name = TextEncodingName(rawValue: codepage == 10000 ? "MACINTOSH" : "CP\(codepage)")
        let high = Array(UInt8(0x80)...UInt8(0xFF))
        var table = Array(TextDecoder.decode(high[...], as: name).unicodeScalars)
        // A byte iconv cannot map becomes one U+FFFD; a count off by anything else means the
        // conversion did not go byte for byte, so each byte is asked alone.
        if table.count != high.count {
            table = high.map { byte in
                let scalars = TextDecoder.decode([byte][...], as: name).unicodeScalars
                return scalars.count == 1 ? scalars.first! : "\u{FFFD}"
            }
        }
        if table.allSatisfy({ $0 == "\u{FFFD}" }), codepage != 1252 { table = singleByteTable(1252) }
        // Hostile documents name any code page they like; the process keeps the usual ones.
        if Self.charsetCodepages.values.contains(codepage) || [1252, 10000, 437, 850].contains(codepage) {
            Self.singleByteTables.withLock { $0[codepage] = table }
        }
        localTables[codepage] = table
        return table
    }

    /// The single-byte tables made so far, by code page.
    private static let singleByteTables = Mutex<[Int: [Unicode.Scalar]]>([:])

    /// Handles `\uN`: a UTF-16 unit as a signed 16-bit number, surrogate pairs joined; a
    /// number outside 16 bits stands for nothing.
    private mutating func unicode(_ value: Int) {
        guard (-32768...65535).contains(value) else { return }
        let unit = UInt32(truncatingIfNeeded: value) & 0xFFFF
        if (0xD800...0xDBFF).contains(unit) {
            highSurrogate = unit
            return
        }
        if (0xDC00...0xDFFF).contains(unit) {
            if let high = highSurrogate, let scalar = Unicode.Scalar(0x10000 + (high - 0xD800) << 10 + (unit - 0xDC00)) {
                emit(scalar)
            }
            highSurrogate = nil
            return
        }
        highSurrogate = nil
        // Symbol fonts' characters are written at U+F0xx.
        emit((0xF020...0xF0FF).contains(unit) ? Self.symbolScalar(UInt8(unit & 0xFF)) : Unicode.Scalar(unit) ?? "\u{FFFD}")
    }

    /// Adds one character to the current destination.
    private mutating func emit(_ scalar: Unicode.Scalar) {
        let current = state
        guard !current.hidden || current.destination != .body else { return }
        switch current.destination {
        case .body:
            // A paragraph never holds more than the whole budget: the rest is cut.
            if paragraph.count < body.budget {
                paragraph.append(scalar)
            } else {
                body.cut = true
            }
        case .marker: if marker.count < 64 { marker.append(scalar) }
        case .styleSheet: if styleEntry != nil, styleName.count < 64 { styleName.append(scalar) }
        case .property: if propertyText.count < Self.maxPropertyLength { propertyText.append(scalar) }
        case .skip, .fontTable, .date: break
        }
    }

    /// Ends a paragraph: in a table the text stays in its cell; otherwise it becomes a block.
    private mutating func endParagraph() {
        if state.inTable {
            paragraph.append(" ")
            return
        }
        finishParagraph()
    }

    /// Turns the paragraph's text into a block (a table waiting before it goes first).
    private mutating func finishParagraph() {
        flush()
        let text = OfficeDocument.flattened(Self.string(paragraph))
        let mark = OfficeDocument.flattened(Self.string(marker))
        paragraph = []
        marker = []
        // Empty paragraphs between rows do not split a table.
        if text.isEmpty { return }
        flushTable()
        if let level = state.outlineLevel.map({ $0 + 1 }) ?? headingStyles[state.style] {
            body.append(.heading(level: min(level, 6), text: text))
        } else if !mark.isEmpty {
            body.append(.listItem(level: state.listLevel, marker: mark, text: text))
        } else {
            body.append(.paragraph(text))
        }
    }

    /// Ends a table cell.
    private mutating func endCell() {
        flush()
        if cells.count < OfficeDocument.maxColumns {
            cells.append(OfficeDocument.cell(OfficeDocument.flattened(Self.string(paragraph))))
        }
        paragraph = []
        marker = []
    }

    /// Ends a table row.
    private mutating func endRow() {
        if !paragraph.isEmpty { endCell() }
        if !cells.isEmpty, rows.count < OfficeDocument.maxRows { rows.append(cells) }
        cells = []
    }

    /// Adds the rows read so far as a table block.
    private mutating func flushTable() {
        if !cells.isEmpty { endRow() }
        guard !rows.isEmpty else { return }
        var table = OfficeDocument.Table()
        table.rows = rows
        table.rowCount = rows.count
        table.columnCount = rows.map(\.count).max() ?? 0
        body.append(.table(table))
        rows = []
    }

    /// The labels of the `\info` text properties, as the legacy Office preview names them.
    private static let propertyLabels = [
        "title": "Title", "subject": "Subject", "author": "Author", "keywords": "Keywords", "doccomm": "Comments",
        "operator": "Last saved by", "company": "Company", "category": "Category",
    ]
    /// The code page of each `\fcharset` value (0 and 1, the document's, are left out).
    private static let charsetCodepages: [Int: Int] = [
        2: symbolCodepage, 77: 10000, 128: 932, 129: 949, 130: 1361, 134: 936, 136: 950, 161: 1253, 162: 1254,
        163: 1258, 177: 1255, 178: 1256, 186: 1257, 204: 1251, 222: 874, 238: 1250, 254: 437, 255: 850,
    ]
    /// Stands for the Symbol character set, which no iconv code page describes.
    private static let symbolCodepage = -2
    /// Code pages whose characters take one or two bytes.
    private static let doubleByteCodepages: Set<Int> = [932, 936, 949, 950, 1361]

    /// A Symbol or Wingdings byte as the character lists use it for; others as Latin-1.
    private static func symbolScalar(_ byte: UInt8) -> Unicode.Scalar {
        switch byte {
        case 0xB7: "\u{2022}"
        case 0xA7: "\u{25AA}"
        case 0xD8: "\u{27A2}"
        case 0xFC: "\u{2713}"
        default: Unicode.Scalar(byte)
        }
    }

    private static func string(_ scalars: [Unicode.Scalar]) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view)
    }

    private static func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
}
