import VignetteCore
import VignetteImaging

/// The first page of an `OfficeDocument` drawn as a thumbnail: a text document as an A4 page of
/// headings, paragraphs, lists and tables; a spreadsheet as its first sheet on a landscape grid
/// with column letters and row numbers (`OfficePage+Sheet`); a presentation as its first slide,
/// 16:9, with its title and text (`OfficePage+Slide`).
///
/// Like `TextThumbnailGenerator`, every size is a miniature of the same page, drawn on a
/// `PageSheet`; the text is set in DejaVu Sans (headings and titles in its bold face), without
/// font fallback or complex-script shaping. Only what fits on the page is measured and drawn.
struct OfficePage {
    /// How the document is laid out.
    enum Layout: Equatable {
        /// An A4 portrait page of flowing text.
        case text
        /// The first sheet as a grid on an A4 landscape page.
        case spreadsheet
        /// The first slide, 16:9.
        case presentation
    }

    /// The faces text is set in.
    struct Fonts {
        /// Body text.
        let regular: FontFace
        /// Headings, titles.
        let bold: FontFace
    }

    /// Body text.
    static let ink = Canvas.Color(0x24, 0x29, 0x2F)
    /// Secondary text: markers, labels, subtitles.
    static let muted = Canvas.Color(0x57, 0x60, 0x6A)
    /// Table and grid lines.
    static let rule = Canvas.Color(0xD0, 0xD7, 0xDE)
    /// Header cells.
    static let shade = Canvas.Color(0xF3, 0xF4, 0xF6)
    /// Lines of body text on a text page.
    static let linesPerPage = 34.0
    /// Characters of one word measured and drawn; a longer run without spaces is cut.
    static let maxWordLength = 300
    /// Most columns of a table drawn on a text page.
    static let maxTextTableColumns = 6

    /// `document` laid out as `layout`, its longer side `targetPixels`.
    static func draw(_ document: OfficeDocument, layout: Layout, targetPixels: Int, fonts: Fonts) throws -> Bitmap {
        switch layout {
        case .text: try textPage(document, targetPixels: targetPixels, fonts: fonts)
        case .spreadsheet: try sheet(document, targetPixels: targetPixels, fonts: fonts)
        case .presentation: try slide(document, targetPixels: targetPixels, fonts: fonts)
        }
    }

    /// Headings, paragraphs, list items and tables flowing down an A4 portrait page until it is full.
    private static func textPage(_ document: OfficeDocument, targetPixels: Int, fonts: Fonts) throws -> Bitmap {
        var page = PageSheet(targetPixels: targetPixels, aspect: TextThumbnailGenerator.aspect, linesPerPage: linesPerPage)
        let W = Double(page.canvas.width), H = Double(page.canvas.height)
        let base = max(1.0, (H / linesPerPage).rounded())
        var flow = Flow(left: (W * 0.09).rounded(), right: (W * 0.91).rounded(), y: (H * 0.06).rounded(), bottom: (H * 0.94).rounded())
        let top = flow.y
        for block in document.blocks where !flow.isFull {
            switch block {
            case .heading(let level, let text):
                let scale = level <= 1 ? 1.5 : level == 2 ? 1.25 : 1.1
                if flow.y > top { flow.y += base * 0.5 }
                try flow.paragraph(text, font: fonts.bold, size: Int(base * scale), color: ink, on: &page.canvas)
                flow.y += base * 0.2
            case .paragraph(let text):
                try flow.paragraph(text, font: fonts.regular, size: Int(base), color: ink, on: &page.canvas)
                flow.y += base * 0.45
            case .listItem(let level, let marker, let text):
                let indent = base * 1.6 * Double(min(level, 6) + 1)
                try flow.paragraph(
                    text, font: fonts.regular, size: Int(base), color: ink, indent: indent, marker: marker, on: &page.canvas)
                flow.y += base * 0.15
            case .table(let table):
                try flow.table(table, font: fonts.regular, size: Int(base * 0.9), on: &page.canvas, line: Double(page.factor))
                flow.y += base * 0.45
            }
        }
        return page.finished()
    }

    /// Text drawn down a column between `left` and `right`, from `y` until `bottom`.
    struct Flow {
        /// The column's left edge.
        let left: Double
        /// The column's right edge.
        let right: Double
        /// Where the next line's top is.
        var y: Double
        /// Where the column ends.
        let bottom: Double

        /// Whether no further line fits.
        var isFull: Bool { y >= bottom }

        /// `text` wrapped at words, `indent` in from the left, with `marker` before its first
        /// line; lines that would pass the bottom are left out and the column is then full.
        mutating func paragraph(
            _ text: String, font: FontFace, size: Int, color: Canvas.Color, indent: Double = 0, marker: String = "",
            centred: Bool = false, on canvas: inout Canvas
        ) throws {
            let metrics = try font.metrics(size: size)
            let lineHeight = max(1, (metrics.lineHeight * 1.1).rounded())
            let room = Int((bottom - y) / lineHeight)
            guard room > 0 else {
                y = bottom
                return
            }
            let x = left + indent
            let lines = try OfficePage.wrap(text, font: font, size: size, width: right - x, maxLines: room)
            let clip = Int(x)..<max(Int(x) + 1, Int(right))
            if !marker.isEmpty {
                let width = try font.measure(marker, size: size)
                try canvas.drawText(
                    marker, font: font, size: size, x: max(left, x - width - Double(size) * 0.4),
                    baseline: Int((y + metrics.ascender).rounded()), color: OfficePage.muted)
            }
            for line in lines {
                let start = centred ? x + max(0, (right - x - (try font.measure(line, size: size))) / 2) : x
                try canvas.drawText(
                    line, font: font, size: size, x: start, baseline: Int((y + metrics.ascender).rounded()), color: color, clip: clip)
                y += lineHeight
            }
            if lines.count == room, y + lineHeight > bottom { y = bottom }
        }

        /// A table of equal columns (at most `maxTextTableColumns`), each cell one line, ruled.
        mutating func table(_ table: OfficeDocument.Table, font: FontFace, size: Int, on canvas: inout Canvas, line: Double) throws {
            let columns = min(OfficePage.maxTextTableColumns, max(1, table.rows.map(\.count).max() ?? 1))
            let metrics = try font.metrics(size: size)
            let rowHeight = (metrics.lineHeight * 1.35).rounded()
            let columnWidth = (right - left) / Double(columns)
            let pad = (Double(size) * 0.35).rounded()
            let top = y
            for row in table.rows {
                guard y + rowHeight <= bottom else { break }
                canvas.fillRect(x: left, y: y, width: right - left, height: line, color: OfficePage.rule)
                let baseline = Int((y + (rowHeight - metrics.lineHeight) / 2 + metrics.ascender).rounded())
                for (index, cell) in row.prefix(columns).enumerated() where !cell.isEmpty {
                    let x = left + Double(index) * columnWidth
                    let clip = Int(x + pad)..<max(Int(x + pad) + 1, Int(x + columnWidth - pad))
                    let text = OfficeDocument.flattened(cell)
                    try canvas.drawText(text, font: font, size: size, x: x + pad, baseline: baseline, color: OfficePage.ink, clip: clip)
                }
                y += rowHeight
            }
            guard y > top else { return }
            canvas.fillRect(x: left, y: y, width: right - left, height: line, color: OfficePage.rule)
            for index in 0...columns {
                let x = index == columns ? right - line : left + Double(index) * columnWidth
                canvas.fillRect(x: x, y: top, width: line, height: y - top + line, color: OfficePage.rule)
            }
            y += line
        }
    }

    /// `text` broken at spaces, and between Chinese, Japanese and Korean characters, into at
    /// most `maxLines` lines no wider than `width` (a word wider than that is a line of its own,
    /// cut when drawn). Words are measured one by one, and only until the lines are filled.
    static func wrap(_ text: String, font: FontFace, size: Int, width: Double, maxLines: Int) throws -> [String] {
        guard maxLines > 0 else { return [] }
        let space = try font.measure(" ", size: size)
        var lines: [String] = []
        var current = ""
        var currentWidth = 0.0
        for whole in text.split(whereSeparator: \.isWhitespace) {
            // No page line holds more; this bounds the measuring of a run without spaces.
            for (index, piece) in breakablePieces(whole.prefix(maxWordLength)).enumerated() {
                let gap = index == 0 ? space : 0
                let w = try font.measure(String(piece), size: size)
                if current.isEmpty {
                    current = String(piece)
                    currentWidth = w
                } else if currentWidth + gap + w <= width {
                    current += (index == 0 ? " " : "") + piece
                    currentWidth += gap + w
                } else {
                    lines.append(current)
                    if lines.count == maxLines { return lines }
                    current = String(piece)
                    currentWidth = w
                }
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }

    /// `word` cut where a line may break inside it: before and after each ideograph, kana or
    /// Hangul syllable (Unicode's line-breaking class ID, roughly), except before closing
    /// punctuation such as 、。）」, which stays with what it closes. Other words stay whole.
    static func breakablePieces(_ word: Substring) -> [Substring] {
        guard word.unicodeScalars.contains(where: isIdeographic) else { return [word] }
        var pieces: [Substring] = []
        var start = word.startIndex
        var previousIdeographic = false
        for index in word.indices where index > word.startIndex {
            let scalar = word[index].unicodeScalars.first!
            let ideographic = isIdeographic(scalar)
            if (ideographic || previousIdeographic) && !closesPhrase(scalar) {
                pieces.append(word[start..<index])
                start = index
            }
            previousIdeographic = ideographic
        }
        pieces.append(word[start...])
        return pieces
    }

    /// Whether a line may break on either side of `scalar`: CJK ideographs, kana, Hangul,
    /// Yi, and their fullwidth and compatibility forms.
    static func isIdeographic(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x2E80...0x2FFF, 0x3040...0x30FF, 0x3100...0x31FF, 0x3200...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xAC00...0xD7AF, 0xF900...0xFAFF, 0xFF01...0xFF60, 0x20000...0x3FFFF:
            return true
        default:
            return false
        }
    }

    /// Whether no line may start with `scalar` (closing and stop punctuation, small kana marks).
    static func closesPhrase(_ scalar: Unicode.Scalar) -> Bool {
        "、。，．：；！？）］｝」』】〉》〕ー々ゝゞヽヾ,.:;!?)]}".unicodeScalars.contains(scalar)
    }
}
