/// A small JSON reader for files that are plainly valid: the fast path in front of Foundation.
///
/// Foundation's JSON decoding is slow to start (`JSONDecoder` took about 13 ms of every command
/// to decode the built-in `UniformTypes.json`; `JSONSerialization`'s bridged casts each scan the
/// runtime's conformance records), and the files every command reads (the built-in declarations,
/// generator manifests) are plain. `parse` answers nil for anything it does not plainly
/// understand (an exponent, a number of more than 15 significant digits, a duplicate key, a
/// control character, a bad escape or UTF-8, nesting deeper than 16, bytes after the value);
/// its callers (`DeclarationReader`, `ManifestReader`) then decode with Foundation, which names
/// the problem, so the error messages stay in one place.
package struct PlainJSON {
    /// A parsed JSON value.
    package enum Value {
        case object(Members)
        case array([Value])
        case string(String)
        /// A number, and whether it was written without a fraction.
        case number(Double, whole: Bool)
        case bool(Bool)
        case null
    }

    // Two arrays rather than one of (key, value) tuples: the first array of a tuple type costs
    // the runtime a demangling of its type and the making of its metadata.
    /// An object's members in file order; the objects read here have a dozen keys at most, so a
    /// linear search beats hashing every key of every object.
    package struct Members {
        package var keys: [String] = []
        package var values: [Value] = []

        package subscript(key: String) -> Value? {
            guard let index = keys.firstIndex(of: key) else { return nil }
            return values[index]
        }
    }

    /// The value that is the whole of `bytes` (with white space around it), or nil.
    package static func parse(_ bytes: UnsafeRawBufferPointer) -> Value? {
        var reader = PlainJSON(bytes: bytes)
        guard let value = reader.value(depth: 0) else { return nil }
        reader.skipSpace()
        return reader.index == bytes.count ? value : nil
    }

    private let bytes: UnsafeRawBufferPointer
    private var index = 0

    private init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    private mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func value(depth: Int) -> Value? {
        // The files read this way nest five deep; a deeper one is left to Foundation.
        guard depth < 16 else { return nil }
        skipSpace()
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "{"): return object(depth: depth)
        case UInt8(ascii: "["): return array(depth: depth)
        case UInt8(ascii: "\""): return string().map(Value.string)
        case UInt8(ascii: "t"): return literal("true", .bool(true))
        case UInt8(ascii: "f"): return literal("false", .bool(false))
        case UInt8(ascii: "n"): return literal("null", .null)
        default: return number()
        }
    }

    private mutating func object(depth: Int) -> Value? {
        index += 1
        var members = Members()
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let key = string() else { return nil }
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
            index += 1
            guard let member = value(depth: depth + 1), !members.keys.contains(key) else { return nil }
            members.keys.append(key)
            members.values.append(member)
            skipSpace()
            guard index < bytes.count else { return nil }
            let separator = bytes[index]
            index += 1
            if separator == UInt8(ascii: "}") { return .object(members) }
            guard separator == UInt8(ascii: ",") else { return nil }
        }
    }

    private mutating func array(depth: Int) -> Value? {
        index += 1
        var items: [Value] = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(items)
        }
        while true {
            guard let item = value(depth: depth + 1) else { return nil }
            items.append(item)
            skipSpace()
            guard index < bytes.count else { return nil }
            let separator = bytes[index]
            index += 1
            if separator == UInt8(ascii: "]") { return .array(items) }
            guard separator == UInt8(ascii: ",") else { return nil }
        }
    }

    private mutating func literal(_ word: StaticString, _ result: Value) -> Value? {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { return nil }
        for k in 0..<count where bytes[index + k] != word.utf8Start[k] { return nil }
        index += count
        return result
    }

    /// A JSON number of at most 15 significant digits, with or without a fraction: exactly
    /// the double Foundation reads. Exponents and longer numbers are left to it.
    private mutating func number() -> Value? {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        let digitsStart = index
        var digits = 0
        while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
            index += 1
            digits += 1
        }
        guard digits > 0, !(bytes[digitsStart] == 0x30 && digits > 1) else { return nil }
        let whole = index == bytes.count || bytes[index] != UInt8(ascii: ".")
        if !whole {
            index += 1
            let fractionStart = index
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                index += 1
                digits += 1
            }
            guard index > fractionStart else { return nil }
        }
        guard digits <= 15, index == bytes.count || (bytes[index] != UInt8(ascii: "e") && bytes[index] != UInt8(ascii: "E")) else {
            return nil
        }
        return Double(
            String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]).assumingMemoryBound(to: UInt8.self), as: UTF8.self)
        ).map { Value.number($0, whole: whole) }
    }

    /// A JSON string at `index` (on its opening quote): escapes decoded, UTF-8 checked.
    private mutating func string() -> String? {
        index += 1
        // Most strings have no escape: make them straight from the file's bytes.
        var end = index
        while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\"), bytes[end] >= 0x20 { end += 1 }
        if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
            defer { index = end + 1 }
            return String(validating: UnsafeRawBufferPointer(rebasing: bytes[index..<end]), as: UTF8.self)
        }
        var out: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(validating: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { return nil }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escape)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    guard let scalar = unicodeEscape() else { return nil }
                    out.append(contentsOf: Array(String(Character(scalar)).utf8))
                default: return nil
                }
            case 0x00..<0x20:
                return nil
            default:
                out.append(byte)
            }
        }
        return nil
    }

    /// The scalar of a `\uXXXX` escape (the `\u` already read), joining a surrogate pair.
    private mutating func unicodeEscape() -> Unicode.Scalar? {
        guard let high = hex4() else { return nil }
        if (0xD800..<0xDC00).contains(high) {
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else { return nil }
            index += 2
            guard let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
            return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
        }
        return Unicode.Scalar(high)
    }

    private mutating func hex4() -> UInt32? {
        guard index + 4 <= bytes.count else { return nil }
        var n: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[index]
            index += 1
            switch c {
            case 0x30...0x39: n = n << 4 | UInt32(c - 0x30)
            case 0x41...0x46: n = n << 4 | UInt32(c - 0x41 + 10)
            case 0x61...0x66: n = n << 4 | UInt32(c - 0x61 + 10)
            default: return nil
            }
        }
        return n
    }
}
