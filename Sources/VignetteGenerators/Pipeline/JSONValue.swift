/// A JSON value, shown as JSON shows it (numbers without a needless `.0`).
public enum JSONValue: Decodable, Sendable, Equatable, CustomStringConvertible {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number.
    case number(Double)
    /// A string.
    case string(String)
    /// A list.
    case list([JSONValue])
    /// An object.
    case object([String: JSONValue])

    /// Decodes whichever JSON value is there.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let b = try? c.decode(Bool.self) {
            self = .bool(b)
        } else if let n = try? c.decode(Double.self) {
            self = .number(n)
        } else if let s = try? c.decode(String.self) {
            self = .string(s)
        } else if let l = try? c.decode([JSONValue].self) {
            self = .list(l)
        } else {
            self = .object(try c.decode([String: JSONValue].self))
        }
    }

    /// The value as JSON shows it; lists and objects by kind only.
    public var description: String {
        switch self {
        case .null: "null"
        case .bool(let b): String(b)
        case .number(let n): n == n.rounded() && abs(n) < 1e15 ? String(Int(n)) : String(n)
        case .string(let s): "\"\(s)\""
        case .list: "a list"
        case .object: "an object"
        }
    }
}
