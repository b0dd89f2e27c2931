extension String {
    /// The string without leading and trailing characters from `set`.
    func trimming(_ set: String) -> String {
        let scalars = unicodeScalars
        let members = Set(set.unicodeScalars)
        guard let first = scalars.firstIndex(where: { !members.contains($0) }) else { return "" }
        let last = scalars.lastIndex(where: { !members.contains($0) })!
        return String(scalars[first...last])
    }

    /// The string with runs of white space (line ends included) made one space, and trimmed.
    var collapsingWhiteSpace: String {
        var out = ""
        var space = false
        for scalar in unicodeScalars {
            if scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" {
                space = !out.isEmpty
            } else {
                if space { out.append(" ") }
                space = false
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
