import ArgumentParser
import Foundation

/// Checks of option values, worded alike everywhere: numbers in range, paths not empty.
///
/// Every numeric bound is finite: a value like `inf` or `1e300` parses as a `Double` and would trap when
/// later turned into a whole number of seconds or bytes.
enum OptionBounds {
    /// Throws unless `value` is more than 0 and at most `maximum` (not NaN, not infinite):
    /// "--timeout must be more than 0 and at most 3600 seconds, not 0".
    static func positive(_ value: Double, _ option: String, atMost maximum: Double, _ unit: String = "") throws {
        guard value > 0, value <= maximum else {
            let bound = unit.isEmpty ? "\(Int(maximum))" : "\(Int(maximum)) \(unit)"
            throw ValidationError("\(option) must be more than 0 and at most \(bound), not \(text(value))")
        }
    }

    /// Throws unless `value` is in `range`: "--jobs must be between 1 and 256, not 0".
    static func within(_ value: Int, _ range: ClosedRange<Int>, _ option: String) throws {
        guard range.contains(value) else {
            throw ValidationError("\(option) must be between \(range.lowerBound) and \(range.upperBound), not \(value)")
        }
    }

    /// Throws when a path option was given as an empty word (`-o ''`, usually an unset shell
    /// variable): "-o must not be empty; give …".
    static func nonEmpty(_ value: String?, _ option: String, give: String) throws {
        if value == "" { throw ValidationError("\(option) must not be empty; give \(give)") }
    }

    /// `value` as typed, without a trailing ".0": "0.2", "3", "NaN", "inf", "1e+300".
    static func text(_ value: Double) -> String {
        value.isNaN ? "NaN" : String(format: "%g", value)
    }
}
