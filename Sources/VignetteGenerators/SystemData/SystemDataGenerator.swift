public import VignetteCore

/// Previews of compiled system data that is not text but says something readable: time zone
/// files (TZif: local time types, transitions, the rule after them) and terminfo entries (the
/// terminal's names, size, colours and capability counts).
public struct SystemDataGenerator: BuiltInGenerator, PreviewGenerating {
    /// `system-data`.
    public let identifier = "system-data"
    /// TZif and compiled terminfo.
    public let supportedTypes = ["org.iana.tzif", "org.gnu.terminfo"]
    /// Such files are a few kilobytes; anything over 1 MiB is not one.
    public let limits = GeneratorLimits(maxFileBytes: 1 << 20)
    /// Transitions listed, the last ones in the file.
    static let shownTransitions = 10

    /// Creates the generator.
    public init() {}

    /// The facts of the time zone or terminal.
    public func makePreview(for input: GeneratorInput, request: PreviewRequest) throws -> TextPreview {
        let bytes = try input.contents(limit: limits.maxFileBytes ?? .max)
        if input.type.identifier == "org.iana.tzif" { return try Self.timeZone(TimeZoneData(bytes)) }
        return Self.terminal(try TerminfoEntry(bytes))
    }

    static func timeZone(_ zone: TimeZoneData) -> TextPreview {
        func name(_ type: TimeZoneData.LocalTime) -> String {
            "\(type.abbreviation) \(TimeZoneData.offset(type.offset))" + (type.isDaylightSaving ? " (daylight saving)" : "")
        }
        var rows: [(String, String)] = [("Format", "TZif version \(zone.version)")]
        var seen: Set<String> = []
        rows.append(("Local times", zone.types.map(name).filter { seen.insert($0).inserted }.joined(separator: ", ")))
        if let first = zone.transitions.first, let last = zone.transitions.last {
            rows.append(
                ("Transitions", "\(zone.transitions.count), \(UTCDate.time(first.time)) to \(UTCDate.time(last.time)) UTC"))
        } else {
            rows.append(("Transitions", "none"))
        }
        if let rule = zone.rule { rows.append(("Rule after them", rule)) }
        let recent = zone.transitions.suffix(shownTransitions).map { "\(UTCDate.time($0.time))  \(name(zone.types[$0.type]))" }
        var title = "Time zone data, \(zone.transitions.count) transitions"
        if let rule = zone.rule { title += ", then \(rule)" }
        return preview(title: title, rows: rows, listHeading: recent.isEmpty ? nil : "Last transitions (UTC)", list: recent)
    }

    static func terminal(_ entry: TerminfoEntry) -> TextPreview {
        var rows: [(String, String)] = [("Names", entry.names.joined(separator: ", "))]
        if let columns = entry.columns { rows.append(("Columns", "\(columns)")) }
        if let lines = entry.lines { rows.append(("Lines", "\(lines)")) }
        if let colours = entry.colours { rows.append(("Colours", "\(colours)")) }
        rows.append(("Capabilities", "\(entry.booleans) booleans, \(entry.numbers) numbers, \(entry.strings) strings"))
        return preview(title: "terminfo entry: \(entry.names.first ?? "(unnamed)")", rows: rows, listHeading: nil, list: [])
    }

    static func preview(title: String, rows: [(String, String)], listHeading: String?, list: [String]) -> TextPreview {
        var text = rows.map { "\($0.0): \($0.1)" }.joined(separator: "\n") + "\n"
        var html = "<dl class=\"facts\">" + rows.map { "<dt>\(HTML.escape($0.0))</dt><dd>\(HTML.escape($0.1))</dd>" }.joined() + "</dl>\n"
        if let listHeading {
            text += "\n\(listHeading):\n" + list.map { "  \($0)\n" }.joined()
            html += "<h3>\(HTML.escape(listHeading))</h3>\n<pre>\(HTML.escape(list.joined(separator: "\n")))</pre>\n"
        }
        return TextPreview(title: title, text: text, html: html)
    }
}
