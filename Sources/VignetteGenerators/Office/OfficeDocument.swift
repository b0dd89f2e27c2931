/// What an Office file says, as blocks of text: headings, paragraphs, list items and tables.
///
/// Word processing documents map to it directly; a spreadsheet is one heading and one table per
/// sheet; a presentation one heading (its title) and paragraphs per slide. Readers stop adding
/// blocks once `budget` characters are held, so a huge document costs no more than its preview.
struct OfficeDocument {
    /// One block of content.
    enum Block: Equatable {
        /// A heading at `level` (1 is the top).
        case heading(level: Int, text: String)
        /// A paragraph of text.
        case paragraph(String)
        /// A list item at nesting `level` (0 is the outermost), with its marker (`•`, `3.`).
        case listItem(level: Int, marker: String, text: String)
        /// A table.
        case table(Table)
    }

    /// A table's kept cells and how big it really is.
    struct Table: Equatable {
        /// The kept rows, each with the kept cells (rows may be ragged).
        var rows: [[String]] = []
        /// Rows in the whole table (or the sheet's used range).
        var rowCount = 0
        /// Columns in the whole table (or the sheet's used range).
        var columnCount = 0
        /// Whether reading stopped before the table's end, so `rowCount` is only a lower bound.
        var rowCountIsMinimum = false
        /// Whether to label columns A, B, C… and rows 1, 2, 3… (spreadsheets).
        var labelled = false
    }

    /// Sheets shown of a spreadsheet.
    static let maxSheets = 3
    /// Rows kept of a table or sheet.
    static let maxRows = 200
    /// Columns kept of a table or sheet.
    static let maxColumns = 30
    /// Longest cell kept, in characters.
    static let maxCellLength = 1_000

    /// The blocks in reading order.
    private(set) var blocks: [Block] = []
    /// Characters the blocks may hold before readers should stop.
    let budget: Int
    /// Characters held so far.
    private(set) var size = 0
    /// What the document is and how big ("3 slides", "2 sheets: Budget, Notes").
    var summary: [String] = []
    /// Whether content was left out (budget reached or caps hit).
    var cut = false
    /// The cipher of a document saved with a password, whose text is not read ("40-bit RC4").
    var protection: String?

    /// An empty document that fills up at `budget` characters.
    init(budget: Int) {
        self.budget = budget
    }

    /// Whether the budget is spent; readers stop reading when it is.
    var isFull: Bool { size >= budget }

    /// Adds `block` unless it is empty; past the budget it is dropped and the document marked cut.
    mutating func append(_ block: Block) {
        let length: Int
        switch block {
        case .heading(_, let text), .paragraph(let text), .listItem(_, _, let text):
            guard !text.isEmpty else { return }
            length = text.utf8.count
        case .table(let table):
            guard !table.rows.isEmpty else { return }
            length = table.rows.reduce(0) { $0 + $1.reduce(0) { $0 + $1.utf8.count + 2 } }
        }
        guard !isFull else {
            cut = true
            return
        }
        blocks.append(block)
        size += length
    }

    /// `text` with runs of whitespace (line breaks included) as single spaces, trimmed.
    static func flattened(_ text: String) -> String {
        var out = ""
        var space = false
        for ch in text {
            if ch.isWhitespace {
                space = !out.isEmpty
            } else {
                if space { out.append(" ") }
                space = false
                out.append(ch)
            }
        }
        return out
    }

    /// `text` cut to `maxCellLength` characters with `…` when longer.
    static func cell(_ text: String) -> String {
        text.count > maxCellLength ? String(text.prefix(maxCellLength)) + "…" : text
    }

    /// The heading of slide `number`: "Slide 2: Title", or "Slide 2" when it has no title.
    static func slideHeading(number: Int, title: [String]) -> String {
        title.isEmpty ? "Slide \(number)" : "Slide \(number): " + title.joined(separator: " ")
    }

    /// The title in a heading made by `slideHeading` ("" for none), or nil when `heading` is not one.
    static func slideTitle(inHeading heading: String) -> String? {
        guard heading.hasPrefix("Slide ") else { return nil }
        let rest = heading.dropFirst(6)
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty else { return nil }
        let after = rest.dropFirst(digits.count)
        if after.isEmpty { return "" }
        return after.hasPrefix(": ") ? String(after.dropFirst(2)) : nil
    }

    /// The spreadsheet name of column `index` (0 is `A`, 26 is `AA`).
    static func columnName(_ index: Int) -> String {
        var n = index + 1
        var out = ""
        while n > 0 {
            let r = (n - 1) % 26
            out = String(UnicodeScalar(UInt8(65 + r))) + out
            n = (n - 1) / 26
        }
        return out
    }
}
