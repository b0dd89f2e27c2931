/// Reads the counts of a TZif (RFC 8536) header.
enum TZifHeader {
    /// Whether the first data block declares leap-second records (`leapcnt`, at byte 28, is not 0).
    static func hasLeapSeconds(_ sample: some ByteReader) -> Bool {
        guard let header = sample.bytes(at: 0, count: 44), header.starts(with: Array("TZif".utf8)) else { return false }
        let h = Array(header)
        return h[28] | h[29] | h[30] | h[31] != 0
    }
}
