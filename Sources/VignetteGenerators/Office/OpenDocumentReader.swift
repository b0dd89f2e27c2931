import VignetteCore

/// Reads the text of an OpenDocument file (`content.xml`): headings, paragraphs, lists and
/// tables of text documents; the first sheets of spreadsheets; one section per drawing page of
/// presentations. Repeated rows and columns are counted, never expanded past the caps.
struct OpenDocumentReader {
    /// Longest run of spaces `<text:s text:c="…"/>` writes.
    static let maxSpaces = 64

    private var reader: XMLTokenizer
    private var isSpreadsheet = false
    private var paragraphs: [String] = []
    private var tables: [OpenDocumentTable] = []
    /// Nesting of `text:list`, with each list's numbering style and item counter.
    private var lists: [(style: String?, count: Int, firstParagraph: Bool)] = []
    /// Numbered list levels by list style name.
    private var numberedLevels: [String: Set<Int>] = [:]
    private var listStyle: String? = nil
    /// Heading levels of paragraph styles (automatic styles based on a heading style, say).
    private var headingStyles: [String: Int] = [:]
    /// The heading level of each open paragraph (nil for a plain one).
    private var paragraphLevels: [Int?] = []
    private var sheetNames: [String] = []
    private var slide: (number: Int, title: [String], body: [OfficeDocument.Block])? = nil
    private var titleDepth: Int? = nil
    private var slideCount = 0

    /// Reads `content.xml` of `package` into `document`.
    static func read(_ package: OfficePackage, into document: inout OfficeDocument) throws {
        if var manifest = try package.xml("META-INF/manifest.xml") {
            while let event = try manifest.next() {
                if case .start(let tag) = event, tag.name == "encryption-data" {
                    throw VignetteError(.unsupported, "the document is encrypted (password-protected)")
                }
            }
        }
        var reader = OpenDocumentReader(reader: try package.requiredXML("content.xml"))
        try reader.run(&document)
    }

    private init(reader: XMLTokenizer) {
        self.reader = reader
    }

    /// Reads every event of `content.xml` into `document`, stopping when its budget is spent.
    private mutating func run(_ document: inout OfficeDocument) throws {
        while let event = try reader.next() {
            switch event {
            case .start(let tag): try start(tag, &document)
            case .end(let name): try end(name, &document)
            case .text(let text): if !paragraphs.isEmpty { append(text) }
            }
            if document.isFull && tables.isEmpty && slide == nil {
                document.cut = true
                break
            }
        }
        if isSpreadsheet {
            document.summary.append(CountText.counted(sheetNames.count, "sheet") + ": " + SpreadsheetReader.list(sheetNames))
            if sheetNames.count > OfficeDocument.maxSheets { document.cut = true }
        } else if slideCount > 0 {
            document.summary.append(CountText.counted(slideCount, "slide"))
        }
    }

    /// Adds `text` to the innermost open paragraph, up to a cap.
    private mutating func append(_ text: String) {
        guard paragraphs[paragraphs.count - 1].utf8.count < OfficeDocument.maxCellLength * 8 else { return }
        paragraphs[paragraphs.count - 1] += text
    }

    /// Handles a start tag: paragraphs, lists, tables, pages and the styles that say what they are.
    private mutating func start(_ tag: XMLTokenizer.Tag, _ document: inout OfficeDocument) throws {
        switch tag.name {
        case "spreadsheet": isSpreadsheet = true
        case "list-style": listStyle = tag.attribute("name")
        case "list-level-style-number":
            if let style = listStyle { numberedLevels[style, default: []].insert(tag.attribute("level").flatMap(Int.init) ?? 1) }
        case "style" where tag.attribute("family") == "paragraph":
            guard let name = tag.attribute("name") else { break }
            let outline = tag.attribute("default-outline-level").flatMap(Int.init)
            if let level = outline ?? tag.attribute("parent-style-name").flatMap(WordprocessingStyles.level(forName:)) {
                headingStyles[name] = level
            }
        case "h", "p":
            paragraphs.append("")
            let style = tag.attribute("style-name")
            let styleLevel = style.flatMap { headingStyles[$0] ?? WordprocessingStyles.level(forName: $0) }
            paragraphLevels.append(tag.name == "h" ? tag.attribute("outline-level").flatMap(Int.init) ?? styleLevel ?? 1 : styleLevel)
        case "s":
            if !paragraphs.isEmpty {
                append(String(repeating: " ", count: min(max(tag.attribute("c").flatMap(Int.init) ?? 1, 0), Self.maxSpaces)))
            }
        case "tab": if !paragraphs.isEmpty { append("\t") }
        case "line-break": if !paragraphs.isEmpty { append("\n") }
        // Notes, comments, change records and a presentation's speaker notes are not the text.
        case "note", "annotation", "tracked-changes", "notes", "font-face-decls", "forms", "sequence-decls":
            try reader.skipElement()
        case "list": lists.append((tag.attribute("style-name") ?? lists.last?.style, 0, false))
        case "list-item", "list-header":
            if !lists.isEmpty {
                lists[lists.count - 1].count += tag.name == "list-item" ? 1 : 0
                lists[lists.count - 1].firstParagraph = true
            }
        case "table":
            if isSpreadsheet && tables.isEmpty {
                sheetNames.append(tag.attribute("name") ?? "Sheet \(sheetNames.count + 1)")
                if sheetNames.count > OfficeDocument.maxSheets || document.isFull {
                    try reader.skipElement()
                    return
                }
                document.append(.heading(level: 2, text: sheetNames[sheetNames.count - 1]))
            }
            tables.append(OpenDocumentTable(depth: reader.depth, labelled: isSpreadsheet))
        case "table-row":
            tables.last?.startRow(repeated: tag.attribute("number-rows-repeated").flatMap(Int.init) ?? 1)
        case "table-cell", "covered-table-cell":
            tables.last?.startCell(repeated: tag.attribute("number-columns-repeated").flatMap(Int.init) ?? 1, depth: paragraphs.count)
        case "page":
            slideCount += 1
            slide = (slideCount, [], [])
        case "frame" where slide != nil && titleDepth == nil:
            if tag.attribute("class") == "title" { titleDepth = reader.depth }
        default: break
        }
    }

    /// Handles an end tag: finishes the paragraph, list, cell, row, table or page it closes.
    private mutating func end(_ name: String, _ document: inout OfficeDocument) throws {
        switch name {
        case "list-style": listStyle = nil
        case "h", "p":
            guard let raw = paragraphs.popLast() else { return }
            let headingLevel = paragraphLevels.popLast() ?? nil
            let text = OfficeDocument.flattened(raw)
            if let table = tables.last, table.inCell, paragraphs.count == table.cellParagraphDepth {
                table.addParagraph(text)
            } else if let headingLevel, slide == nil {
                emit(.heading(level: min(max(headingLevel, 1), 9), text: text), &document)
            } else if !lists.isEmpty {
                let list = lists[lists.count - 1]
                let level = lists.count - 1
                var marker = ""
                if list.firstParagraph {
                    marker = numberedLevels[list.style ?? ""]?.contains(level + 1) == true ? "\(list.count)." : "•"
                    lists[lists.count - 1].firstParagraph = false
                }
                emit(.listItem(level: level, marker: marker, text: text), &document)
            } else {
                emit(.paragraph(text), &document)
            }
        case "list": _ = lists.popLast()
        case "table-cell", "covered-table-cell": tables.last?.endCell()
        case "table-row":
            tables.last?.endRow()
            if let table = tables.last, table.isFull {
                table.table.rowCountIsMinimum = true
                try reader.skip(toDepth: table.depth)
                try end("table", &document)
            }
        case "table":
            guard let done = tables.popLast() else { return }
            if let outer = tables.last, outer.inCell {
                for row in done.table.rows { outer.addParagraph(row.joined(separator: " | ")) }
            } else if isSpreadsheet && done.table.rows.isEmpty {
                emit(.paragraph("(empty)"), &document)
            } else {
                emit(.table(done.table), &document)
            }
        case "frame":
            if let depth = titleDepth, reader.depth < depth { titleDepth = nil }
        case "page":
            guard let page = slide else { return }
            document.append(.heading(level: 2, text: OfficeDocument.slideHeading(number: page.number, title: page.title)))
            for block in page.body { document.append(block) }
            slide = nil
        default: break
        }
    }

    /// Sends a finished block to the open slide (its title or body) or to the document.
    private mutating func emit(_ block: OfficeDocument.Block, _ document: inout OfficeDocument) {
        guard slide != nil else {
            document.append(block)
            return
        }
        if titleDepth != nil, case .paragraph(let text) = block {
            slide!.title.append(text)
        } else if titleDepth != nil, case .listItem(_, _, let text) = block {
            slide!.title.append(text)
        } else {
            slide!.body.append(block)
        }
    }
}
