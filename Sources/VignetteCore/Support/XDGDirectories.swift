import Foundation

/// The XDG base directories (`XDG_CACHE_HOME`, `XDG_DATA_HOME`, `XDG_DATA_DIRS`), read one way everywhere.
///
/// The base directory specification says a variable that is unset, empty or holds a relative
/// path is ignored and its default used; each entry of `XDG_DATA_DIRS` likewise.
public struct XDGDirectories: Sendable, Equatable {
    /// `$HOME`, else the account's home directory.
    public let home: String
    /// `$XDG_CACHE_HOME`, else `~/.cache`.
    public let cacheHome: String
    /// `$XDG_DATA_HOME`, else `~/.local/share`.
    public let dataHome: String
    /// `$XDG_DATA_DIRS`, else `/usr/local/share` and `/usr/share`, most important first.
    public let dataDirectories: [String]

    /// The directories named by `environment` (the process's own when nil).
    public init(environment: [String: String]? = nil) {
        let environment = environment ?? ProcessInfo.processInfo.environment
        home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        cacheHome = Self.absolute(environment["XDG_CACHE_HOME"]) ?? home + "/.cache"
        dataHome = Self.absolute(environment["XDG_DATA_HOME"]) ?? home + "/.local/share"
        let dirs = (environment["XDG_DATA_DIRS"] ?? "").split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
        dataDirectories = dirs.isEmpty ? ["/usr/local/share", "/usr/share"] : dirs
    }

    /// The value when it is an absolute path, else nil.
    static func absolute(_ value: String?) -> String? {
        guard let value, value.hasPrefix("/") else { return nil }
        return value
    }
}
