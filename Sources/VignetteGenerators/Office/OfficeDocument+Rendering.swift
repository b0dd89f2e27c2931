import VignetteCore

extension OfficeDocument {
    /// The line that ends a preview cut short.
    static let marker = "… cut: the rest of the document is not shown"

    /// The blocks as plain text and HTML, cut at `maxBytes` of text or `maxLines` lines with a
    /// visible marker; `truncated` says whether anything was left out, here or by the reader.
    func rendered(maxBytes: Int, maxLines: Int) -> (text: String, html: String, truncated: Bool) {
        var lines: [String] = []
        var html = ""
        var bytes = 0
        var shownBlocks = 0
        var previous: Block? = nil
        var partial = false
        for original in blocks {
            var block = original
            let gap = previous.map { !(Self.isListItem($0) && Self.isListItem(block)) } ?? false
            var blockLines = (gap ? [""] : []) + Self.text(block)
            var blockBytes = blockLines.reduce(0) { $0 + $1.utf8.count + 1 }
            if bytes + blockBytes > maxBytes || lines.count + blockLines.count > maxLines {
                // A table that does not fit shows the rows that do; any other block is left out
                // (unless it is the first, which is shown whole).
                guard case .table(var table) = block,
                    let kept = Self.rowsFitting(
                        table, bytes: maxBytes - bytes - Self.marker.utf8.count - 2, lines: maxLines - lines.count - (gap ? 1 : 0) - 2)
                else {
                    if shownBlocks > 0 { break }
                    lines += blockLines
                    html += Self.html(block)
                    shownBlocks += 1
                    break
                }
                table.rows = Array(table.rows.prefix(kept))
                block = .table(table)
                blockLines = (gap ? [""] : []) + Self.text(block)
                blockBytes = blockLines.reduce(0) { $0 + $1.utf8.count + 1 }
                partial = true
            }
            lines += blockLines
            html += Self.html(block)
            bytes += blockBytes
            shownBlocks += 1
            previous = block
            if partial { break }
        }
        guard shownBlocks < blocks.count || cut || partial else { return (lines.joined(separator: "\n"), html, false) }
        lines += ["", Self.marker]
        html += "<p class=\"vignette-cut\">\(HTML.escape(Self.marker))</p>\n"
        return (lines.joined(separator: "\n"), html, true)
    }

    /// How many of the table's rows fit in `bytes` and `lines` with its labels and note, or nil
    /// when not even one does. The widths of the whole table are an upper bound for fewer rows.
    static func rowsFitting(_ table: Table, bytes: Int, lines: Int) -> Int? {
        var all = tableText(table)
        var shorter = table
        shorter.rows = Array(table.rows.prefix(1))
        // The note of the cut table replaces the whole table's (if any).
        if tableNote(table) != nil { all.removeLast() }
        let fixed = (table.labelled ? 2 : 0) + 1
        let noteBytes = (tableNote(shorter)?.utf8.count ?? 0) + 1
        var used = noteBytes + all.prefix(fixed - 1).reduce(0) { $0 + $1.utf8.count + 1 }
        var kept = 0
        for line in all.dropFirst(fixed - 1) {
            guard used + line.utf8.count + 1 <= bytes, kept + fixed + 1 <= lines else { break }
            used += line.utf8.count + 1
            kept += 1
        }
        return kept > 0 ? kept : nil
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
