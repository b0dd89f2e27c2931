/// Reads an OLE2 compound file (MS-CFB, the container of `.doc`, `.xls` and `.ppt`): its
/// directory, and its streams with capped reads.
///
/// Every chain is followed at most as many steps as its table has entries, so a loop in the
/// allocation tables ends; every size is checked against the file before anything is read.
package struct CompoundFile {
    /// Most bytes of one stream read.
    package static let maxStreamBytes = 16 << 20
    /// Most directory entries read.
    package static let maxEntries = 4096

    /// One directory entry.
    package struct Entry {
        /// The stream or storage name.
        package var name: String
        /// 1 storage, 2 stream, 5 root.
        package var type: UInt8
        /// The first sector of its data.
        package var start: UInt32
        /// Its size in bytes.
        package var size: Int
        /// The directory indexes of its left and right siblings and (for a storage) its first child; `noEntry` for none.
        package var left = CompoundFile.noEntry, right = CompoundFile.noEntry, child = CompoundFile.noEntry
    }

    /// The index that links to no directory entry.
    package static let noEntry: UInt32 = 0xFFFF_FFFF
    /// Deepest storage nesting walked by `paths`.
    package static let maxDepth = 32

    private let sample: FileSample
    private let sectorSize: Int
    private let miniCutoff: Int
    private let fat: [UInt32]
    private let miniFAT: [UInt32]
    /// The sectors holding the mini stream (the root entry's data), in order, as far as its
    /// chain is intact and up to `maxStreamBytes`: a small stream's 64-byte sectors are read
    /// through it one by one, not by reading the whole mini stream for each.
    private let miniStreamSectors: [UInt32]
    /// The directory in file order (the root first).
    package let entries: [Entry]

    /// Reads the header, the allocation tables and the directory of `sample`.
    package init(_ sample: FileSample) throws {
        self.sample = sample
        guard let header = sample.bytes(at: 0, count: 512), Array(header.prefix(8)) == [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]
        else { throw VignetteError(.corrupt, "no OLE2 compound file header") }
        let shift = Int(Self.u16(header, 0x1E))
        guard shift == 9 || shift == 12, Self.u16(header, 0x20) == 6 else {
            throw VignetteError(.corrupt, "the compound file's sector sizes are invalid")
        }
        sectorSize = 1 << shift
        miniCutoff = Int(Self.u32(header, 0x38))
        let sectors = sample.size / sectorSize
        // The FAT's own sectors: 109 in the header, the rest in the DIFAT chain.
        // No more FAT sectors than it takes to map every sector of the file.
        let fatCount = min(Int(Self.u32(header, 0x2C)), sectors / (sectorSize / 4) + 1)
        var fatSectors = (0..<109).map { Self.u32(header, 0x4C + 4 * $0) }.filter { $0 < 0xFFFF_FFFA }
        var difat = Self.u32(header, 0x44)
        var steps = 0
        while difat < 0xFFFF_FFFA, fatSectors.count < fatCount, steps < sectors {
            guard let block = sample.bytes(at: (Int(difat) + 1) * sectorSize, count: sectorSize) else { break }
            let perSector = sectorSize / 4 - 1
            fatSectors += (0..<perSector).map { Self.u32(block, 4 * $0) }.filter { $0 < 0xFFFF_FFFA }
            difat = Self.u32(block, 4 * perSector)
            steps += 1
        }
        var fat: [UInt32] = []
        for sector in fatSectors.prefix(fatCount) {
            guard let block = sample.bytes(at: (Int(sector) + 1) * sectorSize, count: sectorSize) else {
                throw VignetteError(.corrupt, "the compound file's allocation table points past its end")
            }
            fat += (0..<(sectorSize / 4)).map { Self.u32(block, 4 * $0) }
        }
        self.fat = fat
        let miniFATBytes = try Self.read(sample, chain: Self.u32(header, 0x3C), table: fat, sectorSize: sectorSize, limit: 4 << 20)
        miniFAT = (0..<(miniFATBytes.count / 4)).map { Self.u32(miniFATBytes[...], 4 * $0) }
        let directory = try Self.read(
            sample, chain: Self.u32(header, 0x30), table: fat, sectorSize: sectorSize, limit: Self.maxEntries * 128)
        var entries: [Entry] = []
        for offset in stride(from: 0, to: directory.count - 127, by: 128) {
            let raw = directory[offset..<(offset + 128)]
            let nameBytes = min(Int(Self.u16(raw, 0x40)), 64)
            let units = (0..<max(0, nameBytes / 2 - 1)).map { Self.u16(raw, 2 * $0) }
            let size =
                sectorSize == 512
                ? Int(Self.u32(raw, 0x78)) : Int(clamping: UInt64(Self.u32(raw, 0x78)) | UInt64(Self.u32(raw, 0x7C)) << 32)
            entries.append(
                Entry(
                    name: String(decoding: units, as: UTF16.self), type: raw[raw.startIndex + 0x42], start: Self.u32(raw, 0x74), size: size,
                    left: Self.u32(raw, 0x44), right: Self.u32(raw, 0x48), child: Self.u32(raw, 0x4C)))
        }
        self.entries = entries
        var chain: [UInt32] = []
        if let root = entries.first, root.type == 5 {
            let count = (min(root.size, Self.maxStreamBytes) + sectorSize - 1) / sectorSize
            var sector = root.start
            while sector < 0xFFFF_FFFA, chain.count < count, Int(sector) < fat.count {
                chain.append(sector)
                sector = fat[Int(sector)]
            }
        }
        miniStreamSectors = chain
    }

    /// Every stream and storage under the root with its path ("Storage/Stream"), in directory
    /// order of each storage's children; each entry is visited once, so links that loop or
    /// share entries end, and storages deeper than `maxDepth` are not entered.
    package func paths() -> [(path: String, entry: Entry)] {
        guard let root = entries.first, root.type == 5 else { return [] }
        var out: [(path: String, entry: Entry)] = []
        var seen: Set<UInt32> = [0]
        // Children are a tree of siblings: walk it in order, with an explicit stack.
        func children(of first: UInt32) -> [UInt32] {
            var result: [UInt32] = []
            var stack: [UInt32] = []
            var current = first
            while true {
                while current != Self.noEntry, Int(current) < entries.count, seen.insert(current).inserted {
                    stack.append(current)
                    current = entries[Int(current)].left
                }
                guard let next = stack.popLast() else { return result }
                result.append(next)
                current = entries[Int(next)].right
            }
        }
        var pending: [(index: UInt32, prefix: String, depth: Int)] = children(of: root.child).reversed().map { ($0, "", 1) }
        while let (index, prefix, depth) = pending.popLast() {
            let entry = entries[Int(index)]
            guard entry.type == 1 || entry.type == 2 else { continue }
            let path = prefix + entry.name
            out.append((path, entry))
            if entry.type == 1, depth < Self.maxDepth {
                pending += children(of: entry.child).reversed().map { ($0, path + "/", depth + 1) }
            }
        }
        return out
    }

    /// The first `limit` bytes (at most `maxStreamBytes`) of stream `name` at any depth, or nil
    /// when there is none; `whole` says whether that is all of it.
    package func stream(_ name: String, limit: Int = CompoundFile.maxStreamBytes) throws -> (bytes: [UInt8], whole: Bool)? {
        guard let entry = entries.first(where: { $0.type == 2 && $0.name == name }) else { return nil }
        return try contents(of: entry, limit: limit)
    }

    /// The first `limit` bytes (at most `maxStreamBytes`) of the stream `entry` (one of
    /// `entries` or `paths()`); `whole` says whether that is all of it.
    package func contents(of entry: Entry, limit: Int = CompoundFile.maxStreamBytes) throws -> (bytes: [UInt8], whole: Bool) {
        let name = entry.name
        let wanted = min(entry.size, limit, Self.maxStreamBytes)
        var bytes: [UInt8]
        if entry.size < miniCutoff, let root = entries.first, root.type == 5 {
            bytes = []
            var sector = entry.start
            var steps = 0
            while sector < 0xFFFF_FFFA, bytes.count < wanted, steps <= miniFAT.count {
                let offset = Int(sector) * 64
                let holder = offset / sectorSize
                guard holder < miniStreamSectors.count, Int(sector) < miniFAT.count,
                    let block = sample.bytes(
                        at: (Int(miniStreamSectors[holder]) + 1) * sectorSize + offset % sectorSize, count: 64)
                else { throw VignetteError(.corrupt, "stream \(name) runs past the compound file's mini stream") }
                bytes += block
                sector = miniFAT[Int(sector)]
                steps += 1
            }
        } else {
            bytes = try Self.read(sample, chain: entry.start, table: fat, sectorSize: sectorSize, limit: wanted)
        }
        return (Array(bytes.prefix(wanted)), wanted == entry.size)
    }

    /// The sectors of the chain from `start` through `table`, until `limit` bytes are read.
    private static func read(_ sample: FileSample, chain start: UInt32, table: [UInt32], sectorSize: Int, limit: Int) throws -> [UInt8] {
        var out: [UInt8] = []
        var sector = start
        var steps = 0
        while sector < 0xFFFF_FFFA, out.count < limit {
            guard Int(sector) < table.count, steps <= table.count,
                let block = sample.bytes(at: (Int(sector) + 1) * sectorSize, count: sectorSize)
            else { throw VignetteError(.corrupt, "a chain of the compound file is broken or runs past its end") }
            out += block
            sector = table[Int(sector)]
            steps += 1
        }
        return out
    }

    /// The little-endian 16-bit value at `i` of `b`.
    package static func u16(_ b: ArraySlice<UInt8>, _ i: Int) -> UInt16 {
        UInt16(b[b.startIndex + i]) | UInt16(b[b.startIndex + i + 1]) << 8
    }

    /// The little-endian 32-bit value at `i` of `b`.
    package static func u32(_ b: ArraySlice<UInt8>, _ i: Int) -> UInt32 {
        UInt32(u16(b, i)) | UInt32(u16(b, i + 2)) << 16
    }
}
