import VignetteCore

/// Reads the first sheets of an XLSX as tables: sheet names and order from `xl/workbook.xml`,
/// text from the shared strings, numbers and dates formatted by the cell styles.
///
/// Reading a sheet stops at `OfficeDocument.maxRows` rows; cells right of
/// `OfficeDocument.maxColumns` are counted, not kept.
struct SpreadsheetReader {
    /// Most shared strings kept; cells pointing further show as `…`.
    static let maxSharedStrings = 1_000_000
    /// The last row number a sheet can have (Excel's grid is 1,048,576 rows).
    static let maxRowNumber = 1 << 20

    /// Reads up to `OfficeDocument.maxSheets` visible sheets of `package` into `document`.
    static func read(_ package: OfficePackage, into document: inout OfficeDocument) throws {
        var workbook = try package.requiredXML("xl/workbook.xml")
        var sheets: [(name: String, id: String)] = []
        var formats = SpreadsheetFormats()
        var uses1904 = false
        while let event = try workbook.next() {
            guard case .start(let tag) = event else { continue }
            if tag.name == "workbookPr", let flag = tag.attribute("date1904") { uses1904 = flag == "1" || flag == "true" }
            if tag.name == "sheet", tag.attribute("state") ?? "visible" == "visible", let id = tag.prefixedAttribute("id") {
                sheets.append((tag.attribute("name") ?? "Sheet \(sheets.count + 1)", id))
            }
        }
        if var styles = try package.xml("xl/styles.xml") { formats = try SpreadsheetFormats(&styles) }
        formats.uses1904 = uses1904
        let targets = try package.relationships(of: "xl/workbook.xml")

        let names = sheets.map(\.name)
        document.summary.append(CountText.counted(sheets.count, "sheet") + (sheets.isEmpty ? "" : ": " + Self.list(names)))
        // The sheets first, then only as many shared strings as their kept cells point to.
        var tables: [(name: String, table: OfficeDocument.Table?, references: [Reference])] = []
        for (name, id) in sheets.prefix(OfficeDocument.maxSheets) {
            guard let target = targets[id], var reader = try package.xmlPrefix(target) else {
                tables.append((name, nil, []))
                continue
            }
            let (table, references) = try sheet(&reader, formats: formats)
            tables.append((name, table, references))
        }
        let needed = tables.flatMap(\.references).map(\.index).max().map { $0 + 1 } ?? 0
        let strings = try sharedStrings(package, count: min(needed, maxSharedStrings))
        for (name, table, references) in tables {
            guard !document.isFull else { break }
            document.append(.heading(level: 2, text: name))
            guard var table else {
                document.append(.paragraph("(the sheet's part is missing)"))
                continue
            }
            for reference in references {
                table.rows[reference.row][reference.column] =
                    reference.index < strings.count ? strings[reference.index] : "…"
            }
            if table.rows.isEmpty { document.append(.paragraph("(empty)")) } else { document.append(.table(table)) }
        }
        if sheets.count > OfficeDocument.maxSheets { document.cut = true }
    }

    /// Names joined with commas, the first five and a count of the rest.
    static func list(_ names: [String]) -> String {
        names.count <= 5 ? names.joined(separator: ", ") : names.prefix(5).joined(separator: ", ") + " and \(names.count - 5) more"
    }

    /// A kept cell holding shared string `index`, by its place in the table's rows.
    private struct Reference {
        var row: Int
        var column: Int
        var index: Int
    }

    /// The first `count` shared strings.
    private static func sharedStrings(_ package: OfficePackage, count: Int) throws -> [String] {
        guard count > 0, var reader = try package.xmlPrefix("xl/sharedStrings.xml") else { return [] }
        var out: [String] = []
        var current = ""
        while out.count < count, let event = try reader.next() {
            guard case .start(let tag) = event else {
                if case .end("si") = event { out.append(current) }
                continue
            }
            switch tag.name {
            case "si": current = ""
            case "t": current += try reader.textContent(limit: OfficeDocument.maxCellLength)
            // Phonetic guides repeat the text in another script.
            case "rPh": try reader.skipElement()
            default: break
            }
        }
        return out
    }

    /// The column index of a cell reference (`C7` is 2), or nil.
    static func column(_ reference: String) -> Int? {
        var n = 0
        var letters = 0
        for byte in reference.utf8 {
            let upper = byte & ~0x20
            guard upper >= 65, upper <= 90 else { break }
            n = n * 26 + Int(upper - 64)
            letters += 1
            if letters > 3 { return nil }
        }
        return letters == 0 ? nil : n - 1
    }

    /// The rows and columns of a range (`A1:D20` is 20 × 4), or nil.
    static func size(ofRange range: String) -> (rows: Int, columns: Int)? {
        let ends = range.split(separator: ":")
        guard let last = ends.last, let column = column(String(last)),
            let row = Int(last.drop { !$0.isNumber })
        else { return nil }
        return (row, column + 1)
    }

    /// Reads one worksheet part: its kept rows, with placeholders for shared strings and where they go.
    private static func sheet(_ reader: inout XMLTokenizer, formats: SpreadsheetFormats) throws -> (OfficeDocument.Table, [Reference]) {
        var table = OfficeDocument.Table(labelled: true)
        var references: [Reference] = []
        var rowReferences: [(column: Int, index: Int)] = []
        var declared: (rows: Int, columns: Int)? = nil
        var row: [String] = []
        var rowNumber = 0
        var nextColumn = 0
        var stopped = false
        while let event = try reader.next() {
            guard case .start(let tag) = event else {
                if case .end("row") = event {
                    while let last = row.last, last.isEmpty { row.removeLast() }
                    if !row.isEmpty {
                        // Rows left out between two with content show as empty rows.
                        while table.rows.count < rowNumber - 1, table.rows.count < OfficeDocument.maxRows { table.rows.append([]) }
                        if table.rows.count < OfficeDocument.maxRows {
                            references += rowReferences.map { Reference(row: table.rows.count, column: $0.column, index: $0.index) }
                            table.rows.append(row)
                        }
                        table.rowCount = max(table.rowCount, rowNumber)
                    }
                    if table.rows.count >= OfficeDocument.maxRows {
                        stopped = true
                        break
                    }
                }
                continue
            }
            switch tag.name {
            case "dimension": declared = tag.attribute("ref").flatMap(Self.size(ofRange:))
            case "row":
                rowNumber = min(max(tag.attribute("r").flatMap(Int.init) ?? rowNumber + 1, 1), Self.maxRowNumber)
                row = []
                rowReferences = []
                nextColumn = 0
            case "c":
                let index = tag.attribute("r").flatMap(Self.column) ?? nextColumn
                nextColumn = index + 1
                let (value, shared) = try cell(tag, &reader, formats: formats)
                guard !value.isEmpty else { continue }
                table.columnCount = max(table.columnCount, index + 1)
                if index < OfficeDocument.maxColumns {
                    while row.count < index { row.append("") }
                    if let shared { rowReferences.append((row.count, shared)) }
                    row.append(OfficeDocument.cell(value))
                }
            default: break
            }
        }
        if stopped || reader.isPartial {
            if let declared {
                table.rowCount = max(table.rowCount, declared.rows)
                table.columnCount = max(table.columnCount, declared.columns)
            } else {
                table.rowCountIsMinimum = true
            }
        }
        return (table, references)
    }

    /// The cell's text, or for a shared string a placeholder and the string's index.
    private static func cell(
        _ tag: XMLTokenizer.Tag, _ reader: inout XMLTokenizer, formats: SpreadsheetFormats
    ) throws -> (String, Int?) {
        var value: String? = nil
        var inline = ""
        let depth = reader.depth - 1
        while reader.depth > depth, let event = try reader.next() {
            guard case .start(let child) = event else { continue }
            switch child.name {
            case "v": value = try reader.textContent(limit: OfficeDocument.maxCellLength)
            case "t": inline += try reader.textContent(limit: OfficeDocument.maxCellLength)
            case "f", "rPh", "extLst": try reader.skipElement()
            default: break
            }
        }
        switch tag.attribute("t") ?? "n" {
        case "s":
            guard let index = value.flatMap(Int.init), index >= 0 else { return ("", nil) }
            return ("…", index)
        case "inlineStr": return (inline, nil)
        case "b": return (value == "1" ? "TRUE" : value == nil ? "" : "FALSE", nil)
        case "n": return (value.map { formats.display($0, style: tag.attribute("s").flatMap(Int.init) ?? 0) } ?? "", nil)
        default: return (value ?? inline, nil)
        }
    }
}
