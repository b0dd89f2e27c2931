/// One file found by the walk.
public struct WalkedFile: Sendable {
    /// The path as the user would name it (the argument joined with the relative path).
    public let displayPath: String
    /// The absolute path, links not resolved (the cache key).
    public let absolutePath: String
    /// The path below the argument it was found in (the file's own name for a file argument).
    public let relativePath: String
}
