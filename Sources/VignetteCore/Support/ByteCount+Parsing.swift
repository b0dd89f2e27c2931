extension ByteCount {
    /// The number of bytes `text` names, or nil when it is not a size: `1048576`, `500M`, `2G`, `1.5GiB`, `300MB`.
    ///
    /// Like GNU coreutils: a bare number is bytes; `K`, `M`, `G`, `T` (also `KiB`…`TiB`) are powers
    /// of 1024 and `KB`, `MB`, `GB`, `TB` powers of 1000; a trailing `B` alone means bytes. Letters
    /// may be in either case. A fractional number is rounded down to whole bytes. Negative numbers,
    /// other units and sizes beyond `Int.max` are refused.
    public static func parse(_ text: String) -> Int? {
        let digits = text.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
        let unit = text.dropFirst(digits.count).lowercased()
        let parts = digits.split(separator: ".", omittingEmptySubsequences: false)
        guard !digits.isEmpty, parts.count <= 2, !parts[0].isEmpty, parts.count == 1 || !parts[1].isEmpty else { return nil }
        guard let multiplier = multipliers[unit], let whole = Int(parts[0]) else { return nil }
        let (scaled, overflow) = whole.multipliedReportingOverflow(by: multiplier)
        guard !overflow else { return nil }
        guard parts.count == 2 else { return scaled }
        // The fraction is exact to a byte for any sane size (at most 19 digits are looked at).
        guard let fraction = Double("0." + parts[1].prefix(19)) else { return nil }
        let extra = Int((fraction * Double(multiplier)).rounded(.down))
        let (total, overflowed) = scaled.addingReportingOverflow(extra)
        return overflowed ? nil : total
    }

    /// Each accepted unit, lower-cased, and the bytes it stands for.
    private static let multipliers: [String: Int] = [
        "": 1, "b": 1,
        "k": 1 << 10, "kib": 1 << 10, "kb": 1_000,
        "m": 1 << 20, "mib": 1 << 20, "mb": 1_000_000,
        "g": 1 << 30, "gib": 1 << 30, "gb": 1_000_000_000,
        "t": 1 << 40, "tib": 1 << 40, "tb": 1_000_000_000_000,
    ]
}
