/// The entry names of a zip archive, read from its central directory at the end of the file.
///
/// Only the end-of-central-directory record (in the last 64 KiB) and the central directory
/// itself (capped) are read; nothing is decompressed. A prefix before the archive (a
/// self-extractor stub) and zip64 records are handled.
public struct ZipDirectory: Sendable {
    /// One central-directory entry.
    public struct Entry: Sendable, Equatable {
        /// The entry's path inside the archive.
        public let name: String
        /// Compressed size in bytes.
        public let compressedSize: UInt64
        /// Uncompressed size in bytes.
        public let uncompressedSize: UInt64
        /// Compression method (0 stored, 8 deflate).
        public let method: UInt16
        /// Offset of the entry's local header from the start of the file.
        public let localHeaderOffset: UInt64
        /// CRC-32 of the uncompressed data.
        public var crc32: UInt32 = 0
        /// General-purpose flags (bit 0: encrypted; bit 11: UTF-8 name).
        public var flags: UInt16 = 0

        /// Whether the entry is encrypted (flag bit 0).
        public var isEncrypted: Bool { flags & 1 != 0 }
        /// Whether the entry names a directory (its name ends with `/`).
        public var isDirectory: Bool { name.hasSuffix("/") }
    }

    /// The entries, in directory order (at most `maxEntries`).
    public let entries: [Entry]
    /// Bytes before the archive proper (0 for an ordinary zip).
    public let prefixLength: UInt64
    /// How many entries the end record declares (more than `entries.count` when the caps cut the directory).
    public let declaredEntryCount: UInt64

    /// Whether the caps (`maxEntries`, `maxDirectoryBytes`) left entries unread.
    public var isPartial: Bool { UInt64(entries.count) < declaredEntryCount }

    /// How many entries are read at most.
    public static let maxEntries = 20_000
    /// How many bytes of central directory are read at most.
    public static let maxDirectoryBytes = 1 << 20

    /// Reads the directory of the zip archive in `sample`; nil when there is no valid end record.
    public init?(_ sample: FileSample) {
        let eocdMax = 22 + 0xFFFF
        guard let tail = sample.tail(eocdMax), tail.count >= 22 else { return nil }
        let tailStart = sample.size - tail.count
        // Find the last end-of-central-directory signature whose record is self-consistent.
        var found: (pos: Int, cdSize: UInt64, cdOffset: UInt64, count: UInt64)? = nil
        var i = tail.endIndex - 22
        while i >= tail.startIndex {
            if tail[i] == 0x50, tail[i + 1] == 0x4B, tail[i + 2] == 0x05, tail[i + 3] == 0x06 {
                let commentLength = Int(ZipDirectory.u16(tail, i + 20))
                if i + 22 + commentLength <= tail.endIndex {
                    found = (
                        tailStart + (i - tail.startIndex), UInt64(ZipDirectory.u32(tail, i + 12)),
                        UInt64(ZipDirectory.u32(tail, i + 16)), UInt64(ZipDirectory.u16(tail, i + 10))
                    )
                    break
                }
            }
            i -= 1
        }
        guard let eocd = found?.pos, var (_, cdSize, cdOffset, count) = found else { return nil }
        var directoryEnd = eocd
        if cdSize == 0xFFFF_FFFF || cdOffset == 0xFFFF_FFFF || count == 0xFFFF {
            // zip64: the locator sits just before the classic record.
            guard let locator = sample.bytes(at: eocd - 20, count: 20), ZipDirectory.u32(locator, locator.startIndex) == 0x0706_4B50
            else { return nil }
            let recordOffset = Int(clamping: ZipDirectory.u64(locator, locator.startIndex + 8))
            guard let record = sample.bytes(at: recordOffset, count: 56), ZipDirectory.u32(record, record.startIndex) == 0x0606_4B50
            else { return nil }
            count = ZipDirectory.u64(record, record.startIndex + 32)
            cdSize = ZipDirectory.u64(record, record.startIndex + 40)
            cdOffset = ZipDirectory.u64(record, record.startIndex + 48)
            directoryEnd = recordOffset
        }
        guard cdSize <= UInt64(directoryEnd) else { return nil }
        let cdStart = directoryEnd - Int(cdSize)
        let prefix = UInt64(cdStart) >= cdOffset ? UInt64(cdStart) - cdOffset : 0
        // A huge directory is read only up to the cap: the entries that fit are listed (isPartial).
        let readable = min(Int(cdSize), ZipDirectory.maxDirectoryBytes)
        guard let directory = sample.bytes(at: cdStart, count: readable) else { return nil }
        var entries: [Entry] = []
        var p = directory.startIndex
        while p + 46 <= directory.endIndex, entries.count < min(Int(clamping: count), ZipDirectory.maxEntries) {
            guard ZipDirectory.u32(directory, p) == 0x0201_4B50 else { break }
            let flags = ZipDirectory.u16(directory, p + 8)
            let method = ZipDirectory.u16(directory, p + 10)
            let crc = ZipDirectory.u32(directory, p + 16)
            var compressed = UInt64(ZipDirectory.u32(directory, p + 20))
            var uncompressed = UInt64(ZipDirectory.u32(directory, p + 24))
            let nameLength = Int(ZipDirectory.u16(directory, p + 28))
            let extraLength = Int(ZipDirectory.u16(directory, p + 30))
            let commentLength = Int(ZipDirectory.u16(directory, p + 32))
            var local = UInt64(ZipDirectory.u32(directory, p + 42))
            guard p + 46 + nameLength + extraLength + commentLength <= directory.endIndex else { break }
            let name = ZipDirectory.decodeName(directory[(p + 46)..<(p + 46 + nameLength)], flags: flags)
            // zip64 extra field carries the real sizes/offset for fields set to 0xFFFFFFFF.
            var e = p + 46 + nameLength
            let extraEnd = e + extraLength
            while e + 4 <= extraEnd {
                let tag = ZipDirectory.u16(directory, e)
                let size = Int(ZipDirectory.u16(directory, e + 2))
                if tag == 0x0001 {
                    var q = e + 4
                    if uncompressed == 0xFFFF_FFFF, q + 8 <= e + 4 + size { uncompressed = ZipDirectory.u64(directory, q); q += 8 }
                    if compressed == 0xFFFF_FFFF, q + 8 <= e + 4 + size { compressed = ZipDirectory.u64(directory, q); q += 8 }
                    if local == 0xFFFF_FFFF, q + 8 <= e + 4 + size { local = ZipDirectory.u64(directory, q) }
                }
                e += 4 + size
            }
            entries.append(
                Entry(
                    name: name, compressedSize: compressed, uncompressedSize: uncompressed, method: method,
                    localHeaderOffset: local.addingReportingOverflow(prefix).overflow ? .max : local + prefix, crc32: crc, flags: flags))
            p += 46 + nameLength + extraLength + commentLength
        }
        guard !entries.isEmpty || count == 0 else { return nil }
        self.entries = entries
        self.prefixLength = prefix
        self.declaredEntryCount = max(count, UInt64(entries.count))
    }

    /// The contents of a small stored (uncompressed) entry, such as ODF's `mimetype`.
    public func storedContents(of name: String, in sample: FileSample, limit: Int = 256) -> [UInt8]? {
        guard let entry = entries.first(where: { $0.name == name }), entry.method == 0,
            entry.uncompressedSize <= UInt64(limit),
            let header = sample.bytes(at: Int(clamping: entry.localHeaderOffset), count: 30),
            ZipDirectory.u32(header, header.startIndex) == 0x0403_4B50
        else { return nil }
        let start =
            Int(entry.localHeaderOffset) + 30 + Int(ZipDirectory.u16(header, header.startIndex + 26))
            + Int(ZipDirectory.u16(header, header.startIndex + 28))
        return sample.bytes(at: start, count: Int(entry.uncompressedSize)).map(Array.init)
    }

    static func u16(_ b: ArraySlice<UInt8>, _ i: Int) -> UInt16 { UInt16(b[i]) | UInt16(b[i + 1]) << 8 }
    static func u32(_ b: ArraySlice<UInt8>, _ i: Int) -> UInt32 {
        UInt32(b[i]) | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 3]) << 24
    }
    static func u64(_ b: ArraySlice<UInt8>, _ i: Int) -> UInt64 { UInt64(u32(b, i)) | UInt64(u32(b, i + 4)) << 32 }
}
