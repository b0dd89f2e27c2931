/// A fast reader for plainly valid type declaration files; anything else is left to `JSONDecoder`.
///
/// Foundation's `JSONDecoder` took about 13 ms of every command's start to decode the built-in
/// `UniformTypes.json` (534 types), a third of a short `vignette type`. This reader parses the
/// same schema directly. It answers nil for anything it does not plainly understand (a
/// fraction, a duplicate key, a bad escape, a wrong kind of value, a broken pattern), and the
/// caller then decodes with `JSONDecoder`, which names the problem: the error messages stay in
/// one place, and for valid files both give the same declarations (a test holds them to it).
struct DeclarationReader {
    /// A parsed JSON value (numbers only as integers: the schema has no others).
    enum Value {
        case object(Members)
        case array([Value])
        case string(String)
        case int(Int)
        case bool(Bool)
        case null
    }

    /// An object's members in file order; objects here have a dozen keys at most, so a linear
    /// search beats hashing every key of every object.
    struct Members {
        var pairs: [(key: String, value: Value)] = []

        subscript(key: String) -> Value? {
            for pair in pairs where pair.key == key { return pair.value }
            return nil
        }
    }

    /// The declarations in `bytes`, or nil when `JSONDecoder` should decide.
    static func read(_ bytes: UnsafeRawBufferPointer) -> TypeDeclarationFile? {
        var reader = DeclarationReader(bytes: bytes)
        guard let value = reader.value(depth: 0) else { return nil }
        reader.skipSpace()
        guard reader.index == bytes.count else { return nil }
        return file(value)
    }

    private let bytes: UnsafeRawBufferPointer
    private var index = 0

    private init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    // MARK: Mapping to declarations

    private static func file(_ value: Value) -> TypeDeclarationFile? {
        guard case .object(let o) = value else { return nil }
        guard let format = int(o["format"], default: 1), format == 1,
            let types = list(o["types"], declaration),
            let exported = list(o["exportedTypes"], declaration),
            let imported = list(o["importedTypes"], declaration)
        else { return nil }
        return TypeDeclarationFile(format: format, types: types, exportedTypes: exported, importedTypes: imported)
    }

    private static func declaration(_ value: Value) -> TypeDeclaration? {
        guard case .object(let o) = value, case .string(let identifier)? = o["identifier"],
            let conformsTo = list(o["conformsTo"], string), let description = string(o["description"], default: ""),
            let extensions = list(o["extensions"], string), let mimeTypes = list(o["mimeTypes"], string),
            let filenames = list(o["filenames"], string), let interpreters = list(o["interpreters"], string),
            let signatures = list(o["signatures"], signature)
        else { return nil }
        var reference: String? = nil
        switch o["reference"] {
        case nil, .null?: break
        case .string(let text)?: reference = text
        default: return nil
        }
        return TypeDeclaration(
            identifier: identifier, conformsTo: conformsTo, description: description, extensions: extensions,
            mimeTypes: mimeTypes, filenames: filenames, interpreters: interpreters, signatures: signatures,
            reference: reference)
    }

    private static func signature(_ value: Value) -> ByteSignature? {
        guard case .object(let o) = value, let priority = int(o["priority"], default: 50) else { return nil }
        let patterns: [BytePattern]
        switch o["patterns"] {
        case nil, .null?:
            // A single pattern written inline, as `ByteSignature(from:)` accepts.
            guard let one = pattern(value) else { return nil }
            patterns = [one]
        case let listed?:
            guard let many = list(listed, pattern) else { return nil }
            patterns = many
        }
        return patterns.isEmpty ? nil : ByteSignature(priority: priority, patterns: patterns)
    }

    private static func pattern(_ value: Value) -> BytePattern? {
        guard case .object(let o) = value, let offset = int(o["offset"], default: 0), let range = int(o["range"], default: 0),
            offset >= 0, range >= 0
        else { return nil }
        let bytes: [UInt8]
        switch (o["hex"] ?? .null, o["ascii"] ?? .null) {
        case (.string(let hex), .null):
            guard let parsed = BytePattern.parseHex(hex) else { return nil }
            bytes = parsed
        case (.null, .string(let ascii)):
            bytes = Array(ascii.utf8)
        default:
            return nil
        }
        guard !bytes.isEmpty else { return nil }
        var mask: [UInt8]? = nil
        switch o["mask"] {
        case nil, .null?: break
        case .string(let text)?:
            guard let parsed = BytePattern.parseHex(text), parsed.count == bytes.count else { return nil }
            mask = parsed
        default: return nil
        }
        return BytePattern(offset: offset, bytes: bytes, mask: mask, range: range)
    }

    /// An optional list (absent or null: empty), each element mapped; nil if any element fails.
    private static func list<T>(_ value: Value?, _ element: (Value) -> T?) -> [T]? {
        switch value {
        case nil, .null?: return []
        case .array(let items)?:
            var out: [T] = []
            out.reserveCapacity(items.count)
            for item in items {
                guard let mapped = element(item) else { return nil }
                out.append(mapped)
            }
            return out
        default: return nil
        }
    }

    private static func string(_ value: Value) -> String? {
        if case .string(let text) = value { return text }
        return nil
    }

    private static func string(_ value: Value?, default fallback: String) -> String? {
        switch value {
        case nil, .null?: return fallback
        case .string(let text)?: return text
        default: return nil
        }
    }

    private static func int(_ value: Value?, default fallback: Int) -> Int? {
        switch value {
        case nil, .null?: return fallback
        case .int(let n)?: return n
        default: return nil
        }
    }

    // MARK: JSON

    private mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func value(depth: Int) -> Value? {
        // The schema nests five deep; a deeper file is no declaration file.
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
        default: return integer()
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
            guard let member = value(depth: depth + 1), members[key] == nil else { return nil }
            members.pairs.append((key, member))
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

    /// A JSON integer; fractions and exponents are left to `JSONDecoder`.
    private mutating func integer() -> Value? {
        var negative = false
        if bytes[index] == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        let start = index
        var n = 0
        while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
            let (times, o1) = n.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times.addingReportingOverflow(Int(bytes[index] - 0x30))
            guard !o1, !o2 else { return nil }
            n = sum
            index += 1
        }
        guard index > start, !(bytes[start] == 0x30 && index - start > 1) else { return nil }
        if index < bytes.count, [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[index]) { return nil }
        return .int(negative ? -n : n)
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
