import VignetteCore
import VignetteImaging

extension OfficePage {
    /// Rows on a sheet page, the header row included.
    static let sheetRows = 24.0
    /// Column widths, in widths of the digit 0: the narrowest, the widest, and an empty column's.
    static let sheetColumnDigits = (narrowest: 4.0, widest: 16.0, empty: 8.0)
    /// Most columns drawn, whatever their widths.
    static let maxSheetColumns = 60
    /// Characters of a cell measured and drawn; no cell on the page shows more.
    static let maxSheetCellLength = 60

    /// The first sheet on an A4 landscape grid, as a spreadsheet program shows it: column letters
    /// above, row numbers before, the sheets' names as tabs below; numbers, dates and times are
    /// right-aligned, other text left-aligned, each cut at its cell. Columns are as wide as their
    /// widest shown cell (within bounds), and empty columns and rows fill the rest of the page.
    static func sheet(_ document: OfficeDocument, targetPixels: Int, fonts: Fonts) throws -> Bitmap {
        var page = PageSheet(targetPixels: targetPixels, aspect: 1 / TextThumbnailGenerator.aspect, linesPerPage: sheetRows)
        let W = Double(page.canvas.width), H = Double(page.canvas.height)
        let line = Double(page.factor)
        let rowHeight = (H / sheetRows).rounded(.down)
        let size = max(1, Int(rowHeight * 0.6))
        let font = fonts.regular
        let metrics = try font.metrics(size: size)
        let digit = max(1, try font.measure("0", size: size))
        let pad = (digit * 0.5).rounded()

        var names: [String] = []
        var table: OfficeDocument.Table? = nil
        for block in document.blocks {
            switch block {
            case .heading(_, let name): names.append(name)
            case .table(let found) where table == nil && names.count <= 1: table = found
            default: break
            }
        }
        let tabHeight = names.isEmpty ? 0 : (rowHeight * 1.2).rounded()
        let gridTop = line, gridBottom = H - line - tabHeight
        let visibleRows = max(0, Int((gridBottom - gridTop) / rowHeight) - 1)
        let shown = (table?.rows ?? []).prefix(visibleRows).map { row in
            row.prefix(maxSheetColumns).map { String(OfficeDocument.flattened($0).prefix(maxSheetCellLength)) }
        }
        let labelWidth = (try font.measure(String(repeating: "0", count: max(2, String(visibleRows).count)), size: size) + 2 * pad)
            .rounded()

        var widths: [Double] = []
        var right = line + labelWidth
        let dataColumns = shown.map(\.count).max() ?? 0
        while right < W - line, widths.count < maxSheetColumns {
            var width = digit * sheetColumnDigits.empty
            if widths.count < dataColumns {
                var widest = 0.0
                for row in shown where widths.count < row.count && !row[widths.count].isEmpty {
                    widest = max(widest, try font.measure(row[widths.count], size: size))
                }
                if widest > 0 {
                    width = min(max(widest + 2 * pad, digit * sheetColumnDigits.narrowest), digit * sheetColumnDigits.widest)
                }
            }
            widths.append(width.rounded())
            right += width.rounded()
        }

        let left = line, gridRight = W - line
        page.canvas.fillRect(x: left, y: gridTop, width: gridRight - left, height: rowHeight, color: shade)
        page.canvas.fillRect(x: left, y: gridTop, width: labelWidth, height: gridBottom - gridTop, color: shade)
        for row in 1...(visibleRows + 1) {
            page.canvas.fillRect(x: left, y: gridTop + rowHeight * Double(row), width: gridRight - left, height: line, color: rule)
        }
        var edges = [left + labelWidth]
        for width in widths { edges.append(edges[edges.count - 1] + width) }
        for x in edges where x < gridRight {
            page.canvas.fillRect(x: x, y: gridTop, width: line, height: gridBottom - gridTop, color: rule)
        }

        func baseline(_ row: Int) -> Int {
            Int((gridTop + rowHeight * Double(row) + (rowHeight - metrics.lineHeight) / 2 + metrics.ascender).rounded())
        }
        func clip(_ from: Double, _ to: Double) -> Range<Int> {
            let lower = Int(from.rounded())
            return lower..<max(lower + 1, Int(min(to, gridRight).rounded()))
        }
        for (index, width) in widths.enumerated() {
            let label = OfficeDocument.columnName(index)
            let x = edges[index] + (width - (try font.measure(label, size: size))) / 2
            try page.canvas.drawText(
                label, font: font, size: size, x: x, baseline: baseline(0), color: muted, clip: clip(edges[index], edges[index + 1]))
        }
        for row in 0..<visibleRows {
            let label = String(row + 1)
            let x = left + (labelWidth - (try font.measure(label, size: size))) / 2
            try page.canvas.drawText(label, font: font, size: size, x: x, baseline: baseline(row + 1), color: muted)
        }
        for (rowIndex, row) in shown.enumerated() {
            for (column, text) in row.enumerated() where column < widths.count && !text.isEmpty {
                let cell = clip(edges[column] + pad, edges[column + 1] - pad)
                var x = edges[column] + pad
                if looksNumeric(text) { x = max(x, edges[column + 1] - pad - (try font.measure(text, size: size))) }
                try page.canvas.drawText(text, font: font, size: size, x: x, baseline: baseline(rowIndex + 1), color: ink, clip: cell)
            }
        }

        guard !names.isEmpty else { return page.finished() }
        page.canvas.fillRect(x: left, y: gridBottom, width: gridRight - left, height: tabHeight, color: shade)
        page.canvas.fillRect(x: left, y: gridBottom, width: gridRight - left, height: line, color: rule)
        var x = left + labelWidth
        let tabBaseline = Int((gridBottom + (tabHeight - metrics.lineHeight) / 2 + metrics.ascender).rounded())
        for (index, name) in names.prefix(OfficeDocument.maxSheets).enumerated() where x < gridRight {
            let text = String(name.prefix(maxSheetCellLength))
            let width = min((try font.measure(text, size: size)) + 4 * pad, (gridRight - left) / 3).rounded()
            if index == 0 {
                page.canvas.fillRect(x: x, y: gridBottom, width: width, height: tabHeight, color: .white)
            }
            page.canvas.fillRect(x: x + width, y: gridBottom, width: line, height: tabHeight, color: rule)
            try page.canvas.drawText(
                text, font: index == 0 ? fonts.bold : font, size: size, x: x + 2 * pad, baseline: tabBaseline,
                color: index == 0 ? ink : muted, clip: clip(x + pad, x + width - pad))
            x += width + line
        }
        return page.finished()
    }

    /// Whether a cell reads as a number, a date or a time (right-aligned, as spreadsheets show them).
    static func looksNumeric(_ text: String) -> Bool {
        var digits = false
        for scalar in text.unicodeScalars {
            switch scalar {
            case "0"..."9": digits = true
            case ".", ",", "-", "+", "%", "(", ")", "$", "€", "£", "¥", " ", "e", "E", ":", "/": continue
            default: return false
            }
        }
        return digits
    }
}
