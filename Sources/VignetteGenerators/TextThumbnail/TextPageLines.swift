/// The first lines of a text as they appear on a page: tabs expanded, control characters
/// blanked, each line cut to what a page can show.
enum TextPageLines {
    /// At most `maxLines` lines of `text`, each at most `maxColumns` columns, tabs every `tabWidth` columns.
    static func lines(of text: String, maxLines: Int, maxColumns: Int, tabWidth: Int) -> [String] {
        var out: [String] = []
        for raw in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            guard out.count < maxLines else { break }
            out.append(expand(raw, maxColumns: maxColumns, tabWidth: tabWidth))
        }
        // A final newline does not start a visible line.
        if out.count > 1, out.last == "", text.last?.isNewline == true { out.removeLast() }
        return out
    }

    /// One line with tabs expanded to spaces and control characters (C0, DEL, C1) shown as spaces.
    static func expand(_ line: Substring, maxColumns: Int, tabWidth: Int) -> String {
        var result = String.UnicodeScalarView()
        var column = 0
        for scalar in line.unicodeScalars {
            guard column < maxColumns else { break }
            switch scalar.value {
            case 0x09:
                let next = (column / tabWidth + 1) * tabWidth
                while column < next && column < maxColumns {
                    result.append(" ")
                    column += 1
                }
            case 0x00..<0x20, 0x7F..<0xA0:
                result.append(" ")
                column += 1
            case 0xFEFF:
                continue
            default:
                result.append(scalar)
                column += 1
            }
        }
        return String(result)
    }
}
