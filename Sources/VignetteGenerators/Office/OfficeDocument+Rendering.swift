import VignetteCore

extension OfficeDocument {
    /// The blocks as plain text and HTML, cut at `maxBytes` of text or `maxLines` lines with a
    /// visible marker; `truncated` says whether anything was left out, here or by the reader.
    func rendered(maxBytes: Int, maxLines: Int) -> (text: String, html: String, truncated: Bool) {
        var lines: [String] = []
        var html = ""
        var bytes = 0
        var shownBlocks = 0
        var previous: Block? = nil
        for block in blocks {
            var blockLines = Self.text(block)
            if let previous, !(Self.isListItem(previous) && Self.isListItem(block)) { blockLines.insert("", at: 0) }
            let blockBytes = blockLines.reduce(0) { $0 + $1.utf8.count + 1 }
            if shownBlocks > 0, bytes + blockBytes > maxBytes || lines.count + blockLines.count > maxLines { break }
            lines += blockLines
            html += Self.html(block)
            bytes += blockBytes
            shownBlocks += 1
            previous = block
        }
        guard shownBlocks < blocks.count || cut else { return (lines.joined(separator: "\n"), html, false) }
        let marker = "… cut: the rest of the document is not shown"
        lines += ["", marker]
        html += "<p class=\"vignette-cut\">\(HTML.escape(marker))</p>\n"
        return (lines.joined(separator: "\n"), html, true)
    }

    /// Whether `block` is a list item (consecutive ones are not separated by a blank line).
    private static func isListItem(_ block: Block) -> Bool {
        if case .listItem = block { return true }
        return false
    }

    /// The lines of one block: `#` before headings, markers before list items, tables aligned.
    static func text(_ block: Block) -> [String] {
        switch block {
        case .heading(let level, let text): [String(repeating: "#", count: min(max(level, 1), 6)) + " " + text]
        case .paragraph(let text): [text]
        case .listItem(let level, let marker, let text):
            [String(repeating: "  ", count: level) + (marker.isEmpty ? "  " : marker + " ") + text]
        case .table(let table): tableText(table)
        }
    }

    /// The note under a table shown only in part ("showing 200 of 1,000+ rows"), or nil.
    static func tableNote(_ table: Table) -> String? {
        var parts: [String] = []
        let rows = CountText.grouped(table.rowCount) + (table.rowCountIsMinimum ? "+" : "")
        if table.rows.count < table.rowCount || table.rowCountIsMinimum {
            parts.append("\(CountText.grouped(table.rows.count)) of \(rows) rows")
        }
        if table.columnCount > maxColumns { parts.append("\(maxColumns) of \(CountText.grouped(table.columnCount)) columns") }
        return parts.isEmpty ? nil : "… showing " + parts.joined(separator: " and ")
    }

    /// The rows, with column letters above and row numbers before them when the table is labelled.
    private static func labelledRows(_ table: Table) -> [[String]] {
        let columns = min(table.rows.map(\.count).max() ?? 0, maxColumns)
        guard table.labelled else { return table.rows }
        return [[""] + (0..<columns).map(columnName)] + table.rows.enumerated().map { [String($0.offset + 1)] + $0.element }
    }

    /// The table as aligned text lines, ` | ` between columns, and its note when cut.
    private static func tableText(_ table: Table) -> [String] {
        let rows = labelledRows(table).map { $0.map { CSVTable.textCell($0, width: CSVTable.maxColumnWidth) } }
        let columns = rows.map(\.count).max() ?? 0
        var widths = Array(repeating: 1, count: columns)
        for row in rows {
            for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) }
        }
        var lines = rows.map { row in
            var out = ""
            for i in 0..<columns {
                let cell = i < row.count ? row[i] : ""
                out += (i == 0 ? "" : " | ") + cell + String(repeating: " ", count: widths[i] - cell.count)
            }
            while out.last == " " { out.removeLast() }
            return out
        }
        if table.labelled, lines.count > 1 {
            lines.insert(widths.map { String(repeating: "-", count: $0) }.joined(separator: "-+-"), at: 1)
        }
        if let note = tableNote(table) { lines.append(note) }
        return lines
    }

    /// One block as HTML.
    static func html(_ block: Block) -> String {
        switch block {
        case .heading(let level, let text):
            let h = min(max(level, 1), 6)
            return "<h\(h)>\(HTML.escape(text))</h\(h)>\n"
        case .paragraph(let text): return "<p>\(HTML.escape(text))</p>\n"
        case .listItem(let level, let marker, let text):
            return "<p class=\"vignette-list-item\" style=\"margin-left:\(level * 2 + 1)em\">"
                + (marker.isEmpty ? "" : HTML.escape(marker) + " ") + HTML.escape(text) + "</p>\n"
        case .table(let table): return tableHTML(table)
        }
    }

    /// The table as an HTML `<table>` (labels as `<th>`), and its note when cut.
    private static func tableHTML(_ table: Table) -> String {
        func cell(_ text: String, _ tag: String) -> String {
            "<\(tag)>\(HTML.escape(text).replacingOccurrences(of: "\n", with: "<br>"))</\(tag)>"
        }
        let rows = labelledRows(table)
        var out = "<table class=\"vignette-table\">\n"
        for (i, row) in rows.enumerated() {
            let header = table.labelled && i == 0
            out +=
                "<tr>" + row.enumerated().map { cell($0.element, header || (table.labelled && $0.offset == 0) ? "th" : "td") }.joined()
                + "</tr>\n"
        }
        out += "</table>\n"
        if let note = tableNote(table) { out += "<p class=\"vignette-cut\">\(HTML.escape(note))</p>\n" }
        return out
    }
}
