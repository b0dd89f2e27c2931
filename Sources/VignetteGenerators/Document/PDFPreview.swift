import Foundation
import VignetteCore
import VignetteImaging

/// A PDF's contents as a text preview: the facts, then each page's text (paragraphs kept).
struct PDFPreview {
    let contents: PDFContents

    init(_ contents: PDFContents) { self.contents = contents }

    /// The facts as label and value, in the order shown; absent ones left out.
    var facts: [(String, String)] {
        var rows: [(String, String)] = []
        let c = contents
        if let title = c.title { rows.append(("Title", title)) }
        if let author = c.author { rows.append(("Author", author)) }
        if let subject = c.subject { rows.append(("Subject", subject)) }
        if let keywords = c.keywords { rows.append(("Keywords", keywords)) }
        rows.append(("Pages", CountText.grouped(c.pageCount)))
        if let size = c.pageSize { rows.append(("Page size", Self.pageSize(size.width, size.height))) }
        if let version = c.version { rows.append(("PDF version", version.replacingOccurrences(of: "PDF-", with: ""))) }
        if let created = c.created { rows.append(("Created", Self.date(created))) }
        if let modified = c.modified { rows.append(("Modified", Self.date(modified))) }
        if let creator = c.creator { rows.append(("Creator", creator)) }
        if let producer = c.producer { rows.append(("Producer", producer)) }
        return rows
    }

    /// Each page's paragraphs (split at blank lines), a word hyphenated at a line's end joined
    /// again as pdftotext joins it ("taki-" + "mata" is "takimata").
    var pages: [[String]] {
        contents.pages.map { page in
            var paragraphs: [String] = []
            var lines: [String] = []
            for line in page.split(separator: "\n", omittingEmptySubsequences: false) {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.isEmpty {
                    if !lines.isEmpty { paragraphs.append(lines.joined(separator: "\n")) }
                    lines = []
                } else if let last = lines.last, Self.endsHyphenated(last) {
                    lines[lines.count - 1] = String(last.dropLast()) + trimmed
                } else {
                    lines.append(trimmed)
                }
            }
            if !lines.isEmpty { paragraphs.append(lines.joined(separator: "\n")) }
            return paragraphs
        }
    }

    /// Whether `line` ends in a word broken by a hyphen: a letter, then `-`.
    static func endsHyphenated(_ line: String) -> Bool {
        let scalars = line.unicodeScalars
        guard scalars.last == "-", scalars.count >= 2 else { return false }
        return CharacterSet.letters.contains(scalars[scalars.index(scalars.endIndex, offsetBy: -2)])
    }

    /// The marker when the text stops before the document does.
    var cutMarker: String? {
        guard contents.textIsCut else { return nil }
        let shown = contents.pages.count
        return "… cut: showing the text of the first \(CountText.counted(shown, "page")) of \(CountText.grouped(contents.pageCount))"
    }

    /// The preview.
    var preview: TextPreview {
        let pageCount = CountText.counted(contents.pageCount, "page")
        let title = contents.title.map { "PDF: \($0), \(pageCount)" } ?? "PDF document, \(pageCount)"
        let paged = pages
        var text = facts.map { "\($0.0): \($0.1)" }.joined(separator: "\n") + "\n"
        var html = "<dl class=\"facts\">"
        for (label, value) in facts { html += "<dt>\(HTML.escape(label))</dt><dd>\(HTML.escape(value))</dd>" }
        html += "</dl>\n"
        let hasText = paged.contains { !$0.isEmpty }
        if !hasText && !contents.pages.isEmpty {
            let read = contents.pages.count == 1 ? "page 1" : "the first \(CountText.counted(contents.pages.count, "page"))"
            text += "\n(no text on \(read): scanned or drawn pages)\n"
            html += "<p class=\"note\">No text on \(read): scanned or drawn pages.</p>\n"
        } else {
            for (index, paragraphs) in paged.enumerated() {
                text += "\n── Page \(index + 1) ──\n" + paragraphs.joined(separator: "\n\n") + "\n"
                html += "<section class=\"page\"><h3>Page \(index + 1)</h3>"
                for paragraph in paragraphs {
                    html += "<p>" + paragraph.split(separator: "\n").map { HTML.escape(String($0)) }.joined(separator: "<br>") + "</p>"
                }
                html += "</section>\n"
            }
        }
        if let marker = cutMarker {
            text += "\n\(marker)\n"
            html += "<p class=\"cut\">\(HTML.escape(marker))</p>\n"
        }
        return TextPreview(title: title, text: text, html: html, truncated: contents.textIsCut)
    }

    /// `595 × 842 pt (A4)`, naming the common paper sizes either way up.
    static func pageSize(_ width: Double, _ height: Double) -> String {
        let w = Int(width.rounded()), h = Int(height.rounded())
        let named: [(String, Int, Int)] = [
            ("A3", 842, 1191), ("A4", 595, 842), ("A5", 420, 595), ("Letter", 612, 792), ("Legal", 612, 1008), ("Tabloid", 792, 1224),
        ]
        let name = named.first { abs($0.1 - min(w, h)) <= 2 && abs($0.2 - max(w, h)) <= 2 }.map {
            w > h ? " (\($0.0), landscape)" : " (\($0.0))"
        }
        return "\(w) × \(h) pt" + (name ?? "")
    }

    /// `2024-03-01 14:05 UTC`, without a locale's formatter.
    static func date(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday)) \(two(parts.tm_hour)):\(two(parts.tm_min)) UTC"
    }
}
