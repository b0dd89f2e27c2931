import Foundation

extension CacheEntry {
    /// Whether the entry's `Thumb::MTime` (and `Thumb::Size`, when recorded) equal a file's status;
    /// nil when the MTime is missing or not a number (the entry says nothing checkable).
    ///
    /// The same comparison as `isValid(for:)` without the URI: the pruner finds the file from the
    /// URI, so comparing it again could only fail on spelling (`file://localhost/…`, `%2a`).
    func matches(modificationSeconds: Int, modificationNanoseconds: Int, size: Int) -> Bool? {
        guard let raw = text["Thumb::MTime"]?.trimmingCharacters(in: .whitespaces) else { return nil }
        if let seconds = Int(raw) {
            guard seconds == modificationSeconds else { return false }
        } else if let value = Double(raw), value.isFinite {
            // A fractional MTime (tumbler) is compared to the microsecond, as in isValid(for:);
            // Int(exactly:) because a hostile entry's "1e300" must not trap.
            guard let micros = Int(exactly: (value * 1_000_000).rounded()) else { return false }
            guard micros == modificationSeconds * 1_000_000 + modificationNanoseconds / 1000 else { return false }
        } else {
            return nil
        }
        if text["Thumb::Size"] != nil {
            guard self.size == size else { return false }
        }
        return true
    }
}
