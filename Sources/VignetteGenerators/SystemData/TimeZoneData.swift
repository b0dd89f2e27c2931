import VignetteCore

/// A compiled time zone file (TZif, RFC 8536): its local time types, transitions and the
/// POSIX rule for times after the last transition.
///
/// Version 2+ files are read from their 64-bit block; every count is checked against the bytes
/// present before anything is read, so a lying header is an error, not a large allocation.
struct TimeZoneData {
    /// A local time type: offset from UTC, daylight saving or not, abbreviation.
    struct LocalTime: Equatable {
        var offset: Int
        var isDaylightSaving: Bool
        var abbreviation: String
    }

    /// The format version (1, 2, 3 or 4).
    let version: Int
    /// The local time types, in file order.
    let types: [LocalTime]
    /// The transitions: when (Unix time) and to which type (an index in `types`).
    let transitions: [(time: Int64, type: Int)]
    /// The footer's POSIX TZ string (version 2+), when there is one.
    let rule: String?

    /// Parses `bytes`; throws `.corrupt` naming what is wrong.
    init(_ bytes: [UInt8]) throws {
        func fail(_ why: String) -> VignetteError { VignetteError(.corrupt, "damaged time zone file: \(why)") }
        func be32(_ at: Int) -> Int { Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3]) }
        func counts(_ at: Int) throws -> [Int] {
            guard at + 44 <= bytes.count, bytes[at..<(at + 4)].elementsEqual("TZif".utf8) else { throw fail("no TZif header") }
            return (0..<6).map { be32(at + 20 + 4 * $0) }
        }
        /// Bytes of a data block with these counts and `timeSize`-byte times.
        func blockSize(_ c: [Int], timeSize: Int) -> Int {
            c[3] * timeSize + c[3] + c[4] * 6 + c[5] + c[2] * (timeSize + 4) + c[1] + c[0]
        }
        var c = try counts(0)
        let versionByte = bytes[4]
        version = versionByte == 0 ? 1 : Int(versionByte) - 0x30
        guard (1...4).contains(version) else { throw fail("unknown version byte \(versionByte)") }
        var at = 44
        var timeSize = 4
        if version >= 2 {
            guard blockSize(c, timeSize: 4) <= bytes.count - at else { throw fail("the version 1 data is cut short") }
            at += blockSize(c, timeSize: 4)
            c = try counts(at)
            at += 44
            timeSize = 8
        }
        guard c[4] >= 1, c[5] >= 1, blockSize(c, timeSize: timeSize) <= bytes.count - at else {
            throw fail("the header's counts do not fit the file")
        }
        let (timeCount, typeCount, charCount) = (c[3], c[4], c[5])
        var times: [Int64] = []
        times.reserveCapacity(timeCount)
        for i in 0..<timeCount {
            let p = at + i * timeSize
            times.append(
                timeSize == 8
                    ? Int64(truncatingIfNeeded: UInt64(be32(p)) << 32 | UInt64(be32(p + 4))) : Int64(Int32(truncatingIfNeeded: be32(p))))
        }
        at += timeCount * timeSize
        let indices = bytes[at..<(at + timeCount)].map(Int.init)
        at += timeCount
        let typeStart = at
        at += typeCount * 6
        let chars = Array(bytes[at..<(at + charCount)])
        types = try (0..<typeCount).map { i in
            let p = typeStart + i * 6
            let index = Int(bytes[p + 5])
            guard index < chars.count else { throw fail("an abbreviation index is out of range") }
            return LocalTime(
                offset: Int(Int32(truncatingIfNeeded: be32(p))), isDaylightSaving: bytes[p + 4] != 0,
                abbreviation: String(decoding: chars[index...].prefix { $0 != 0 }, as: UTF8.self))
        }
        guard indices.allSatisfy({ $0 < typeCount }) else { throw fail("a transition names a local time type that does not exist") }
        transitions = zip(times, indices).map { ($0, $1) }
        at += charCount + c[2] * (timeSize + 4) + c[1] + c[0]
        if version >= 2, at < bytes.count, bytes[at] == 0x0A, let end = bytes[(at + 1)...].prefix(256).firstIndex(of: 0x0A) {
            let footer = String(decoding: bytes[(at + 1)..<end], as: UTF8.self)
            rule = footer.isEmpty ? nil : footer
        } else {
            rule = nil
        }
    }

    /// `+01:00`, `-09:30`, `+00:53:28`.
    static func offset(_ seconds: Int) -> String {
        let a = abs(seconds)
        let hm = "\(seconds < 0 ? "-" : "+")\(UTCDate.two(a / 3600)):\(UTCDate.two(a / 60 % 60))"
        return a % 60 == 0 ? hm : hm + ":\(UTCDate.two(a % 60))"
    }
}
