extension PNGTextChunks {
    /// `bytes` with the `tEXt` chunk of `key` set to `value` (others kept byte for byte), or nil
    /// when `bytes` is not a PNG or `value` is not Latin-1.
    ///
    /// The old chunk of that key is dropped and the new one goes right after `IHDR`, before the
    /// pixels, where readers look for the freedesktop keys.
    static func replacing(_ key: String, with value: String, in bytes: [UInt8]) -> [UInt8]? {
        guard bytes.count >= 8 + 25, Array(bytes[0..<8]) == signature else { return nil }
        guard let data = latin1Bytes(key + "\u{0}" + value) else { return nil }
        let keyBytes = Array(key.utf8) + [0]
        var out = signature
        var offset = 8
        var inserted = false
        while offset + 12 <= bytes.count {
            let length = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard length <= bytes.count - offset - 12 else { return nil }
            let end = offset + 12 + length
            let type = Array(bytes[(offset + 4)..<(offset + 8)])
            let isOldKey = type == Array("tEXt".utf8) && bytes[(offset + 8)..<(offset + 8 + length)].starts(with: keyBytes)
            if !isOldKey { out += bytes[offset..<end] }
            if !inserted && type == Array("IHDR".utf8) {
                out += chunk("tEXt", data)
                inserted = true
            }
            offset = end
            if type == Array("IEND".utf8) { break }
        }
        return inserted ? out : nil
    }

    /// One chunk: length, type, data, CRC-32 of type and data.
    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let length = UInt32(data.count)
        let body = Array(type.utf8) + data
        let crc = crc32(body)
        return [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)] + body + [
            UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF),
        ]
    }

    /// The CRC-32 PNG uses (polynomial 0xEDB88320); a few dozen bytes per entry, so bitwise is fine.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return crc ^ 0xFFFF_FFFF
    }

    private static func latin1Bytes(_ text: String) -> [UInt8]? {
        var out: [UInt8] = []
        for scalar in text.unicodeScalars {
            guard scalar.value < 256 else { return nil }
            out.append(UInt8(scalar.value))
        }
        return out
    }
}
