import Foundation
public import VignetteCore

/// Lists tar archives (plain, gzip, bzip2, xz, lzma, zstd) as a tree with sizes and totals, and
/// names the single file inside a compressed stream that is not a tar.
///
/// The archive is streamed through the decompressor in chunks, never extracted and never
/// held in memory; work stops at `ArchiveLimits` (entries, bytes, time) and the listing says so.
public struct TarListingGenerator: BuiltInGenerator, PreviewGenerating {
    /// `tar-listing`.
    public let identifier = "tar-listing"
    /// tar (and through conformance `.tar.gz`, `.tar.bz2`, `.tar.xz`…), and gzip, bzip2, xz, lzma and zstd streams.
    public let supportedTypes = [
        "public.tar-archive", "org.gnu.gnu-tar-archive", "org.gnu.gnu-zip-archive", "public.bzip2-archive",
        "org.tukaani.xz-archive", "org.tukaani.lzma-archive", "com.facebook.zstandard-archive",
    ]
    /// None on size: the listing bounds its own work (`ArchiveLimits`).
    public let limits = GeneratorLimits.none
    private let archiveLimits: ArchiveLimits
    private let catalog: TypeCatalog

    /// Creates the generator over a catalog (for conformance), with work limits.
    public init(catalog: TypeCatalog, limits: ArchiveLimits = .standard) {
        self.catalog = catalog
        self.archiveLimits = limits
    }

    /// The tree of entries, or a one-entry listing for a compressed file that is not a tar.
    public func makePreview(for input: GeneratorInput, request: PreviewRequest) throws -> TextPreview {
        let sample = try input.randomAccess()
        let head = Array(sample.bytes(at: 0, count: min(1024, sample.size)) ?? [])
        let compression = try compression(of: head, type: input.type)
        let deadline = ContinuousClock.now + .milliseconds(Int(archiveLimits.maxSeconds * 1000))
        let stream = ByteStream(
            source: sample, decompressor: try compression.map(Decompressor.init), budget: archiveLimits.maxStreamBytes,
            deadline: deadline)
        let first = try stream.read(512)
        let header = TarHeaderBlock(first)
        let isTar = header?.hasValidChecksum == true || (header?.isZero == true && catalog.conforms(input.type, to: "public.tar-archive"))
        let rootName = input.filename ?? "(upload)"
        let shown = min(archiveLimits.maxShownEntries, request.maxLines)
        guard isTar else {
            guard let compression else { throw VignetteError(.declined, "not a tar archive (no valid tar header)") }
            return try singleFile(stream, first: first, compression: compression, head: head, input: input, size: sample.size)
                .preview(maxShown: shown)
        }
        let (entries, end) = try TarScanner(stream: stream, maxEntries: archiveLimits.maxEntries).scan(firstBlock: first)
        let note: String?
        switch end {
        case .complete: note = nil
        case .entryLimit: note = "listing stopped after \(CountText.grouped(entries.count)) entries; the archive may hold more"
        case .budget(let why): note = "listing \(why); the archive continues"
        case .damaged(let why): note = "archive damaged after \(CountText.counted(entries.count, "entry", plural: "entries")): \(why)"
        }
        var kind = input.type.localizedDescription
        if !catalog.conforms(input.type, to: "public.tar-archive") {
            kind = compression.map { "\($0.name)-compressed tar archive" } ?? "tar archive"
        }
        let listing = ArchiveListing(
            kind: kind, rootName: rootName, entries: entries, compressedSize: compression == nil ? nil : sample.size, note: note)
        return listing.preview(maxShown: shown)
    }

    /// The compression of the stream, from its first bytes (and the type, for headerless lzma).
    private func compression(of head: [UInt8], type: UniformType) throws -> Decompressor.Kind? {
        if head.starts(with: [0x1F, 0x8B]) { return .gzip }
        if head.starts(with: Array("BZh".utf8)) { return .bzip2 }
        if head.starts(with: [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00]) { return .xz }
        if head.starts(with: [0x28, 0xB5, 0x2F, 0xFD]) { return .zstd }
        if head.starts(with: Array("LZIP".utf8)) { throw VignetteError(.declined, "lzip compression is not supported") }
        if catalog.conforms(type, to: "org.tukaani.lzma-archive"), let props = head.first, props < 225 { return .lzma }
        return nil
    }

    /// A one-entry listing for a compressed file that is not a tar: its name and uncompressed size.
    private func singleFile(
        _ stream: ByteStream, first: [UInt8], compression: Decompressor.Kind, head: [UInt8], input: GeneratorInput, size: Int
    ) throws -> ArchiveListing {
        var total = first.count
        var note: String? = nil
        if first.count == 512 {
            do {
                while true {
                    let n = try stream.skip(1 << 20)
                    total += n
                    if n < 1 << 20 { break }
                }
            } catch let error as VignetteError where error.code == .limitExceeded {
                note = "size not known: \(error.reason)"
            } catch let error as VignetteError {
                note = "data damaged after \(ByteCount.text(total)): \(error.reason)"
            }
        }
        let name = (compression == .gzip ? TarListingGenerator.gzipName(head) : nil) ?? TarListingGenerator.strippedName(input.filename)
        let entry = ArchiveEntry(path: name, kind: .file, size: UInt64(total), sizeIsLowerBound: note != nil)
        return ArchiveListing(
            kind: "\(compression.name)-compressed file", rootName: input.filename ?? "(upload)", entries: [entry], compressedSize: size,
            note: note)
    }

    /// The original file name stored in a gzip header (FNAME), if any.
    static func gzipName(_ head: [UInt8]) -> String? {
        guard head.count > 10, head[3] & 0x08 != 0 else { return nil }
        var p = 10
        if head[3] & 0x04 != 0 {
            guard head.count > 12 else { return nil }
            p += 2 + (Int(head[10]) | Int(head[11]) << 8)
        }
        guard p < head.count, let end = head[p...].firstIndex(of: 0), end > p else { return nil }
        // RFC 1952: the name is ISO 8859-1.
        return String(head[p..<end].map { Character(Unicode.Scalar($0)) })
    }

    /// The file name without its compression extension ("notes.txt.gz" → "notes.txt").
    static func strippedName(_ filename: String?) -> String {
        guard let filename, !filename.isEmpty else { return "(data)" }
        let lower = filename.lowercased()
        for (suffix, replacement) in [
            (".tgz", ".tar"), (".tzst", ".tar"), (".svgz", ".svg"), (".gz", ""), (".gzip", ""), (".bz2", ""), (".bz", ""), (".xz", ""),
            (".lzma", ""), (".zst", ""), (".zstd", ""),
        ]
        where lower.hasSuffix(suffix) && lower.count > suffix.count {
            return String(filename.dropLast(suffix.count)) + replacement
        }
        return filename
    }
}
