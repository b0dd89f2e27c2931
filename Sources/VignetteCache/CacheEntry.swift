import Foundation
import VignetteCore

/// A thumbnail (or fail entry) read back from the cache: the keys it records about its original.
public struct CacheEntry: Sendable, Equatable {
    /// Every `tEXt` key and value of the PNG.
    public let text: [String: String]

    /// Reads the entry from PNG bytes; nil when they are not a PNG.
    public init?(pngBytes: [UInt8]) {
        guard let text = PNGTextChunks.read(pngBytes) else { return nil }
        self.text = text
    }

    /// Reads the entry at `path` (at most the first 16 KiB: text chunks come before the pixels);
    /// nil when there is no such file or it is not a PNG.
    public init?(path: String) {
        guard let bytes = try? FileSample.readPrefix(ofFile: path, count: 16 << 10) else { return nil }
        self.init(pngBytes: bytes)
    }

    /// `Thumb::URI`.
    public var uri: String? { text["Thumb::URI"] }
    /// `Thumb::MTime` as a number (tumbler writes a fractional one); nil when absent or not a number.
    public var modificationTime: Double? { text["Thumb::MTime"].flatMap { Double($0.trimmingCharacters(in: .whitespaces)) } }
    /// `Thumb::Size`; nil when absent or not a number.
    public var size: Int? { text["Thumb::Size"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } }
    /// `Thumb::Mimetype`.
    public var mimeType: String? { text["Thumb::Mimetype"] }
    /// `Software`.
    public var software: String? { text["Software"] }

    /// Whether the entry still describes `source`: the same URI, the same MTime (any difference,
    /// earlier or later, makes it stale) and, when recorded, the same size.
    public func isValid(for source: SourceFile) -> Bool {
        guard uri == source.uri else { return false }
        return matches(
            modificationSeconds: source.modificationSeconds, modificationNanoseconds: source.modificationNanoseconds, size: source.size)
            ?? false
    }
}
