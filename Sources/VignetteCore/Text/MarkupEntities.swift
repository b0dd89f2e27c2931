/// Decoding of character references: `&#233;`, `&#xE9;` and the common named HTML entities.
public enum MarkupEntities {
    /// The named entities recognised (XML's five and HTML's most used); others stay as written.
    public static let named: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}",
        "copy": "©", "reg": "®", "trade": "™", "hellip": "…", "mdash": "—", "ndash": "–",
        "lsquo": "‘", "rsquo": "’", "sbquo": "‚", "ldquo": "“", "rdquo": "”", "bdquo": "„",
        "laquo": "«", "raquo": "»", "lsaquo": "‹", "rsaquo": "›", "bull": "•", "middot": "·",
        "euro": "€", "pound": "£", "yen": "¥", "cent": "¢", "sect": "§", "para": "¶", "deg": "°",
        "plusmn": "±", "times": "×", "divide": "÷", "minus": "−", "micro": "µ", "frac12": "½",
        "frac14": "¼", "frac34": "¾", "sup2": "²", "sup3": "³", "iexcl": "¡", "iquest": "¿",
        "shy": "\u{AD}", "ensp": "\u{2002}", "emsp": "\u{2003}", "thinsp": "\u{2009}",
        "zwnj": "\u{200C}", "zwj": "\u{200D}", "larr": "←", "rarr": "→", "uarr": "↑", "darr": "↓",
        "harr": "↔", "rArr": "⇒", "hearts": "♥", "check": "✓", "dagger": "†", "Dagger": "‡",
        "prime": "′", "Prime": "″", "le": "≤", "ge": "≥", "ne": "≠", "infin": "∞", "asymp": "≈",
        "agrave": "à", "aacute": "á", "acirc": "â", "atilde": "ã", "auml": "ä", "aring": "å", "aelig": "æ",
        "ccedil": "ç", "egrave": "è", "eacute": "é", "ecirc": "ê", "euml": "ë", "igrave": "ì",
        "iacute": "í", "icirc": "î", "iuml": "ï", "ntilde": "ñ", "ograve": "ò", "oacute": "ó",
        "ocirc": "ô", "otilde": "õ", "ouml": "ö", "oslash": "ø", "ugrave": "ù", "uacute": "ú",
        "ucirc": "û", "uuml": "ü", "yacute": "ý", "yuml": "ÿ", "szlig": "ß", "Agrave": "À",
        "Aacute": "Á", "Acirc": "Â", "Atilde": "Ã", "Auml": "Ä", "Aring": "Å", "AElig": "Æ",
        "Ccedil": "Ç", "Egrave": "È", "Eacute": "É", "Ecirc": "Ê", "Euml": "Ë", "Iacute": "Í",
        "Ntilde": "Ñ", "Oacute": "Ó", "Ocirc": "Ô", "Ouml": "Ö", "Oslash": "Ø", "Uacute": "Ú",
        "Uuml": "Ü", "Scaron": "Š", "scaron": "š", "Zcaron": "Ž", "zcaron": "ž", "oelig": "œ", "OElig": "Œ",
        "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "pi": "π", "sigma": "σ", "omega": "ω",
    ]

    /// `text` with every recognised reference replaced by its character; a numeric reference to
    /// no valid scalar becomes U+FFFD; anything else is kept as written.
    public static func decode(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "&")) else { return text }
        var out = String.UnicodeScalarView()
        let scalars = Array(text.unicodeScalars)
        var i = 0
        while i < scalars.count {
            let s = scalars[i]
            guard s == "&" else { out.append(s); i += 1; continue }
            // A reference is short: look at most 32 scalars ahead for its `;`.
            var j = i + 1
            while j < scalars.count, j - i <= 32, scalars[j] != ";", scalars[j] != "&", !scalars[j].properties.isWhitespace { j += 1 }
            guard j < scalars.count, scalars[j] == ";", j > i + 1 else { out.append(s); i += 1; continue }
            let body = String(String.UnicodeScalarView(scalars[(i + 1)..<j]))
            if let replacement = reference(body) {
                out.append(contentsOf: replacement.unicodeScalars)
                i = j + 1
            } else {
                out.append(s)
                i += 1
            }
        }
        return String(out)
    }

    /// The characters for the reference between `&` and `;`, or nil when unknown.
    public static func reference(_ body: String) -> String? {
        if body.hasPrefix("#") {
            let digits = body.dropFirst()
            let value: UInt32?
            if digits.first == "x" || digits.first == "X" {
                value = digits.count <= 9 ? UInt32(digits.dropFirst(), radix: 16) : nil
            } else {
                value = digits.count <= 10 ? UInt32(digits, radix: 10) : nil
            }
            guard let value else { return nil }
            guard value != 0, let scalar = Unicode.Scalar(value) else { return "\u{FFFD}" }
            return String(Character(scalar))
        }
        return named[body]
    }
}
