import Testing
import VignetteCore

@Suite("ByteCount.parse")
struct ByteCountParsingTests {
    static let sizes: [(String, Int)] = [
        ("1048576", 1_048_576), ("0", 0), ("17B", 17), ("500M", 500 << 20), ("2G", 2 << 30), ("2g", 2 << 30), ("1k", 1024),
        ("3T", 3 << 40), ("1MiB", 1 << 20), ("300MB", 300_000_000), ("2gb", 2_000_000_000), ("1.5G", 3 << 29),
        ("0.5K", 512), ("1.0001K", 1024),
    ]

    @Test("bytes, binary units (K M G T, KiB…) and decimal units (KB MB GB TB), either case", arguments: sizes)
    func accepted(text: String, bytes: Int) {
        #expect(ByteCount.parse(text) == bytes)
    }

    @Test(
        "anything else is refused",
        arguments: [
            "", "M", "lots", "-1", "+5", " 5", "5 M", "5X", "5MBs", "1.2.3", ".5G", "5.G", "١٢", "99999999999T", "9223372036854775808",
        ])
    func refused(text: String) {
        #expect(ByteCount.parse(text) == nil)
    }
}
