import Foundation
import VignetteCore

/// Turns the bytes of a MIME text (a body part, an encoded word, a raw header) into a string in
/// the charset it declares, or the one detected when it declares none or an impossible one.
enum MailCharset {
    /// `bytes` decoded as `charset`; with no charset, or US-ASCII over 8-bit bytes (a common
    /// lie), the encoding is detected. Line ends are normalised to LF.
    static func decode(_ bytes: ArraySlice<UInt8>, charset: String?) -> String {
        let name = charset.map { $0.trimming(" \t\"'") } ?? ""
        let lower = name.lowercased()
        let eightBit = bytes.contains { $0 >= 0x80 }
        let text: String
        if name.isEmpty || ((lower == "us-ascii" || lower == "ascii") && eightBit) {
            // Valid UTF-8 is by far the most common undeclared charset; detection costs a converter per candidate.
            text = String(validating: bytes, as: UTF8.self) ?? TextDecoder.decode(bytes, complete: true).text
        } else if !eightBit && !lower.hasPrefix("utf-16") && !lower.hasPrefix("utf-32") && !lower.hasPrefix("utf-7")
            && !lower.hasPrefix("iso-2022") && !lower.hasPrefix("hz")
        {
            // ASCII bytes mean the same in every ASCII-compatible charset; no converter needed.
            text = String(decoding: bytes, as: UTF8.self)
        } else {
            text = TextDecoder.decode(bytes, as: TextEncodingName(rawValue: name))
        }
        return text.contains("\r") ? text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n") : text
    }
}
