/// Dates as previews print them, computed without Foundation's calendars (no locale, no time
/// zone database, any year): proleptic Gregorian, UTC.
enum UTCDate {
    /// Days since 1970-01-01 as `YYYY-MM-DD` (Howard Hinnant's days-to-civil algorithm).
    static func day(_ days: Int) -> String {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        return "\(y)-\(two(m))-\(two(d))"
    }

    /// A Unix time as `YYYY-MM-DD HH:MM:SS`.
    static func time(_ seconds: Int64) -> String {
        let days = seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400
        let rest = Int(seconds - days * 86400)
        return day(Int(days)) + " \(two(rest / 3600)):\(two(rest / 60 % 60)):\(two(rest % 60))"
    }

    /// `n` with at least two digits.
    static func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
}
