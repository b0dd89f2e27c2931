/// One content line of iCalendar (RFC 5545) or vCard (RFC 6350, and 2.1): `NAME;PARAM=V:VALUE`,
/// with the reader of a whole text into unfolded lines.
struct ContentLine: Equatable {
    /// The property name, upper-cased, without a group prefix (`EMAIL` of `item1.EMAIL`).
    let name: String
    /// Parameters by upper-cased name, each a list of values; vCard 2.1's bare ones (`TEL;WORK;VOICE:`) are `TYPE`s.
    let parameters: [String: [String]]
    /// The value as written (escapes still in).
    let value: String

    /// Longest unfolded line kept, in characters; the rest is dropped.
    static let maxLength = 16_000

    /// The unfolded content lines of `text` (lines begun by a space or tab continue the one
    /// before; a vCard 2.1 quoted-printable value ending in `=` goes on with the next line).
    /// Lines that are not `NAME…:VALUE` are skipped; at most `maxLines` are read.
    static func lines(of text: String, maxLines: Int) -> [ContentLine] {
        var logical: [Substring] = []
        var current = ""
        var hasCurrent = false
        // Whether the line's name and parameters ask for quoted-printable (decided once per line).
        var quotedPrintable = false
        func finish() {
            if hasCurrent { logical.append(Substring(current)) }
            current = ""
            hasCurrent = false
        }
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if logical.count >= maxLines { break }
            var line = raw
            if line.last == "\r" { line = line.dropLast() }
            if let first = line.first, first == " " || first == "\t", hasCurrent {
                if current.utf8.count < maxLength { current += line.dropFirst() }
            } else if hasCurrent, quotedPrintable, current.hasSuffix("=") {
                current.removeLast()
                if current.utf8.count < maxLength { current += line }
            } else {
                finish()
                current = String(line.prefix(maxLength))
                hasCurrent = !line.isEmpty
                let head = line.prefix(256).prefix { $0 != ":" }
                quotedPrintable = head.uppercased().contains("QUOTED-PRINTABLE")
            }
        }
        finish()
        return logical.compactMap(ContentLine.init)
    }

    /// Parses one unfolded line; nil when it has no `:` after a name.
    init?(_ line: Substring) {
        var name = ""
        var parameters: [String: [String]] = [:]
        var index = line.startIndex
        while index < line.endIndex, line[index] != ";", line[index] != ":" {
            name.append(line[index])
            index = line.index(after: index)
        }
        // Parameters: `;KEY=V1,"V2"` or bare `;WORK`, up to the first `:` outside quotes.
        while index < line.endIndex, line[index] == ";" {
            index = line.index(after: index)
            var key = ""
            var values: [String] = []
            var current = ""
            var quoted = false
            var sawEquals = false
            while index < line.endIndex {
                let ch = line[index]
                if ch == "\"" {
                    quoted.toggle()
                } else if !quoted && (ch == ";" || ch == ":") {
                    break
                } else if !quoted && ch == "=" && !sawEquals {
                    sawEquals = true
                } else if !quoted && ch == "," && sawEquals {
                    values.append(current)
                    current = ""
                } else if sawEquals {
                    current.append(ch)
                } else {
                    key.append(ch)
                }
                index = line.index(after: index)
            }
            if sawEquals {
                values.append(current)
                parameters[key.uppercased(), default: []] += values
            } else if !key.isEmpty {
                parameters["TYPE", default: []].append(key)
            }
        }
        guard index < line.endIndex, line[index] == ":", !name.isEmpty else { return nil }
        if let dot = name.lastIndex(of: ".") { name = String(name[name.index(after: dot)...]) }
        self.name = name.uppercased()
        self.parameters = parameters
        self.value = String(line[line.index(after: index)...])
    }

    /// The first value of parameter `key` (upper-case), or nil.
    func parameter(_ key: String) -> String? { parameters[key]?.first }

    /// The value as text: quoted-printable (vCard 2.1) undone in its `CHARSET`, escapes `\n \, \; \\` undone.
    var text: String {
        Self.unescape(decodedValue[...])
    }

    /// The value split at unescaped `;` (structured values such as `N` and `ADR`), each part unescaped.
    var components: [String] {
        var parts: [String] = []
        var current = ""
        var escaped = false
        for ch in decodedValue {
            if escaped {
                current.append("\\")
                current.append(ch)
                escaped = false
            } else if ch == "\\" {
                escaped = true
            } else if ch == ";" {
                parts.append(Self.unescape(current[...]))
                current = ""
            } else {
                current.append(ch)
            }
        }
        parts.append(Self.unescape(current[...]))
        return parts
    }

    /// The type parameters, lower-cased and split (`TYPE=work,voice` and `TYPE=WORK;TYPE=CELL` alike), `pref` left out.
    var types: [String] {
        (parameters["TYPE"] ?? []).flatMap { $0.split(separator: ",") }.map { $0.lowercased() }
            .filter { !["pref", "internet", "quoted-printable", "base64", "b", ""].contains($0) }
    }

    /// The value with vCard 2.1 quoted-printable undone.
    private var decodedValue: String {
        let encoding = (parameter("ENCODING") ?? "").uppercased()
        let bare = (parameters["TYPE"] ?? []).contains { $0.uppercased() == "QUOTED-PRINTABLE" }
        guard encoding == "QUOTED-PRINTABLE" || bare else { return value }
        let bytes = TransferDecoding.quotedPrintable(Array(value.utf8)[...])
        return MailCharset.decode(bytes[...], charset: parameter("CHARSET") ?? "UTF-8")
    }

    /// `text` with the escapes `\n`, `\N`, `\,`, `\;` and `\\` undone.
    static func unescape(_ text: Substring) -> String {
        guard text.contains("\\") else { return String(text) }
        var out = ""
        var escaped = false
        for ch in text {
            if escaped {
                out.append(ch == "n" || ch == "N" ? "\n" : ch)
                escaped = false
            } else if ch == "\\" {
                escaped = true
            } else {
                out.append(ch)
            }
        }
        return out
    }
}
