import VignetteCore

/// A compiled terminfo entry (term(5)): the terminal's names and its standard capabilities'
/// counts, with the screen size and colours when it states them.
struct TerminfoEntry {
    /// The names, the first the short one, the last usually a description.
    let names: [String]
    /// Counts of boolean, numeric and string capabilities.
    let booleans: Int, numbers: Int, strings: Int
    /// `cols`, `lines` and `colors`, when given.
    let columns: Int?, lines: Int?, colours: Int?

    /// Parses `bytes` (the legacy format, or ncurses 6.1's 32-bit numbers); throws `.corrupt`.
    init(_ bytes: [UInt8]) throws {
        func fail(_ why: String) -> VignetteError { VignetteError(.corrupt, "damaged terminfo entry: \(why)") }
        func le16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        guard bytes.count >= 12 else { throw fail("shorter than its header") }
        let magic = le16(0)
        guard magic == 0o432 || magic == 0o1036 else { throw fail("no terminfo magic number") }
        let numberSize = magic == 0o1036 ? 4 : 2
        let (nameSize, booleans, numbers, strings) = (le16(2), le16(4), le16(6), le16(8))
        var at = 12 + nameSize + booleans
        at += at % 2
        guard nameSize >= 1, booleans < 0x8000, numbers < 0x8000, strings < 0x8000, at + numbers * numberSize <= bytes.count else {
            throw fail("the header's sizes do not fit the file")
        }
        let nameBytes = bytes[12..<(12 + nameSize)].prefix { $0 != 0 }
        names = String(decoding: nameBytes, as: UTF8.self).split(separator: "|").map(String.init)
        func number(_ index: Int) -> Int? {
            guard index < numbers else { return nil }
            let p = at + index * numberSize
            let raw =
                numberSize == 4 ? Int(Int32(truncatingIfNeeded: le16(p) | le16(p + 2) << 16)) : Int(Int16(truncatingIfNeeded: le16(p)))
            return raw >= 0 ? raw : nil
        }
        (self.booleans, self.numbers, self.strings) = (booleans, numbers, strings)
        (columns, lines, colours) = (number(0), number(2), number(13))
    }
}
