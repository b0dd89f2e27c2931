/// How an XLSX shows its numbers: the number format of each cell style (`xl/styles.xml`), and
/// the date system, enough to show dates, times and percentages as such.
struct SpreadsheetFormats {
    /// What a number format makes of a number.
    enum Kind: Equatable {
        /// A plain number.
        case number
        /// A percentage (the value times 100).
        case percent
        /// A calendar date.
        case date
        /// A time of day.
        case time
        /// A date and a time.
        case dateTime
    }

    /// Custom number format codes by id.
    private var codes: [Int: String] = [:]
    /// The number format id of each cell style (`cellXfs`), by index.
    private var styleFormats: [Int] = []
    /// Whether serial day 0 is 1904-01-01 (old Mac workbooks) instead of 1899-12-30.
    var uses1904 = false

    /// No styles: every number plain.
    init() {}

    /// Formats from tables already read: custom codes by id and each cell style's format id.
    init(codes: [Int: String], styleFormats: [Int]) {
        self.codes = codes
        self.styleFormats = styleFormats
    }

    /// Reads `xl/styles.xml`.
    init(_ reader: inout XMLTokenizer) throws {
        var inCellStyles = false
        while let event = try reader.next() {
            switch event {
            case .start(let tag) where tag.name == "numFmt":
                if let id = tag.attribute("numFmtId").flatMap(Int.init), let code = tag.attribute("formatCode") { codes[id] = code }
            case .start(let tag) where tag.name == "cellXfs": inCellStyles = true
            case .start(let tag) where tag.name == "xf" && inCellStyles:
                styleFormats.append(tag.attribute("numFmtId").flatMap(Int.init) ?? 0)
            case .end("cellXfs"): inCellStyles = false
            default: break
            }
        }
    }

    /// The kind of format cell style `style` uses.
    func kind(style: Int) -> Kind {
        guard style >= 0, style < styleFormats.count else { return .number }
        let id = styleFormats[style]
        switch id {
        case 9, 10: return .percent
        case 14...17, 27...31, 34...36, 50...58: return .date
        case 18...21, 32, 33, 45...47: return .time
        case 22: return .dateTime
        default: return codes[id].map(Self.kind(code:)) ?? .number
        }
    }

    /// The kind a custom format code implies (quoted text, `[…]` sections and escapes ignored).
    static func kind(code: String) -> Kind {
        var plain = ""
        var quoted = false
        var bracket = false
        var escaped = false
        for ch in code.lowercased() {
            if escaped {
                escaped = false
            } else if ch == "\\" {
                escaped = true
            } else if ch == "\"" {
                quoted.toggle()
            } else if !quoted, ch == "[" {
                bracket = true
            } else if !quoted, ch == "]" {
                bracket = false
            } else if !quoted, !bracket {
                plain.append(ch)
            }
        }
        let hasDate = plain.contains("y") || plain.contains("d")
        let hasTime = plain.contains("h") || plain.contains("s")
        switch (hasDate, hasTime) {
        case (true, true): return .dateTime
        case (true, false): return .date
        case (false, true): return .time
        default: return plain.contains("%") ? .percent : .number
        }
    }

    /// The number `raw` (as stored) shown the way cell style `style` formats it.
    func display(_ raw: String, style: Int) -> String {
        guard let value = Double(raw), value.isFinite else { return raw }
        switch kind(style: style) {
        case .number: return Self.number(value)
        case .percent: return Self.number((value * 100 * 1e9).rounded() / 1e9) + "%"
        case .date, .time, .dateTime:
            guard value >= 0, value < 2_958_466 else { return Self.number(value) }
            return dateText(value, kind: kind(style: style))
        }
    }

    /// `value` without a spurious `.0`, and without float noise (`0.30000000000000004`).
    static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        let text = value.description
        guard text.count > 17, !text.contains("e") else { return text }
        let scale = pow10(15 - Int(abs(value) >= 1 ? log10Floor(abs(value)) + 1 : 0))
        return ((value * scale).rounded() / scale).description
    }

    /// The number of decimal digits of `value` before the point, less one.
    private static func log10Floor(_ value: Double) -> Int {
        var n = 0
        var v = value
        while v >= 10 {
            v /= 10
            n += 1
        }
        return n
    }

    /// 10 to the power `n` (1 for negative `n`).
    private static func pow10(_ n: Int) -> Double {
        var out = 1.0
        for _ in 0..<max(0, n) { out *= 10 }
        return out
    }

    /// Serial day number `serial` as an ISO date, time or both.
    func dateText(_ serial: Double, kind: Kind) -> String {
        var days = Int(serial)
        var seconds = Int(((serial - Double(days)) * 86_400).rounded())
        if seconds >= 86_400 {
            days += 1
            seconds -= 86_400
        }
        let time =
            UTCDate.two(seconds / 3600) + ":" + UTCDate.two(seconds / 60 % 60) + (seconds % 60 == 0 ? "" : ":" + UTCDate.two(seconds % 60))
        if kind == .time { return time }
        let date: String
        if !uses1904 && days == 60 {
            // Lotus 1-2-3's leap day that never was, which Excel keeps.
            date = "1900-02-29"
        } else {
            // Days from 1970-01-01: serial 25569 is that day in the 1900 system (1462 less in 1904).
            let offset = uses1904 ? 24_107 : (days < 60 ? 25_568 : 25_569)
            date = UTCDate.day(days - offset)
        }
        return kind == .date ? date : date + " " + time
    }
}
