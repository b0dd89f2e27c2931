extension CSVTable {
    /// Widest column in the text table, in characters; wider cells are cut with `…`.
    static let maxColumnWidth = 40

    /// A cell as one line of the text table: breaks and tabs made visible or spaces, cut to `width`.
    static func textCell(_ cell: String, width: Int) -> String {
        var flat = ""
        for ch in cell {
            switch ch {
            case "\n": flat += "↵"
            case "\t": flat += " "
            default: flat.append(ch)
            }
        }
        return flat.count > width ? String(flat.prefix(width - 1)) + "…" : flat
    }

    /// The first `rowLimit` records (the header first) of the first `columnLimit` columns,
    /// aligned in padded columns, a line of dashes under the header.
    func text(rowLimit: Int, columnLimit: Int) -> [String] {
        let shown = rows.prefix(rowLimit).map { row in
            (0..<min(columnLimit, columnCount)).map { Self.textCell($0 < row.count ? row[$0] : "", width: Self.maxColumnWidth) }
        }
        guard let first = shown.first else { return [] }
        var widths = Array(repeating: 1, count: first.count)
        for row in shown {
            for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) }
        }
        func line(_ cells: [String]) -> String {
            var out = ""
            for (i, cell) in cells.enumerated() {
                out += i == 0 ? "" : "  "
                out += cell + String(repeating: " ", count: widths[i] - cell.count)
            }
            while out.last == " " { out.removeLast() }
            return out
        }
        var lines = [line(first), widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")]
        lines += shown.dropFirst().map(line)
        return lines
    }

    /// The same records as an HTML `<table>` with the first record as `<thead>`.
    func html(rowLimit: Int, columnLimit: Int) -> String {
        let columns = min(columnLimit, columnCount)
        func cells(_ row: [String], tag: String) -> String {
            var out = "<tr>"
            for i in 0..<columns {
                let cell = i < row.count ? row[i] : ""
                out += "<\(tag)>\(HTML.escape(cell).replacingOccurrences(of: "\n", with: "<br>"))</\(tag)>"
            }
            return out + "</tr>\n"
        }
        guard let header = rows.first else { return "<p class=\"vignette-empty\">(empty)</p>\n" }
        var out = "<table class=\"vignette-table\">\n<thead>\n" + cells(header, tag: "th") + "</thead>\n<tbody>\n"
        for row in rows.prefix(rowLimit).dropFirst() { out += cells(row, tag: "td") }
        return out + "</tbody>\n</table>\n"
    }
}
