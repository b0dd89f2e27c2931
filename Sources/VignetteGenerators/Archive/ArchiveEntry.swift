/// One member of an archive, as listed: its path inside the archive, what it is, and its size.
struct ArchiveEntry: Sendable, Equatable {
    /// What the member is.
    enum Kind: Sendable, Equatable {
        /// A regular file.
        case file
        /// A directory.
        case directory
        /// A symbolic link to the target.
        case symlink(String)
        /// A hard link to another member.
        case hardlink(String)
        /// A device, FIFO or other special member, named ("character device").
        case special(String)
    }

    /// The path inside the archive, decoded as UTF-8 (invalid bytes become U+FFFD).
    var path: String
    /// What it is.
    var kind: Kind
    /// Uncompressed size in bytes.
    var size: UInt64
    /// Whether `size` is only a lower bound (the data was not read to its end).
    var sizeIsLowerBound = false
}
