/// A tolerant JSON pretty-printer: two-space indent, keys in their original order, numbers and
/// strings exactly as written, and the position of the first error when the text is not JSON.
///
/// It runs on an explicit stack, so `[[[[…` cannot overflow the call stack, and nesting is
/// capped at `maxDepth`. Output stops growing after `maxLines` lines, though checking goes on.
struct JSONPrettyPrinter {
    /// Deepest nesting formatted; deeper documents are shown as written.
    static let maxDepth = 256

    /// Where and why the text stopped being JSON.
    struct Failure: Error, Equatable {
        /// What was wrong ("unexpected \"}\"").
        var reason: String
        /// 1-based line of the offending character.
        var line: Int
        /// 1-based column, in Unicode scalars.
        var column: Int
        /// Whether the failure is running out of text (a cut file is then only incomplete).
        var atEnd: Bool
        /// "unexpected \"}\" at line 3, column 5".
        var message: String { "\(reason) at line \(line), column \(column)" }
    }

    /// What the printer made.
    struct Output {
        /// The pretty-printed text (its first `maxLines + 1` lines at most).
        var text: String
        /// Lines the whole pretty-printed document has (or had, up to the failure).
        var lines: Int
        /// "object", "array", "string", "number", "boolean" or "null" (nil when nothing was read).
        var topKind: String?
        /// Members of the top-level object or array.
        var topCount: Int
        /// The first error, nil when the text is one valid JSON value.
        var failure: Failure?
    }

    private enum State { case top, afterTop, arrayStart, arrayValue, objectStart, objectKey, colon, objectValue, afterValue }
    private enum Container { case object, array }

    private let bytes: [UInt8]
    private let maxLines: Int
    private let complete: Bool
    private var out: [UInt8] = []
    private var lines = 1
    private var stack: [Container] = []
    private var state = State.top
    private var topKind: String?
    private var topCount = 0
    private var i = 0

    /// Pretty-prints `text`, writing at most `maxLines + 1` lines; `complete` false says the
    /// text is the start of a longer file, so a number running to its end may be cut.
    static func format(_ text: String, maxLines: Int, complete: Bool = true) -> Output {
        var printer = JSONPrettyPrinter(bytes: Array(text.utf8), maxLines: max(maxLines, 1), complete: complete)
        let failure = printer.run()
        if failure != nil {
            // A value that never came leaves an indented empty line behind.
            while let last = printer.out.last, last == 0x20 || last == 0x0A {
                if last == 0x0A { printer.lines -= 1 }
                printer.out.removeLast()
            }
        }
        let kind = printer.topKind
        let written = String(decoding: printer.out, as: UTF8.self)
        return Output(
            text: written, lines: printer.out.isEmpty ? 0 : printer.lines, topKind: kind, topCount: printer.topCount, failure: failure)
    }

    private init(bytes: [UInt8], maxLines: Int, complete: Bool) {
        self.bytes = bytes
        self.complete = complete
        self.maxLines = maxLines
    }

    private mutating func run() -> Failure? {
        while true {
            while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 }
            guard i < bytes.count else {
                return state == .afterTop ? nil : fail("unexpected end of input")
            }
            let c = bytes[i]
            switch (state, c) {
            case (.afterTop, _):
                return fail(unexpected())
            case (.objectStart, UInt8(ascii: "}")), (.arrayStart, UInt8(ascii: "]")):
                write(c)
                i += 1
                close()
            case (.afterValue, UInt8(ascii: "}")) where stack.last == .object,
                (.afterValue, UInt8(ascii: "]")) where stack.last == .array:
                newline(depth: stack.count - 1)
                write(c)
                i += 1
                close()
            case (.afterValue, UInt8(ascii: ",")):
                write(c)
                i += 1
                state = stack.last == .object ? .objectKey : .arrayValue
            case (.colon, UInt8(ascii: ":")):
                write(Array(": ".utf8))
                i += 1
                state = .objectValue
            case (.objectStart, UInt8(ascii: "\"")), (.objectKey, UInt8(ascii: "\"")):
                newline(depth: stack.count)
                if let failure = string() { return failure }
                if stack.count == 1 { topCount += 1 }
                state = .colon
            case (.top, _), (.arrayStart, _), (.arrayValue, _), (.objectValue, _):
                if state == .arrayStart || state == .arrayValue {
                    newline(depth: stack.count)
                    if stack.count == 1 { topCount += 1 }
                }
                if let failure = value(c) { return failure }
            default:
                return fail(unexpected())
            }
        }
    }

    /// Reads one value starting with `c`: opens a container or copies a scalar.
    private mutating func value(_ c: UInt8) -> Failure? {
        let kind: String
        switch c {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard stack.count < Self.maxDepth else {
                return fail("nesting deeper than \(Self.maxDepth) levels")
            }
            if stack.isEmpty { topKind = c == UInt8(ascii: "{") ? "object" : "array" }
            stack.append(c == UInt8(ascii: "{") ? .object : .array)
            write(c)
            i += 1
            state = c == UInt8(ascii: "{") ? .objectStart : .arrayStart
            return nil
        case UInt8(ascii: "\""):
            if let failure = string() { return failure }
            kind = "string"
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            if let failure = number() { return failure }
            kind = "number"
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            let word = c == UInt8(ascii: "t") ? "true" : c == UInt8(ascii: "f") ? "false" : "null"
            let w = Array(word.utf8)
            guard bytes.count - i >= w.count, Array(bytes[i..<i + w.count]) == w else {
                return bytes.count - i < w.count && bytes[i...].elementsEqual(w.prefix(bytes.count - i))
                    ? failAtEnd("unexpected end of input") : fail(unexpected())
            }
            write(w)
            i += w.count
            kind = word == "null" ? "null" : "boolean"
        default:
            return fail(unexpected())
        }
        if stack.isEmpty { topKind = kind }
        state = stack.isEmpty ? .afterTop : .afterValue
        return nil
    }

    /// Copies a string token as written, checking its escapes.
    private mutating func string() -> Failure? {
        let start = i
        var j = i + 1
        while j < bytes.count {
            let c = bytes[j]
            if c == UInt8(ascii: "\"") {
                write(Array(bytes[start...j]))
                i = j + 1
                return nil
            }
            if c < 0x20 {
                i = j
                return fail("control character U+\(hex(c)) in a string")
            }
            if c == UInt8(ascii: "\\") {
                guard j + 1 < bytes.count else { break }
                let e = bytes[j + 1]
                if e == UInt8(ascii: "u") {
                    for k in 2...5 {
                        guard j + k < bytes.count else { i = bytes.count; return failAtEnd("unexpected end of input") }
                        guard isHex(bytes[j + k]) else { i = j; return fail("invalid escape in a string") }
                    }
                    j += 6
                    continue
                }
                guard "\"\\/bfnrt".utf8.contains(e) else { i = j; return fail("invalid escape in a string") }
                j += 2
                continue
            }
            j += 1
        }
        i = start
        return failAtEnd("unterminated string")
    }

    /// Copies a number token, checking its grammar.
    private mutating func number() -> Failure? {
        let start = i
        var j = i
        func digits() -> Int {
            let from = j
            while j < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[j]) { j += 1 }
            return j - from
        }
        if bytes[j] == UInt8(ascii: "-") { j += 1 }
        let intStart = j
        let intDigits = digits()
        var bad = intDigits == 0 || (intDigits > 1 && bytes[intStart] == UInt8(ascii: "0"))
        if j < bytes.count, bytes[j] == UInt8(ascii: ".") {
            j += 1
            if digits() == 0 { bad = true }
        }
        if j < bytes.count, bytes[j] == UInt8(ascii: "e") || bytes[j] == UInt8(ascii: "E") {
            j += 1
            if j < bytes.count, bytes[j] == UInt8(ascii: "+") || bytes[j] == UInt8(ascii: "-") { j += 1 }
            if digits() == 0 { bad = true }
        }
        if bad || (!complete && j >= bytes.count) {
            return j >= bytes.count ? failAtEnd("unexpected end of input") : fail("invalid number")
        }
        write(Array(bytes[start..<j]))
        i = j
        return nil
    }

    private mutating func close() {
        stack.removeLast()
        state = stack.isEmpty ? .afterTop : .afterValue
    }

    private mutating func newline(depth: Int) {
        lines += 1
        guard lines <= maxLines + 1 else { return }
        out.append(0x0A)
        out.append(contentsOf: repeatElement(0x20, count: 2 * depth))
    }

    private mutating func write(_ c: UInt8) { if lines <= maxLines + 1 { out.append(c) } }
    private mutating func write(_ s: [UInt8]) { if lines <= maxLines + 1 { out.append(contentsOf: s) } }

    /// `unexpected "x"` for the character at the current position.
    private func unexpected() -> String {
        let c = bytes[i]
        if c < 0x20 || c == 0x7F { return "unexpected control character U+\(hex(c))" }
        var end = i + 1
        while end < bytes.count, end - i < 4, bytes[end] & 0xC0 == 0x80 { end += 1 }
        return "unexpected \"\(String(decoding: bytes[i..<end], as: UTF8.self))\""
    }

    private func fail(_ reason: String) -> Failure {
        let (line, column) = position(of: i)
        return Failure(reason: reason, line: line, column: column, atEnd: i >= bytes.count)
    }

    private func failAtEnd(_ reason: String) -> Failure {
        var failure = fail(reason)
        failure.atEnd = true
        return failure
    }

    /// 1-based line and column (in scalars) of byte `offset`.
    private func position(of offset: Int) -> (Int, Int) {
        var line = 1
        var column = 1
        for b in bytes[..<min(offset, bytes.count)] {
            if b == 0x0A {
                line += 1
                column = 1
            } else if b & 0xC0 != 0x80 {
                column += 1
            }
        }
        return (line, column)
    }

    private func isHex(_ c: UInt8) -> Bool {
        (0x30...0x39).contains(c) || (0x41...0x46).contains(c) || (0x61...0x66).contains(c)
    }

    private func hex(_ c: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "00" + String(digits[Int(c >> 4)]) + String(digits[Int(c & 0xF)])
    }
}
