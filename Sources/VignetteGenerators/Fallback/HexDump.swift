/// A classic hex dump: offset, sixteen bytes in hex, and the printable ASCII beside them.
public enum HexDump {
    /// `00000000  89 50 4e 47 0d 0a 1a 0a  00 00 00 0d 49 48 44 52  |.PNG........IHDR|`, one line per 16 bytes.
    public static func lines(_ bytes: [UInt8]) -> [String] {
        let digits = Array("0123456789abcdef")
        var result: [String] = []
        var offset = 0
        while offset < bytes.count {
            let row = bytes[offset..<min(offset + 16, bytes.count)]
            var line = String(offset, radix: 16)
            line = String(repeating: "0", count: max(0, 8 - line.count)) + line + "  "
            for i in 0..<16 {
                if i == 8 { line += " " }
                if offset + i < bytes.count {
                    let b = Int(bytes[offset + i])
                    line.append(digits[b >> 4])
                    line.append(digits[b & 15])
                    line += " "
                } else {
                    line += "   "
                }
            }
            line += " |"
            for b in row { line.append((0x20..<0x7F).contains(b) ? Character(UnicodeScalar(b)) : ".") }
            line += "|"
            result.append(line)
            offset += 16
        }
        return result
    }
}
