/// The fields of a Debian package's `control` file (deb-control(5)): `Name: value` lines, with
/// continuation lines starting with a space or tab, ` .` for an empty line of a description.
struct DebianControl: Equatable {
    /// The fields in file order, each name with its value (continuations joined by newlines).
    let fields: [(name: String, value: String)]

    /// Parses `text`; lines that are neither a field nor a continuation are skipped.
    init(_ text: String) {
        var fields: [(name: String, value: String)] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.first == " " || line.first == "\t" {
                guard !fields.isEmpty else { continue }
                let rest = line.dropFirst()
                fields[fields.count - 1].value += "\n" + (rest == "." ? "" : String(rest))
            } else if let colon = line.firstIndex(of: ":"), !line[..<colon].isEmpty, !line[..<colon].contains(" ") {
                fields.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingLeadingSpaces()))
            }
        }
        self.fields = fields
    }

    /// The value of the field `name` (case-insensitive, as the format says), or nil.
    subscript(_ name: String) -> String? {
        fields.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    static func == (lhs: DebianControl, rhs: DebianControl) -> Bool {
        lhs.fields.elementsEqual(rhs.fields) { $0.name == $1.name && $0.value == $1.value }
    }
}

extension Substring {
    fileprivate func trimmingLeadingSpaces() -> String { String(drop { $0 == " " || $0 == "\t" }) }
}
