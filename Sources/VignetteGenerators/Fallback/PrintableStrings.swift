/// Runs of printable text inside binary data, like `strings(1)`.
public enum PrintableStrings {
    /// ASCII runs of at least `minimumLength` printable characters (tabs and spaces included),
    /// each cut to 120 characters, at most `limit` of them, in order of appearance.
    public static func find(in bytes: [UInt8], minimumLength: Int = 4, limit: Int = 200) -> [String] {
        var found: [String] = []
        var run: [UInt8] = []
        func flush() {
            if run.count >= minimumLength, found.count < limit {
                var s = String(decoding: run.prefix(120), as: UTF8.self)
                if run.count > 120 { s += "…" }
                found.append(s)
            }
            run.removeAll(keepingCapacity: true)
        }
        for b in bytes {
            if (0x20..<0x7F).contains(b) || b == 0x09 {
                run.append(b)
            } else {
                flush()
                if found.count >= limit { break }
            }
        }
        flush()
        return found
    }
}
