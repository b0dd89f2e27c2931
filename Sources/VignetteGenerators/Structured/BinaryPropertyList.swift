/// A summary of a binary property list (`bplist00`): object count and the top-level object,
/// with the keys and value kinds of a top-level dictionary or the items of a top-level array.
///
/// Every offset is checked against the data before use, and at most `maxEntries` entries are read.
struct BinaryPropertyList {
    /// Most top-level entries listed.
    static let maxEntries = 100
    /// Longest string value shown, in characters.
    static let maxValueLength = 60

    private let bytes: [UInt8]
    private let offsetSize: Int
    private let refSize: Int
    /// Objects in the list.
    let objectCount: Int
    private let topObject: Int
    private let tableOffset: Int

    /// Reads the trailer; nil when the data is not a consistent binary property list.
    init?(_ bytes: [UInt8]) {
        guard bytes.count >= 40, bytes.starts(with: Array("bplist".utf8)) else { return nil }
        self.bytes = bytes
        let t = bytes.count - 32
        offsetSize = Int(bytes[t + 6])
        refSize = Int(bytes[t + 7])
        guard (1...8).contains(offsetSize), (1...8).contains(refSize),
            let count = Self.bigEndian(bytes, at: t + 8, size: 8), let top = Self.bigEndian(bytes, at: t + 16, size: 8),
            let table = Self.bigEndian(bytes, at: t + 24, size: 8),
            count > 0, count <= t, top < count, table >= 8, table <= t, (t - table) / offsetSize >= count
        else { return nil }
        objectCount = count
        topObject = top
        tableOffset = table
    }

    /// The summary lines: what the top object is, then one line per entry.
    func summary() -> [String] {
        var lines = ["Objects:    \(CountText.grouped(objectCount))"]
        guard let top = offset(ofObject: topObject), let (kind, count, start) = header(at: top) else {
            return lines + ["Top level:  (unreadable)"]
        }
        lines.append("Top level:  " + describe(topObject))
        if kind == 0xD {
            var rows: [(String, String)] = []
            for k in 0..<min(count, Self.maxEntries) {
                let keyRef = reference(at: start + k * refSize)
                let valueRef = reference(at: start + (count + k) * refSize)
                rows.append((keyRef.flatMap(string(object:)) ?? "?", valueRef.map(describe) ?? "(unreadable)"))
            }
            let width = min(rows.map(\.0.count).max() ?? 0, 32)
            lines += rows.map { "  " + $0.0.padding(toLength: max(width, $0.0.count), withPad: " ", startingAt: 0) + "  " + $0.1 }
        } else if kind == 0xA || kind == 0xC {
            for k in 0..<min(count, Self.maxEntries) {
                lines.append("  [\(k)]  " + (reference(at: start + k * refSize).map(describe) ?? "(unreadable)"))
            }
        }
        if (kind == 0xD || kind == 0xA || kind == 0xC) && count > Self.maxEntries {
            lines.append("… cut: showing \(Self.maxEntries) of \(CountText.grouped(count)) entries")
        }
        return lines
    }

    /// "dictionary, 5 entries", "string \"abc\"", "integer 42", …
    func describe(_ object: Int) -> String {
        guard let at = offset(ofObject: object), let (kind, count, start) = header(at: at) else { return "(unreadable)" }
        let info = Int(bytes[at] & 0x0F)
        switch kind {
        case 0x0: return info == 0x8 ? "false" : info == 0x9 ? "true" : "null"
        case 0x1:
            guard info <= 3, let value = Self.bigEndian(bytes, at: at + 1, size: 1 << info) else { return "integer" }
            return "integer \(info == 3 ? String(Int64(bitPattern: UInt64(value))) : String(value))"
        case 0x2:
            if info == 3, let bits = Self.bigEndian(bytes, at: at + 1, size: 8) { return "real \(Double(bitPattern: UInt64(bits)))" }
            if info == 2, let bits = Self.bigEndian(bytes, at: at + 1, size: 4) { return "real \(Float(bitPattern: UInt32(bits)))" }
            return "real"
        case 0x3: return "date"
        case 0x4: return "data, " + CountText.counted(count, "byte")
        case 0x5, 0x6:
            let text = string(object: object) ?? ""
            let shown = text.count > Self.maxValueLength ? String(text.prefix(Self.maxValueLength - 1)) + "…" : text
            return "string \"\(shown)\""
        case 0x8: return "UID"
        case 0xA: return "array, " + CountText.counted(count, "item")
        case 0xC: return "set, " + CountText.counted(count, "item")
        case 0xD: return "dictionary, " + CountText.counted(count, "entry", plural: "entries")
        default: _ = start; return "unknown object type \(kind)"
        }
    }

    /// The text of a string object, nil when the object is not a readable string.
    func string(object: Int) -> String? {
        guard let at = offset(ofObject: object), let (kind, count, start) = header(at: at) else { return nil }
        if kind == 0x5, start + count <= tableOffset {
            return String(decoding: bytes[start..<(start + count)], as: UTF8.self)
        }
        if kind == 0x6, count <= tableOffset, start + 2 * count <= tableOffset {
            let units = (0..<count).map { UInt16(bytes[start + 2 * $0]) << 8 | UInt16(bytes[start + 2 * $0 + 1]) }
            return String(decoding: units, as: UTF16.self)
        }
        return nil
    }

    /// The object's type nibble, its count (length or entries), and where its payload starts.
    private func header(at offset: Int) -> (Int, Int, Int)? {
        guard offset < tableOffset else { return nil }
        let kind = Int(bytes[offset] >> 4)
        var count = Int(bytes[offset] & 0x0F)
        var start = offset + 1
        if count == 0x0F, [0x4, 0x5, 0x6, 0xA, 0xC, 0xD].contains(kind) {
            guard start < tableOffset, bytes[start] >> 4 == 0x1 else { return nil }
            let size = 1 << Int(bytes[start] & 0x0F)
            guard size <= 8, let value = Self.bigEndian(bytes, at: start + 1, size: size), value <= tableOffset else { return nil }
            count = value
            start += 1 + size
        }
        return (kind, count, start)
    }

    private func offset(ofObject object: Int) -> Int? {
        guard object >= 0, object < objectCount, let value = Self.bigEndian(bytes, at: tableOffset + object * offsetSize, size: offsetSize),
            value >= 8, value < tableOffset
        else { return nil }
        return value
    }

    private func reference(at position: Int) -> Int? {
        guard position >= 0, position + refSize <= tableOffset else { return nil }
        return Self.bigEndian(bytes, at: position, size: refSize)
    }

    /// The unsigned big-endian integer of `size` bytes at `at`, nil when out of range or over `Int.max`.
    static func bigEndian(_ bytes: [UInt8], at: Int, size: Int) -> Int? {
        guard at >= 0, size >= 1, size <= 8, at <= bytes.count - size else { return nil }
        var value: UInt64 = 0
        for k in 0..<size { value = value << 8 | UInt64(bytes[at + k]) }
        return value <= UInt64(Int.max) ? Int(value) : nil
    }
}
