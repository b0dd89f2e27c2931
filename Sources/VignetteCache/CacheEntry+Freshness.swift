import Foundation

extension CacheEntry {
    /// Whether the entry's `Thumb::MTime` (and `Thumb::Size`, when recorded) equal a file's status;
    /// nil when the MTime is missing or not a number (the entry says nothing checkable).
    ///
    /// `isValid(for:)` is this plus the URI; the pruner finds the file from the URI, so comparing
    /// it again could only fail on spelling (`file://localhost/…`, `%2a`).
    func matches(modificationSeconds: Int, modificationNanoseconds: Int, size: Int) -> Bool? {
        guard let raw = text["Thumb::MTime"]?.trimmingCharacters(in: .whitespaces) else { return nil }
        if let seconds = Int(raw) {
            guard seconds == modificationSeconds else { return false }
        } else if let value = Double(raw), value.isFinite {
            // A fractional MTime (tumbler) is compared to the microsecond, as GLib does; a hostile
            // entry can say 1e300, and a value no Int holds is simply not the file's time.
            guard let micros = Int(exactly: (value * 1_000_000).rounded()) else { return false }
            let actual = modificationSeconds.multipliedReportingOverflow(by: 1_000_000)
            guard !actual.overflow, micros == actual.partialValue + modificationNanoseconds / 1000 else { return false }
        } else {
            return nil
        }
        if text["Thumb::Size"] != nil {
            guard self.size == size else { return false }
        }
        return true
    }
}
