/// Reads the text of a DOCX (`word/document.xml`): headings from paragraph styles and outline
/// levels, list items from numbering, tables as tables; deleted text and field codes left out.
struct WordprocessingReader {
    /// An open paragraph.
    private struct Paragraph {
        var text = ""
        var style: String? = nil
        var numberingID: String? = nil
        var level = 0
        var outline: Int? = nil
    }

    /// An open table.
    private struct TableBuilder {
        var table = OfficeDocument.Table()
        var row: [String]? = nil
        var cell: [String]? = nil
        /// Paragraphs open when the cell started: only the cell's own paragraphs go into it.
        var cellParagraphDepth = 0
    }

    private let styles: WordprocessingStyles
    private var reader: XMLTokenizer
    private var paragraphs: [Paragraph] = []
    private var tables: [TableBuilder] = []
    private var runDepth = 0
    /// Items seen per list and level, for numbered markers.
    private var counters: [String: [Int: Int]] = [:]

    /// Reads `document` from `package`.
    static func read(_ package: OfficePackage, into document: inout OfficeDocument) throws {
        var reader = WordprocessingReader(styles: try WordprocessingStyles(package), reader: try package.requiredXML("word/document.xml"))
        try reader.run(&document)
    }

    private init(styles: WordprocessingStyles, reader: XMLTokenizer) {
        self.styles = styles
        self.reader = reader
    }

    /// Reads every event of the document part into `document`, stopping when its budget is spent.
    private mutating func run(_ document: inout OfficeDocument) throws {
        while let event = try reader.next() {
            switch event {
            case .start(let tag): try start(tag)
            case .end(let name): end(name, &document)
            case .text: break
            }
            if document.isFull && tables.isEmpty {
                document.cut = true
                return
            }
        }
    }

    /// Handles a start tag: paragraphs and their properties, runs, text, tables.
    private mutating func start(_ tag: XMLTokenizer.Tag) throws {
        switch tag.name {
        case "p": paragraphs.append(Paragraph())
        case "pStyle": if !paragraphs.isEmpty { paragraphs[paragraphs.count - 1].style = tag.attribute("val") }
        case "numId": if !paragraphs.isEmpty { paragraphs[paragraphs.count - 1].numberingID = tag.attribute("val") }
        case "ilvl":
            if !paragraphs.isEmpty { paragraphs[paragraphs.count - 1].level = min(max(tag.attribute("val").flatMap(Int.init) ?? 0, 0), 8) }
        case "outlineLvl":
            if !paragraphs.isEmpty, let n = tag.attribute("val").flatMap(Int.init), n < 9 {
                paragraphs[paragraphs.count - 1].outline = n + 1
            }
        case "r": runDepth += 1
        case "t":
            let text = try reader.textContent(limit: OfficeDocument.maxCellLength * 8)
            appendText(text)
        case "tab" where runDepth > 0: appendText("\t")
        case "br" where runDepth > 0, "cr" where runDepth > 0: appendText("\n")
        case "noBreakHyphen": appendText("-")
        // The fallback of alternate content repeats the text of the choice (text boxes);
        // section properties, deleted runs and field codes hold nothing to show.
        case "Fallback", "sectPr", "del", "instrText", "delText", "pPrChange", "rPrChange": try reader.skipElement()
        case "tbl": tables.append(TableBuilder())
        case "tr": if !tables.isEmpty { tables[tables.count - 1].row = [] }
        case "tc":
            if !tables.isEmpty {
                tables[tables.count - 1].cell = []
                tables[tables.count - 1].cellParagraphDepth = paragraphs.count
            }
        default: break
        }
    }

    /// Adds `text` to the innermost open paragraph, up to a cap.
    private mutating func appendText(_ text: String) {
        guard !paragraphs.isEmpty, paragraphs[paragraphs.count - 1].text.utf8.count < OfficeDocument.maxCellLength * 8 else { return }
        paragraphs[paragraphs.count - 1].text += text
    }

    /// Handles an end tag: finishes the run, paragraph, cell, row or table it closes.
    private mutating func end(_ name: String, _ document: inout OfficeDocument) {
        switch name {
        case "r": runDepth = max(0, runDepth - 1)
        case "p": if let paragraph = paragraphs.popLast() { finish(paragraph, &document) }
        case "tc":
            guard var builder = tables.popLast() else { return }
            if let cell = builder.cell, builder.row != nil {
                builder.row!.append(OfficeDocument.cell(cell.joined(separator: "\n")))
            }
            builder.cell = nil
            tables.append(builder)
        case "tr":
            guard var builder = tables.popLast() else { return }
            if let row = builder.row {
                builder.table.rowCount += 1
                builder.table.columnCount = max(builder.table.columnCount, row.count)
                if builder.table.rows.count < OfficeDocument.maxRows {
                    builder.table.rows.append(Array(row.prefix(OfficeDocument.maxColumns)))
                }
            }
            builder.row = nil
            tables.append(builder)
        case "tbl":
            guard let builder = tables.popLast() else { return }
            if tables.last?.cell != nil {
                // A table in a cell: its rows become lines of the outer cell.
                let lines = builder.table.rows.map { $0.joined(separator: " | ") }
                tables[tables.count - 1].cell! += lines
            } else {
                document.append(.table(builder.table))
            }
        default: break
        }
    }

    /// Files a finished paragraph: into the open table cell, or as a heading, list item or paragraph.
    private mutating func finish(_ paragraph: Paragraph, _ document: inout OfficeDocument) {
        if let builder = tables.last, builder.cell != nil, paragraphs.count == builder.cellParagraphDepth {
            tables[tables.count - 1].cell!.append(OfficeDocument.flattened(paragraph.text))
            return
        }
        let text = OfficeDocument.flattened(paragraph.text)
        guard !text.isEmpty else { return }
        let numbering = paragraph.numberingID ?? styles.numbering(paragraph.style)
        if let level = paragraph.outline ?? styles.headingLevel(paragraph.style) {
            document.append(.heading(level: level, text: text))
        } else if let numbering, numbering != "0" {
            var levels = counters[numbering, default: [:]]
            let n = (levels[paragraph.level] ?? 0) + 1
            levels[paragraph.level] = n
            for deeper in levels.keys where deeper > paragraph.level { levels[deeper] = nil }
            counters[numbering] = levels
            let marker = WordprocessingStyles.marker(format: styles.format(numID: numbering, level: paragraph.level), n: n)
            document.append(.listItem(level: paragraph.level, marker: marker, text: text))
        } else {
            document.append(.paragraph(text))
        }
    }
}
