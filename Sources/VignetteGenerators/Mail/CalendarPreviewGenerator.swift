import Foundation
public import VignetteCore

/// Previews of iCalendar (`.ics`): each event's summary, start, end (dates, local, UTC and
/// zoned times shown readably), location and repetition, as text and as an HTML table.
///
/// The text read is the request's bytes at most; events are cut at `maxEvents` and at the
/// request's lines, with a marker. A file with no `BEGIN:VCALENDAR` nor `BEGIN:VEVENT` is damaged.
public struct CalendarPreviewGenerator: BuiltInGenerator, PreviewGenerating {
    /// `calendar`.
    public let identifier = "calendar"
    /// iCalendar data.
    public let supportedTypes = ["com.apple.ical.ics"]
    /// Most events shown.
    public static let maxEvents = 200
    /// Most content lines read.
    static let maxContentLines = 500_000

    /// One event as shown.
    struct Event {
        /// The properties read, by name (the first of each).
        var properties: [String: ContentLine] = [:]
    }

    /// Creates the generator.
    public init() {}

    /// "Calendar, 3 events" (or `Calendar "Work", 3 events`) with the events.
    public func makePreview(for input: GeneratorInput, request: PreviewRequest) throws -> TextPreview {
        let excerpt = try TextExcerpt.read(input, request: request)
        try excerpt.declineIfBinary()
        let lines = ContentLine.lines(of: excerpt.text, maxLines: Self.maxContentLines)
        var stack: [String] = []
        var events: [Event] = []
        var current: Event? = nil
        var calendarName: String? = nil
        var sawCalendar = false
        var notes: [String] = []
        for line in lines {
            switch line.name {
            case "BEGIN":
                let component = line.value.uppercased().trimming(" \t")
                if component == "VCALENDAR" { sawCalendar = true }
                if component == "VEVENT" && current == nil { current = Event() }
                // A hostile file could open components forever; the depth is only kept for VEVENT's own properties.
                if stack.count < 64 { stack.append(component) }
            case "END":
                let component = line.value.uppercased().trimming(" \t")
                if component == "VEVENT", let event = current {
                    events.append(event)
                    current = nil
                }
                if let open = stack.lastIndex(of: component) { stack.removeSubrange(open...) }
            default:
                if stack.last == "VEVENT", current != nil, current?.properties[line.name] == nil {
                    current?.properties[line.name] = line
                } else if stack.last == "VCALENDAR", line.name == "X-WR-CALNAME", calendarName == nil {
                    calendarName = line.text
                }
            }
        }
        if let event = current {
            events.append(event)
            if !excerpt.cutAtBytes { notes.append("the last event has no END:VEVENT; the file may be cut") }
        }
        guard sawCalendar || !events.isEmpty else {
            throw VignetteError(.corrupt, "no BEGIN:VCALENDAR line: not iCalendar data")
        }
        if !excerpt.cutAtBytes && stack.contains("VCALENDAR") { notes.append("the calendar has no END:VCALENDAR; the file may be cut") }
        return render(events, name: calendarName, notes: notes, excerpt: excerpt, request: request)
    }

    /// The text and HTML of the events.
    private func render(_ events: [Event], name: String?, notes: [String], excerpt: TextExcerpt, request: PreviewRequest) -> TextPreview {
        let countText = excerpt.cutAtBytes ? "\(CountText.grouped(events.count))+ events" : CountText.counted(events.count, "event")
        var lines: [String] = []
        var html =
            "<table class=\"vignette-table\">\n<thead><tr><th>Summary</th><th>Start</th><th>End</th><th>Location</th></tr></thead>\n<tbody>\n"
        var shown = 0
        for event in events.prefix(Self.maxEvents) {
            if lines.count >= request.maxLines { break }
            let summary = event.properties["SUMMARY"]?.text ?? "(no summary)"
            let start = event.properties["DTSTART"].map(Self.readableTime)
            let end = event.properties["DTEND"].map(Self.readableTime) ?? event.properties["DURATION"].map { "after \($0.value)" }
            let location = event.properties["LOCATION"]?.text
            if !lines.isEmpty { lines.append("") }
            lines.append(summary.collapsingWhiteSpace)
            let rows: [(String, String?)] = [
                ("Start", start), ("End", end), ("Location", location?.collapsingWhiteSpace),
                ("Repeats", event.properties["RRULE"]?.value),
            ]
            for case (let label, let value?) in rows {
                lines.append("  \((label + ":").padding(toLength: 10, withPad: " ", startingAt: 0))\(value)")
            }
            html +=
                "<tr><td>\(HTML.escape(summary))</td><td>\(HTML.escape(start ?? ""))</td><td>\(HTML.escape(end ?? ""))</td><td>\(HTML.escape(location ?? ""))</td></tr>\n"
            shown += 1
        }
        html += "</tbody>\n</table>\n"
        if events.isEmpty {
            lines = ["(no events)"]
            html = "<p class=\"vignette-empty\">(no events)</p>\n"
        }
        var cuts: [String] = []
        if shown < events.count { cuts.append("the first \(CountText.grouped(shown)) of \(countText)") }
        if let byteCut = excerpt.byteCutDescription { cuts.append("the \(byteCut)") }
        if !notes.isEmpty {
            lines += [""] + notes.map { "Note: \($0)" }
            html += "<ul class=\"vignette-note\">\n" + notes.map { "<li>\(HTML.escape($0))</li>\n" }.joined() + "</ul>\n"
        }
        if !cuts.isEmpty {
            let marker = "… cut: showing " + cuts.joined(separator: " and ")
            lines.append(marker)
            html += "<p class=\"vignette-cut\">\(HTML.escape(marker))</p>\n"
        }
        let title = "Calendar" + (name.map { " \"\($0.collapsingWhiteSpace)\"" } ?? "") + ", " + countText
        return TextPreview(title: title, text: lines.joined(separator: "\n"), html: html, truncated: !cuts.isEmpty)
    }

    /// A DATE or DATE-TIME value shown readably: `2026-03-10`, `2026-03-10 14:00 UTC`,
    /// `2026-03-10 14:00 (Europe/Paris)`, `2026-03-10 14:00` (floating); anything else as written.
    static func readableTime(_ line: ContentLine) -> String {
        let value = Array(line.value.trimming(" \t").utf8)
        let digits = { (range: Range<Int>) in value[range].allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }
        let text = { (range: Range<Int>) in String(decoding: value[range], as: UTF8.self) }
        guard value.count >= 8, digits(0..<8) else { return line.value }
        let date = "\(text(0..<4))-\(text(4..<6))-\(text(6..<8))"
        if value.count == 8 { return date }
        guard value.count >= 15, value[8] == UInt8(ascii: "T"), digits(9..<15) else { return line.value }
        let utc = value.count == 16 && (value[15] | 0x20) == UInt8(ascii: "z")
        guard value.count == 15 || utc else { return line.value }
        var time = "\(text(9..<11)):\(text(11..<13))"
        if text(13..<15) != "00" { time += ":" + text(13..<15) }
        if utc { return "\(date) \(time) UTC" }
        if let zone = line.parameter("TZID") { return "\(date) \(time) (\(zone))" }
        return "\(date) \(time)"
    }
}
