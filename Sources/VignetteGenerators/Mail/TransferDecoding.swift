/// Decoders for the two byte encodings of MIME: quoted-printable (RFC 2045 §6.7, and the
/// `Q` variant of RFC 2047 headers) and base64 (damage-tolerant).
enum TransferDecoding {
    /// The bytes `source` stands for in quoted-printable: `=XX` is one byte, `=` at a line end
    /// joins the lines, white space before a line end is dropped; a malformed `=` stays as written.
    static func quotedPrintable(_ source: ArraySlice<UInt8>, headerWord: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(source.count)
        var i = source.startIndex
        let end = source.endIndex
        // Spaces held back until we know they are not trailing white space before a line end.
        var pendingSpaces: [UInt8] = []
        while i < end {
            let byte = source[i]
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"):
                pendingSpaces.append(byte)
                i += 1
                continue
            case UInt8(ascii: "\r"), UInt8(ascii: "\n"):
                pendingSpaces.removeAll()
                out.append(byte)
                i += 1
                continue
            default: break
            }
            out += pendingSpaces
            pendingSpaces.removeAll()
            if byte == UInt8(ascii: "_") && headerWord {
                out.append(UInt8(ascii: " "))
                i += 1
            } else if byte == UInt8(ascii: "=") {
                var j = i + 1
                while j < end, source[j] == UInt8(ascii: " ") || source[j] == UInt8(ascii: "\t") { j += 1 }
                if j == end || source[j] == UInt8(ascii: "\n") || source[j] == UInt8(ascii: "\r") {
                    // A soft line break: the line goes on with the next one.
                    if j < end, source[j] == UInt8(ascii: "\r") { j += 1 }
                    if j < end, source[j] == UInt8(ascii: "\n") { j += 1 }
                    i = j
                } else if i + 2 < end, let high = hexValue(source[i + 1]), let low = hexValue(source[i + 2]) {
                    out.append(high << 4 | low)
                    i += 3
                } else {
                    out.append(byte)
                    i += 1
                }
            } else {
                out.append(byte)
                i += 1
            }
        }
        out += pendingSpaces
        return out
    }

    /// The value of one hexadecimal digit (either case), or nil.
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }

    /// The bytes `source` stands for in base64, ignoring line ends and stray characters; a cut
    /// last group gives the whole bytes it holds. `damaged` says whether anything was off.
    static func base64(_ source: ArraySlice<UInt8>) -> (bytes: [UInt8], damaged: Bool) {
        var out: [UInt8] = []
        out.reserveCapacity(source.count / 4 * 3)
        var accumulator: UInt32 = 0
        var bits = 0
        var damaged = false
        var sawPadding = false
        for byte in source {
            guard let value = base64Value(byte) else {
                if byte == UInt8(ascii: "=") {
                    sawPadding = true
                } else if !isSpace(byte) {
                    damaged = true
                }
                continue
            }
            if sawPadding { damaged = true }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                accumulator &= (1 << UInt32(bits)) - 1
            }
        }
        // Six bits left over is a cut group (one character of four): no whole byte in it.
        if bits == 6 { damaged = true }
        let symbols = source.reduce(0) { $0 + (base64Value($1) != nil || $1 == UInt8(ascii: "=") ? 1 : 0) }
        if symbols % 4 != 0 { damaged = true }
        return (out, damaged)
    }

    /// How many bytes a base64 text decodes to, without decoding it.
    static func base64DecodedCount(_ source: ArraySlice<UInt8>) -> Int {
        var symbols = 0
        for byte in source where base64Value(byte) != nil { symbols += 1 }
        return symbols * 6 / 8
    }

    /// The 6-bit value of a base64 character, or nil.
    static func base64Value(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): 62
        case UInt8(ascii: "/"): 63
        default: nil
        }
    }

    /// Whether `byte` is a space, tab, CR or LF.
    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A
    }
}
