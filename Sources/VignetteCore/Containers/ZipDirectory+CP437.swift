extension ZipDirectory {
    /// Code page 437 (the original IBM PC set) for bytes 0x80–0xFF: what zip tools assume for names
    /// without the UTF-8 flag.
    static let cp437High: [Character] = Array(
        "ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐"
            + "└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u{00A0}")

    /// An entry name: UTF-8 when flagged (bit 11) or valid as UTF-8, else code page 437 (as PKZip wrote it).
    static func decodeName(_ bytes: ArraySlice<UInt8>, flags: UInt16) -> String {
        if flags & 0x0800 != 0 { return String(decoding: bytes, as: UTF8.self) }
        if let utf8 = String(validating: bytes, as: UTF8.self) { return utf8 }
        var name = ""
        for byte in bytes {
            let high = Int(byte) - 0x80
            name.append(high < 0 ? Character(Unicode.Scalar(byte)) : high < cp437High.count ? cp437High[high] : "\u{FFFD}")
        }
        return name
    }
}
