extension TextDecoder {
    /// Whether 7-bit `bytes` are HZ: at least one `~{ … ~}` run holding only GB2312 byte pairs
    /// (in an incomplete sample the last run may be cut before its `~}`).
    static func looksLikeHZ(_ bytes: ArraySlice<UInt8>, complete: Bool) -> Bool {
        var runs = 0
        var i = bytes.startIndex
        let end = bytes.endIndex
        while i + 1 < end {
            guard bytes[i] == UInt8(ascii: "~") else { i += 1; continue }
            switch bytes[i + 1] {
            case UInt8(ascii: "{"):
                var j = i + 2
                while j + 1 < end, !(bytes[j] == UInt8(ascii: "~") && bytes[j + 1] == UInt8(ascii: "}")) {
                    guard (0x21...0x7E).contains(bytes[j]), (0x21...0x7E).contains(bytes[j + 1]) else { return false }
                    j += 2
                }
                if j + 1 < end || !complete && j > i + 2 { runs += 1 }
                i = j + 2
            case UInt8(ascii: "~"), UInt8(ascii: "}"), 0x0A:
                i += 2
            default:
                i += 1
            }
        }
        return runs > 0
    }

    /// Rewrites HZ as EUC-CN (GB2312's 8-bit form) so iconv can decode it as GB18030.
    ///
    /// `~{` starts GB2312 pairs, `~}` ends them, `~~` is a tilde and `~` before a line feed joins
    /// lines. Bytes that cannot be a pair become 0xFF, which GB18030 rejects, so they decode to
    /// U+FFFD. A line break also ends a GB run, as writers that forget `~}` expect.
    static func hzToEUCCN(_ bytes: ArraySlice<UInt8>, complete: Bool) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var inGB = false
        var i = bytes.startIndex
        let end = bytes.endIndex
        while i < end {
            let c = bytes[i]
            if c == UInt8(ascii: "~") {
                guard i + 1 < end else {
                    if complete { out.append(c) }
                    break
                }
                switch bytes[i + 1] {
                case UInt8(ascii: "{"): inGB = true; i += 2; continue
                case UInt8(ascii: "}"): inGB = false; i += 2; continue
                case UInt8(ascii: "~"): out.append(c); i += 2; continue
                case 0x0A: i += 2; continue
                default: break
                }
            }
            guard inGB else { out.append(c); i += 1; continue }
            if c == 0x0A || c == 0x0D {
                inGB = false
                out.append(c)
                i += 1
            } else if i + 1 >= end {
                if complete { out.append(0xFF) }
                i += 1
            } else if (0x21...0x7E).contains(c), (0x21...0x7E).contains(bytes[i + 1]) {
                out.append(c | 0x80)
                out.append(bytes[i + 1] | 0x80)
                i += 2
            } else {
                out.append(0xFF)
                i += 1
            }
        }
        return out
    }
}
