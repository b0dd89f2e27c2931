import Foundation
import VignetteCore

/// One message laid out for a preview: the header block, the body text cut to a budget, the
/// attachment list and the notes, as plain text and as an HTML fragment.
struct MailPage {
    /// Header fields shown, in this order, when present.
    static let shownFields = ["Subject", "From", "To", "Cc", "Date"]
    /// Longest attachment name before the column is cut (text rendering).
    static let nameColumn = 40
    /// Attachments listed at most; a line says how many more there are.
    static let maxAttachments = 100

    /// Body lines a preview of `maxLines` lines leaves, once the header rows, `attachments`
    /// attachment lines and `notes` notes are counted (at least one).
    static func bodyLines(within maxLines: Int, attachments: Int, notes: Int) -> Int {
        max(maxLines - (shownFields.count + attachments + notes + 6), 1)
    }

    /// `subject` for a preview's title: "(no subject)" when there is none, cut with `…` at
    /// `MailPreviewGenerator.maxTitleSubject` characters.
    static func titleSubject(_ subject: String?) -> String {
        let limit = MailPreviewGenerator.maxTitleSubject
        guard let subject, !subject.isEmpty else { return "(no subject)" }
        return subject.count > limit ? String(subject.prefix(limit - 1)) + "…" : subject
    }

    /// The plain-text rendering.
    let text: String
    /// The HTML rendering.
    let html: String
    /// Whether the body was cut to the budget.
    let truncated: Bool
    /// Bytes of body text shown (UTF-8), counted against a mailbox's budget.
    let bodyBytesShown: Int

    /// Lays out `message`, its body cut at `maxBodyBytes` bytes and `maxBodyLines` lines.
    init(_ message: MailMessage, maxBodyBytes: Int, maxBodyLines: Int) {
        self.init(
            rows: Self.shownFields.compactMap { name in message.header.joinedText(name).map { (name, $0) } },
            bodyParts: message.bodyParts, attachments: message.attachments, notes: message.notes, maxBodyBytes: maxBodyBytes,
            maxBodyLines: maxBodyLines)
    }

    /// Lays out a message given as its header rows (name, value), body parts, attachments and
    /// notes, the body cut at `maxBodyBytes` bytes and `maxBodyLines` lines.
    init(
        rows: [(String, String)], bodyParts: [MailMessage.BodyPart], attachments: [MailMessage.Attachment], notes: [String],
        maxBodyBytes: Int, maxBodyLines: Int
    ) {
        var lines = rows.map { "\(($0.0 + ":").padding(toLength: 9, withPad: " ", startingAt: 0))\($0.1)" }
        var html = "<table class=\"vignette-mail-headers\">\n"
        for (name, value) in rows { html += "<tr><th>\(name)</th><td>\(HTML.escape(value))</td></tr>\n" }
        html += "</table>\n"

        let body = Self.plainBody(bodyParts)
        let (shown, cutMarker) = Self.cut(body, maxBytes: maxBodyBytes, maxLines: maxBodyLines)
        lines.append("")
        lines.append(shown.isEmpty ? "(no text in the body)" : shown)
        if let cutMarker { lines.append(cutMarker) }
        if shown.isEmpty {
            html += "<p class=\"vignette-empty\">(no text in the body)</p>\n"
        } else if cutMarker == nil && bodyParts.contains(where: \.isHTML) {
            for part in bodyParts {
                html +=
                    part.isHTML
                    ? "<div class=\"vignette-mail-body\">\(HTMLSanitizer.sanitize(part.text))</div>\n"
                    : "<pre class=\"vignette-mail-body\">\(HTML.escape(Self.trimmedLines(part.text)))</pre>\n"
            }
        } else {
            html += "<pre class=\"vignette-mail-body\">\(HTML.escape(shown))</pre>\n"
        }
        if let cutMarker { html += "<p class=\"vignette-cut\">\(HTML.escape(cutMarker))</p>\n" }

        if !attachments.isEmpty {
            let count = attachments.count
            lines.append("")
            lines.append("Attachments (\(count)):")
            let listed = attachments.prefix(Self.maxAttachments)
            let more = count > listed.count ? "… and \(CountText.grouped(count - listed.count)) more" : nil
            let names = listed.map(\.name)
            let width = min(Self.nameColumn, names.map(\.count).max() ?? 0)
            let typeWidth = listed.map(\.type.count).max() ?? 0
            for (item, fullName) in zip(listed, names) {
                let name = fullName.count > width ? String(fullName.prefix(width - 1)) + "…" : fullName
                let padded = name.padding(toLength: width, withPad: " ", startingAt: 0)
                lines.append(
                    "  \(padded)  \(item.type.padding(toLength: typeWidth, withPad: " ", startingAt: 0))  \(ByteCount.text(item.size))")
            }
            html += "<h3>Attachments (\(count))</h3>\n<table class=\"vignette-table\">\n"
            html += "<thead><tr><th>Name</th><th>Type</th><th>Size</th></tr></thead>\n<tbody>\n"
            for (item, name) in zip(listed, names) {
                html +=
                    "<tr><td>\(HTML.escape(name))</td><td>\(HTML.escape(item.type))</td><td>\(ByteCount.text(item.size))</td></tr>\n"
            }
            html += "</tbody>\n</table>\n"
            if let more {
                lines.append("  " + more)
                html += "<p class=\"vignette-cut\">\(HTML.escape(more))</p>\n"
            }
        }
        if !notes.isEmpty {
            lines.append("")
            lines.append("Notes:")
            lines += notes.map { "  - \($0)" }
            html += "<ul class=\"vignette-note\">\n" + notes.map { "<li>\(HTML.escape($0))</li>\n" }.joined() + "</ul>\n"
        }
        text = lines.joined(separator: "\n")
        self.html = html
        truncated = cutMarker != nil
        bodyBytesShown = shown.utf8.count
    }

    /// The readable text of the body: plain parts as written, HTML parts as the text a reader sees.
    static func plainBody(_ parts: [MailMessage.BodyPart]) -> String {
        parts.map { part in
            trimmedLines(part.isHTML ? MarkupText(part.text, html: true).text : part.text)
        }.filter { !$0.isEmpty }.joined(separator: "\n\n")
    }

    /// `text` without trailing white space on its lines, nor empty lines at either end.
    static func trimmedLines(_ text: String) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            var line = Substring(line)
            while let last = line.last, last == " " || last == "\t" { line.removeLast() }
            return line
        }
        while let first = lines.first, first.isEmpty { lines.removeFirst() }
        while let last = lines.last, last.isEmpty { lines.removeLast() }
        return lines.joined(separator: "\n")
    }

    /// `text` cut to `maxBytes` UTF-8 bytes (at a character) and `maxLines` lines, and the marker saying so.
    static func cut(_ text: String, maxBytes: Int, maxLines: Int) -> (String, String?) {
        var shown = Substring(text)
        var marker: String? = nil
        let total = text.utf8.count
        if total > maxBytes {
            let scalars = text.unicodeScalars
            var used = 0
            var end = scalars.startIndex
            while end < scalars.endIndex {
                let width = UTF8.width(scalars[end])
                if used + width > maxBytes { break }
                used += width
                end = scalars.index(after: end)
            }
            shown = text[..<end]
            marker = "… body cut: showing the first \(ByteCount.text(shown.utf8.count)) of \(ByteCount.text(total)) of text"
        }
        var count = 0
        var index = shown.startIndex
        while let newline = shown[index...].firstIndex(of: "\n") {
            count += 1
            if count == max(maxLines, 1) {
                let totalLines = text.split(separator: "\n", omittingEmptySubsequences: false).count
                shown = shown[..<newline]
                marker = "… body cut: showing the first \(CountText.grouped(count)) of \(CountText.counted(totalLines, "line"))"
                break
            }
            index = shown.index(after: newline)
        }
        return (String(shown), marker)
    }
}
