/// The five predefined XML entities and numeric character references, decoded.
enum MarkupUnescape {
    /// `s` with `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;` and `&#…;` decoded; anything else kept.
    static func text(_ s: String) -> String {
        guard s.contains("&") else { return s }
        var out = ""
        var rest = Substring(s)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            guard let semi = rest[amp...].prefix(12).firstIndex(of: ";") else {
                out += "&"
                rest = rest[rest.index(after: amp)...]
                continue
            }
            let name = rest[rest.index(after: amp)..<semi]
            let named = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'"][String(name)]
            var scalar: Unicode.Scalar?
            if name.hasPrefix("#x") {
                scalar = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
            } else if name.hasPrefix("#") {
                scalar = UInt32(name.dropFirst()).flatMap(Unicode.Scalar.init)
            }
            if let named { out += named } else if let scalar { out.unicodeScalars.append(scalar) } else { out += rest[amp...semi] }
            rest = rest[rest.index(after: semi)...]
        }
        return out + rest
    }
}
