/// A file name that is not valid UTF-8, shown in messages with its other bytes as `\xNN`.
///
/// Linux names are bytes; Swift's strings are Unicode. A name from an older system (Latin-1, say)
/// cannot be carried as a `String` without changing it, so Vignette names it in errors instead.
public enum UndecodableName {
    /// The bytes with ASCII kept and every other byte as `\xNN`: `bad\xFFname.jpg`.
    public static func shown(_ bytes: [UInt8]) -> String {
        bytes.map { $0 < 0x80 ? String(UnicodeScalar($0)) : "\\x" + BytePattern.hexString([$0]) }.joined()
    }
}
