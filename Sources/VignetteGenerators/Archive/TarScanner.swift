import VignetteCore

/// Reads the headers of a tar stream in order, skipping file data, until the end or a limit.
///
/// Understands V7, ustar (prefix), GNU (`././@LongLink` names `L`/`K`, sparse `S`, base-256
/// sizes) and pax (`x` headers: `path`, `linkpath`, `size`, GNU sparse names). Nothing is
/// written anywhere; memory holds one header plus capped long names and pax records.
struct TarScanner {
    /// How a scan ended.
    enum End: Equatable {
        /// The end-of-archive marker or the end of the stream was reached.
        case complete
        /// The entry cap was reached; the archive may hold more.
        case entryLimit
        /// The byte or time budget ran out ("stopped after 256 MB of data").
        case budget(String)
        /// The stream is damaged after the entries read ("unexpected end of gzip data").
        case damaged(String)
    }

    /// Longest GNU long name or link name read.
    static let maxLongName = 64 << 10
    /// Largest pax extended header read (bigger ones are skipped).
    static let maxPaxHeader = 1 << 20
    /// Most bytes of entry names and link targets kept in memory (64 KiB names add up fast).
    static let maxNameBytes = 8 << 20

    /// The stream of tar bytes (already decompressed).
    let stream: ByteStream
    /// Most entries read.
    let maxEntries: Int

    /// The entries and how the scan ended; `firstBlock` is the first 512 bytes, already read.
    ///
    /// - Throws: `.corrupt` when the first block is not a tar header, or when the stream
    ///   fails before any entry could be read.
    func scan(firstBlock: [UInt8]) throws -> (entries: [ArchiveEntry], end: End) {
        var entries: [ArchiveEntry] = []
        var block = firstBlock
        var longName: [UInt8]? = nil
        var longLink: [UInt8]? = nil
        var pax: [String: String] = [:]
        var headersSeen = 0
        var nameBytes = 0
        do {
            while true {
                guard !block.isEmpty else { return (entries, .complete) }
                guard let header = TarHeaderBlock(block) else { return (entries, .damaged("unexpected end of tar data")) }
                if header.isZero { return (entries, .complete) }
                guard header.hasValidChecksum else {
                    if headersSeen == 0 { throw VignetteError(.corrupt, "not a tar archive (bad header checksum)") }
                    return (entries, .damaged("bad tar header checksum"))
                }
                headersSeen += 1
                guard let stored = header.size, stored <= UInt64(Int.max - 511) else {
                    return (entries, .damaged("invalid size field in a tar header"))
                }
                var dataSize = Int(stored)
                let flag = header.typeFlag
                switch flag {
                case UInt8(ascii: "L"), UInt8(ascii: "K"):
                    let data = try readData(dataSize, cap: TarScanner.maxLongName)
                    let value = data.map { Array($0.prefix { $0 != 0 }) }
                    if flag == UInt8(ascii: "L") { longName = value } else { longLink = value }
                case UInt8(ascii: "x"):
                    if let data = try readData(dataSize, cap: TarScanner.maxPaxHeader) {
                        pax.merge(TarScanner.paxRecords(data)) { $1 }
                    }
                case UInt8(ascii: "g"):
                    _ = try readData(dataSize, cap: 0)  // global defaults: nothing to list
                default:
                    let paxSize = pax["size"].flatMap { UInt64($0) }
                    if let paxSize, paxSize <= UInt64(Int.max - 511) { dataSize = Int(paxSize) }
                    if let entry = TarScanner.entry(header, longName: longName, longLink: longLink, pax: pax, dataSize: dataSize) {
                        entries.append(entry)
                        nameBytes += entry.path.utf8.count
                        if case .symlink(let target) = entry.kind { nameBytes += target.utf8.count }
                        if case .hardlink(let target) = entry.kind { nameBytes += target.utf8.count }
                        if nameBytes > TarScanner.maxNameBytes {
                            return (entries, .budget("stopped after \(ByteCount.text(nameBytes)) of entry names"))
                        }
                    }
                    if TarScanner.headerOnly(flag) { dataSize = 0 }
                    if flag == UInt8(ascii: "S"), header.bytes[482] != 0 {
                        // Old GNU sparse: more sparse-map blocks follow the header, each flagging the next.
                        var more = true
                        while more {
                            let extension_ = try stream.read(512)
                            guard extension_.count == 512 else { return (entries, .damaged("unexpected end of tar data")) }
                            more = extension_[504] != 0
                        }
                    }
                    longName = nil
                    longLink = nil
                    pax = [:]
                    let padded = (dataSize + 511) / 512 * 512
                    guard try stream.skip(padded) == padded else {
                        return (entries, .damaged("unexpected end of tar data"))
                    }
                    if entries.count >= maxEntries { return (entries, .entryLimit) }
                }
                block = try stream.read(512)
            }
        } catch let error as VignetteError where error.code == .limitExceeded {
            return (entries, .budget(error.reason))
        } catch let error as VignetteError where !entries.isEmpty {
            // What was read is worth showing: a cut download still tells what it held.
            return (entries, .damaged(error.reason))
        }
    }

    /// Reads `size` bytes of member data (plus padding) when at most `cap`, else skips them; nil when skipped.
    private func readData(_ size: Int, cap: Int) throws -> [UInt8]? {
        let padded = (size + 511) / 512 * 512
        if size <= cap {
            let data = try stream.read(padded)
            guard data.count == padded else { throw VignetteError(.corrupt, "unexpected end of tar data") }
            return Array(data.prefix(size))
        }
        guard try stream.skip(padded) == padded else { throw VignetteError(.corrupt, "unexpected end of tar data") }
        return nil
    }

    /// The entry a header describes, with GNU and pax overrides applied.
    private static func entry(
        _ header: TarHeaderBlock, longName: [UInt8]?, longLink: [UInt8]?, pax: [String: String], dataSize: Int
    ) -> ArchiveEntry? {
        var path = String(decoding: longName ?? header.path, as: UTF8.self)
        if let name = pax["path"] ?? pax["GNU.sparse.name"] { path = name }
        var link = String(decoding: longLink ?? header.linkName, as: UTF8.self)
        if let target = pax["linkpath"] { link = target }
        var size = UInt64(dataSize)
        if let real = (pax["GNU.sparse.realsize"] ?? pax["GNU.sparse.size"]).flatMap({ UInt64($0) }) { size = real }
        let kind: ArchiveEntry.Kind
        switch header.typeFlag {
        case UInt8(ascii: "1"): kind = .hardlink(link)
        case UInt8(ascii: "2"): kind = .symlink(link)
        case UInt8(ascii: "3"): kind = .special("character device")
        case UInt8(ascii: "4"): kind = .special("block device")
        case UInt8(ascii: "5"), UInt8(ascii: "D"): kind = .directory
        case UInt8(ascii: "6"): kind = .special("FIFO")
        case UInt8(ascii: "V"): return nil  // a volume label, not a member
        case UInt8(ascii: "S"):
            kind = .file
            if let real = header.gnuSparseRealSize, real > 0 { size = real }
        default:
            kind = path.hasSuffix("/") ? .directory : .file
        }
        return ArchiveEntry(path: path, kind: kind, size: kind == .file ? size : 0)
    }

    /// Types whose size field says nothing about data following the header.
    private static func headerOnly(_ flag: UInt8) -> Bool {
        (UInt8(ascii: "1")...UInt8(ascii: "6")).contains(flag)
    }

    /// The `key=value` records of a pax extended header ("%d key=value\n" each); malformed ones end the parse.
    static func paxRecords(_ data: [UInt8]) -> [String: String] {
        var records: [String: String] = [:]
        var p = 0
        while p < data.count {
            var length = 0
            var q = p
            while q < data.count, data[q] >= UInt8(ascii: "0"), data[q] <= UInt8(ascii: "9"), length < data.count {
                length = length * 10 + Int(data[q] - UInt8(ascii: "0"))
                q += 1
            }
            guard q < data.count, data[q] == 32, length > q - p + 1, length <= data.count - p else { break }
            let record = data[(q + 1)..<(p + length)]
            guard record.last == UInt8(ascii: "\n"), let eq = record.firstIndex(of: UInt8(ascii: "=")) else { break }
            let key = String(decoding: record[record.startIndex..<eq], as: UTF8.self)
            records[key] = String(decoding: record[(eq + 1)..<(record.endIndex - 1)], as: UTF8.self)
            p += length
        }
        return records
    }
}
