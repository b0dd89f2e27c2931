import VignetteCore

/// How a Word or Excel 97–2003 file saved with a password is encrypted (MS-OFFCRYPTO 2.3.6,
/// MS-DOC 2.5.1, MS-XLS 2.4.117): its text cannot be read without the password, only named.
enum LegacyEncryption {
    /// The cipher of a Word document whose file information block says it is encrypted
    /// (`fEncrypted`), read from the start of its table stream; nil when it is not encrypted.
    static func word(_ file: CompoundFile, word: [UInt8]) throws -> String? {
        let w = word[...]
        guard w.count >= 0x0C, CompoundFile.u16(w, 0) == 0xA5EC else { return nil }
        let flags = CompoundFile.u16(w, 0x0A)
        guard flags & 0x0100 != 0 else { return nil }
        if flags & 0x8000 != 0 { return "XOR obfuscation" }
        let table = try file.stream(flags & 0x0200 != 0 ? "1Table" : "0Table", limit: 4096)?.bytes ?? []
        return cipher(ofVersionInfo: table[...])
    }

    /// The cipher a workbook's `FilePass` record names (it follows the globals' `BOF`); nil when
    /// the workbook has none, so is not encrypted.
    static func workbook(_ stream: [UInt8]) -> String? {
        var p = 0
        // FilePass comes right after BOF; a few records of slack for writers that differ.
        for _ in 0..<8 {
            guard p + 4 <= stream.count else { return nil }
            let type = CompoundFile.u16(stream[...], p)
            let body = stream[min(stream.count, p + 4)..<min(stream.count, p + 4 + Int(CompoundFile.u16(stream[...], p + 2)))]
            if type == 0x002F {
                guard body.count >= 2 else { return "an unknown cipher" }
                return CompoundFile.u16(body, 0) == 0 ? "XOR obfuscation" : cipher(ofVersionInfo: body.dropFirst(2))
            }
            if type == 0x000A { return nil }
            p = body.endIndex
        }
        return nil
    }

    /// The cipher an `EncryptionVersionInfo` and what follows it name: 1.1 is Office 97's RC4
    /// (40-bit keys); 2.2, 3.2 and 4.2 RC4 CryptoAPI, whose header gives the key size.
    static func cipher(ofVersionInfo b: ArraySlice<UInt8>) -> String {
        guard b.count >= 4 else { return "an unknown cipher" }
        let major = CompoundFile.u16(b, 0), minor = CompoundFile.u16(b, 2)
        if major == 1, minor == 1 { return "40-bit RC4" }
        // Version, flags, header size; then the header: flags, size extra, AlgID, AlgIDHash, KeySize.
        guard (2...4).contains(major), minor == 2, b.count >= 32 else { return "an unknown cipher" }
        let bits = CompoundFile.u32(b, 28)
        return "\(bits == 0 ? 40 : bits)-bit RC4 CryptoAPI"
    }

    /// What a preview says first about an encrypted document.
    static func headline(_ cipher: String) -> String {
        let how = cipher == "XOR obfuscation" ? "hidden by" : "encrypted with"
        return "This Office document is protected by a password: its text is \(how) \(cipher), and cannot be shown without the password."
    }
}
