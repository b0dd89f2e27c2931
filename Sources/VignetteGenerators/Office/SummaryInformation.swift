import VignetteCore

/// The document properties of a legacy Office file, from its `\u{5}SummaryInformation` stream
/// (an OLE property set: title, author, dates, counts).
struct SummaryInformation {
    /// The properties shown, in order, as label and value.
    private(set) var fields: [(label: String, value: String)] = []

    /// The property ids shown and their labels.
    private static let labels: [(id: UInt32, label: String)] = [
        (2, "Title"), (3, "Subject"), (4, "Author"), (5, "Keywords"), (6, "Comments"), (8, "Last saved by"),
        (12, "Created"), (13, "Last saved"), (14, "Pages"), (15, "Words"), (18, "Application"),
    ]

    /// Reads the property set in `bytes`; what cannot be read is left out.
    init(_ bytes: [UInt8]) {
        let b = bytes[...]
        guard b.count >= 48, CompoundFile.u16(b, 0) == 0xFFFE else { return }
        let section = Int(CompoundFile.u32(b, 44))
        guard section >= 0, section + 8 <= b.count else { return }
        let count = min(Int(CompoundFile.u32(b, section + 4)), 256)
        var values: [UInt32: String] = [:]
        for i in 0..<count {
            let entry = section + 8 + 8 * i
            guard entry + 8 <= b.count else { break }
            let id = CompoundFile.u32(b, entry)
            let at = section + Int(CompoundFile.u32(b, entry + 4))
            guard at >= section, at + 8 <= b.count else { continue }
            let type = CompoundFile.u16(b, at)
            values[id] = Self.value(b, at: at + 4, type: type)
        }
        for (id, label) in Self.labels {
            guard let value = values[id] else { continue }
            let trimmed = OfficeDocument.flattened(value)
            if !trimmed.isEmpty { fields.append((label, trimmed)) }
        }
    }

    /// The property value of `type` at `at` as text: integers, strings and dates; nil for other types.
    private static func value(_ b: ArraySlice<UInt8>, at: Int, type: UInt16) -> String? {
        switch type {
        case 2: return at + 2 <= b.count ? String(Int16(bitPattern: CompoundFile.u16(b, at))) : nil
        case 3: return at + 4 <= b.count ? String(Int32(bitPattern: CompoundFile.u32(b, at))) : nil
        case 0x1E:
            let length = min(Int(CompoundFile.u32(b, at)), 4096)
            guard at + 4 + length <= b.count else { return nil }
            var raw = Array(b[(b.startIndex + at + 4)..<(b.startIndex + at + 4 + length)])
            while raw.last == 0 { raw.removeLast() }
            // UTF-8 when it is valid, else Latin-1 (close to Windows-1252 for text).
            if let text = String(validating: raw, as: UTF8.self) { return text }
            return String(String.UnicodeScalarView(raw.map { Unicode.Scalar($0) }))
        case 0x40:
            guard at + 8 <= b.count else { return nil }
            let ticks = UInt64(CompoundFile.u32(b, at)) | UInt64(CompoundFile.u32(b, at + 4)) << 32
            // FILETIME: 100 ns ticks since 1601-01-01; 11,644,473,600 s before 1970.
            let seconds = Int(ticks / 10_000_000) - 11_644_473_600
            guard ticks > 0, seconds > -11_644_473_600 else { return nil }
            let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
            let rest = seconds - days * 86_400
            return UTCDate.day(days) + " " + UTCDate.two(rest / 3600) + ":" + UTCDate.two(rest / 60 % 60) + " UTC"
        default: return nil
        }
    }
}
