import VignetteCore

/// Reads one entry of a zip archive into memory: stored or deflated, size-capped, CRC-checked.
///
/// The declared size is checked against the cap before anything is allocated, and inflation
/// stops one byte past the declared size, so an entry that lies about its size (a zip bomb)
/// costs at most the cap.
struct ZipEntryReader {
    /// Largest uncompressed entry read by default (32 MiB).
    static let defaultMaxBytes = 32 << 20

    /// The archive's bytes.
    let sample: FileSample
    /// Most uncompressed bytes an entry may have.
    var maxBytes: Int = ZipEntryReader.defaultMaxBytes

    /// The uncompressed contents of `entry`.
    func contents(of entry: ZipDirectory.Entry) throws -> [UInt8] {
        let name = entry.name
        if entry.isEncrypted { throw VignetteError(.unsupported, "\(name) is encrypted") }
        guard entry.method == 0 || entry.method == 8 else {
            throw VignetteError(.unsupported, "\(name) uses compression method \(entry.method), not stored or deflate")
        }
        guard entry.uncompressedSize <= UInt64(maxBytes) else {
            throw VignetteError(
                .limitExceeded,
                "\(name) is \(ByteCount.text(Int(clamping: entry.uncompressedSize))) uncompressed, over the limit of \(ByteCount.text(maxBytes))"
            )
        }
        let size = Int(entry.uncompressedSize)
        let (dataStart, compressed) = try data(of: entry)
        let bytes =
            entry.method == 0
            ? try stored(name: name, at: dataStart, compressed: compressed, size: size)
            : try inflated(name: name, at: dataStart, compressed: compressed, size: size)
        guard Decompressor.crc32(bytes) == entry.crc32 else {
            throw VignetteError(.corrupt, "\(name) fails its CRC-32 check")
        }
        return bytes
    }

    /// The first `count` uncompressed bytes of `entry`, or all of it (CRC-checked) when it is no
    /// bigger; a prefix cannot be CRC-checked, and inflation stops when `count` bytes are out.
    func prefix(of entry: ZipDirectory.Entry, count: Int) throws -> [UInt8] {
        guard entry.uncompressedSize > UInt64(count) else { return try contents(of: entry) }
        let name = entry.name
        if entry.isEncrypted { throw VignetteError(.unsupported, "\(name) is encrypted") }
        let (start, compressed) = try data(of: entry)
        switch entry.method {
        case 0: return try stored(name: name, at: start, compressed: count, size: count)
        case 8:
            let decompressor = try Decompressor(.deflate)
            var out = [UInt8](repeating: 0, count: count)
            var produced = 0
            var offset = start
            let end = start + compressed
            var pending: ArraySlice<UInt8> = []
            while produced < count {
                if pending.isEmpty, offset < end {
                    let n = min(ByteStream.chunkSize, end - offset)
                    guard let chunk = sample.bytes(at: offset, count: n) else { throw VignetteError(.corrupt, "\(name) could not be read") }
                    pending = chunk
                    offset += n
                }
                let step = try pending.withUnsafeBytes { input in
                    try out.withUnsafeMutableBytes { raw in
                        try decompressor.feed(input, finish: offset >= end, into: UnsafeMutableRawBufferPointer(rebasing: raw[produced...]))
                    }
                }
                pending = pending.dropFirst(step.consumed)
                produced += step.produced
                if step.ended || (step.consumed == 0 && step.produced == 0 && offset >= end) { break }
            }
            return Array(out.prefix(produced))
        default:
            throw VignetteError(.unsupported, "\(name) uses compression method \(entry.method), not stored or deflate")
        }
    }

    /// Where the compressed data of `entry` starts, and its length, checked against the archive.
    private func data(of entry: ZipDirectory.Entry) throws -> (start: Int, length: Int) {
        let name = entry.name
        guard let header = sample.bytes(at: Int(clamping: entry.localHeaderOffset), count: 30),
            ZipEntryReader.u32(header, 0) == 0x0403_4B50
        else { throw VignetteError(.corrupt, "\(name) has no valid local header") }
        let dataStart =
            Int(clamping: entry.localHeaderOffset) + 30 + Int(ZipEntryReader.u16(header, 26)) + Int(ZipEntryReader.u16(header, 28))
        let compressed = Int(clamping: entry.compressedSize)
        guard dataStart <= sample.size, compressed <= sample.size - dataStart else {
            throw VignetteError(.corrupt, "\(name) extends past the end of the archive")
        }
        return (dataStart, compressed)
    }

    private func stored(name: String, at start: Int, compressed: Int, size: Int) throws -> [UInt8] {
        guard compressed == size else {
            throw VignetteError(.corrupt, "\(name) is stored but its sizes differ (\(compressed) and \(size) bytes)")
        }
        var out: [UInt8] = []
        out.reserveCapacity(size)
        var offset = start
        while out.count < size {
            let n = min(FileSample.maxExtraRead, size - out.count)
            guard let chunk = sample.bytes(at: offset, count: n) else {
                throw VignetteError(.corrupt, "\(name) could not be read")
            }
            out += chunk
            offset += n
        }
        return out
    }

    private func inflated(name: String, at start: Int, compressed: Int, size: Int) throws -> [UInt8] {
        let decompressor = try Decompressor(.deflate)
        // One spare byte: output reaching it proves the entry is bigger than it says.
        var out = [UInt8](repeating: 0, count: size + 1)
        var produced = 0
        var offset = start
        let end = start + compressed
        var pending: ArraySlice<UInt8> = []
        var ended = false
        while !ended {
            if pending.isEmpty, offset < end {
                let n = min(ByteStream.chunkSize, end - offset)
                guard let chunk = sample.bytes(at: offset, count: n) else {
                    throw VignetteError(.corrupt, "\(name) could not be read")
                }
                pending = chunk
                offset += n
            }
            let last = offset >= end
            let step = try pending.withUnsafeBytes { input in
                try out.withUnsafeMutableBytes { raw in
                    try decompressor.feed(input, finish: last, into: UnsafeMutableRawBufferPointer(rebasing: raw[produced...]))
                }
            }
            pending = pending.dropFirst(step.consumed)
            produced += step.produced
            ended = step.ended
            if produced > size {
                throw VignetteError(.corrupt, "\(name) inflates to more than its declared \(ByteCount.text(size)); stopped there")
            }
            if !ended, step.consumed == 0, step.produced == 0, last {
                throw VignetteError(.corrupt, "unexpected end of deflate data in \(name)")
            }
        }
        guard produced == size else {
            throw VignetteError(.corrupt, "\(name) inflates to \(ByteCount.text(produced)), not its declared \(ByteCount.text(size))")
        }
        out.removeLast()
        return out
    }

    private static func u16(_ b: ArraySlice<UInt8>, _ i: Int) -> UInt16 {
        UInt16(b[b.startIndex + i]) | UInt16(b[b.startIndex + i + 1]) << 8
    }

    private static func u32(_ b: ArraySlice<UInt8>, _ i: Int) -> UInt32 {
        UInt32(u16(b, i)) | UInt32(u16(b, i + 2)) << 16
    }
}
