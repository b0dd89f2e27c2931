import VignetteCore

/// An mbox mailbox: messages separated by `From ` lines (at the start or after an empty line),
/// of which the first `MailLimits.maxMessages` are shown.
struct Mailbox {
    /// The bytes read.
    let bytes: ArraySlice<UInt8>
    /// Where each message starts (its `From ` line).
    let starts: [Int]
    /// Whether the file goes on past the bytes read.
    let cut: Bool
    /// The bounds.
    let limits: MailLimits

    /// Where the messages of `bytes` start: every `From ` line at the start or after an empty
    /// line; the start of `bytes` when it does not begin with one.
    static func messageStarts(_ bytes: ArraySlice<UInt8>) -> [Int] {
        let separator = Array("From ".utf8)
        var starts: [Int] = bytes.starts(with: separator) ? [] : [bytes.startIndex]
        var lineStart = bytes.startIndex
        var previousEmpty = true
        while lineStart < bytes.endIndex {
            let newline = ByteSearch.firstIndex(of: 0x0A, in: bytes, from: lineStart)
            if previousEmpty && bytes[lineStart...].starts(with: separator) { starts.append(lineStart) }
            let end = newline ?? bytes.endIndex
            previousEmpty = end == lineStart || (end == lineStart + 1 && bytes[lineStart] == 0x0D)
            lineStart = newline.map { $0 + 1 } ?? bytes.endIndex
        }
        return starts
    }

    /// The preview of the first messages, within the request's bytes (of body text) and lines.
    func preview(request: PreviewRequest, readCut: String?) -> TextPreview {
        let total = starts.count
        let countText = cut ? "\(CountText.grouped(total))+ messages" : CountText.counted(total, "message")
        var texts: [String] = []
        var html = ""
        var budget = max(request.maxBytes, 1)
        var lines = 0
        var shown = 0
        var truncated = cut
        for (k, start) in starts.prefix(limits.maxMessages).enumerated() {
            if budget <= 0 || lines >= request.maxLines { break }
            let end = k + 1 < starts.count ? starts[k + 1] : bytes.endIndex
            let message = MailMessage(bytes[start..<end], limits: limits)
            let page = MailPage(
                message, maxBodyBytes: budget, maxBodyLines: min(limits.maxMailboxBodyLines, max(request.maxLines - lines, 1)))
            budget -= page.bodyBytesShown
            truncated = truncated || page.truncated
            let heading = "Message \(k + 1) of \(cut ? CountText.grouped(total) + "+" : CountText.grouped(total))"
            texts.append("=== \(heading) ===\n" + page.text)
            lines += texts[texts.count - 1].split(separator: "\n", omittingEmptySubsequences: false).count + 1
            html += "<section class=\"vignette-mail-message\">\n<h2>\(heading)</h2>\n\(page.html)</section>\n"
            shown += 1
        }
        var text = texts.joined(separator: "\n\n")
        var markers: [String] = []
        if shown < total { markers.append("… cut: showing the first \(CountText.grouped(shown)) of \(countText)") }
        if let readCut { markers.append(readCut) }
        for marker in markers {
            text += "\n" + marker
            html += "<p class=\"vignette-cut\">\(HTML.escape(marker))</p>\n"
        }
        if total == 0 { text = "(no messages)" }
        return TextPreview(
            title: "Mailbox, " + (total == 0 ? "empty" : countText), text: text, html: html, truncated: truncated || shown < total)
    }
}
