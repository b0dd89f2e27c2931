/// One file found by the walk.
struct WalkedFile: Sendable {
    /// The path as the user would name it (the argument joined with the relative path).
    let displayPath: String
    /// The absolute path, links not resolved (the cache key).
    let absolutePath: String
    /// The path below the argument it was found in (the file's own name for a file argument).
    let relativePath: String
}
