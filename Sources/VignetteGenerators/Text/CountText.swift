/// Numbers and counted nouns as titles and markers show them ("58,112 lines", "1 column").
public enum CountText {
    /// `value` with a comma between each group of three digits ("58,112").
    public static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (i, ch) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(ch)
        }
        return value < 0 ? "-" + out : out
    }

    /// `count` and the noun, plural unless the count is one ("1 line", "2,000 lines").
    public static func counted(_ count: Int, _ singular: String, plural: String? = nil) -> String {
        "\(grouped(count)) \(count == 1 ? singular : plural ?? singular + "s")"
    }

    /// `text` with its first letter in capitals ("shell script" → "Shell script").
    public static func capitalizedFirst(_ text: String) -> String {
        guard let first = text.first else { return text }
        return first.uppercased() + text.dropFirst()
    }
}
