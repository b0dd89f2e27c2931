import VignetteCore

/// The zip of an Office file (OOXML or OpenDocument): its parts read on demand, capped.
struct OfficePackage {
    /// Largest XML part read, uncompressed (a bigger one is a zip bomb or not worth previewing).
    static let maxPartBytes = 32 << 20
    /// Most times a part read in part (`xmlPrefix`) may inflate.
    static let maxRatio = 200

    /// The archive's bytes.
    let sample: FileSample
    /// Its central directory.
    let directory: ZipDirectory

    /// Opens the zip of `input`, or fails naming what is wrong with it.
    init(_ input: GeneratorInput) throws {
        (sample, directory) = try EmbeddedImageReader.open(input)
    }

    /// Whether the archive has an entry named `name`.
    func has(_ name: String) -> Bool {
        directory.entries.contains { $0.name == name }
    }

    /// The uncompressed bytes of part `name`, or nil when there is no such entry.
    ///
    /// A part over `maxPartBytes` is refused, not just over a limit: an ordinary document has
    /// none, so the file is most likely a zip bomb, and no other generator should open it.
    func bytes(_ name: String) throws -> [UInt8]? {
        guard let entry = directory.entries.first(where: { $0.name == name }) else { return nil }
        do {
            return try ZipEntryReader(sample: sample, maxBytes: Self.maxPartBytes).contents(of: entry)
        } catch let error as VignetteError where error.code == .limitExceeded {
            throw VignetteError(.refused, error.reason)
        }
    }

    /// A tokenizer over the first `maxPartBytes` of part `name`, or nil when there is no such
    /// entry: for parts read only as far as the preview needs (a spreadsheet's rows).
    ///
    /// A part that inflates more than `maxRatio` times is still refused: XML compresses to a
    /// tenth or so, a zip bomb to a thousandth.
    func xmlPrefix(_ name: String) throws -> XMLTokenizer? {
        guard let entry = directory.entries.first(where: { $0.name == name }) else { return nil }
        guard entry.uncompressedSize > UInt64(Self.maxPartBytes) else { return try xml(name) }
        guard entry.uncompressedSize / max(entry.compressedSize, 1) <= UInt64(Self.maxRatio) else {
            throw VignetteError(
                .refused,
                "\(name) inflates from \(ByteCount.text(Int(clamping: entry.compressedSize))) to \(ByteCount.text(Int(clamping: entry.uncompressedSize))), more than \(Self.maxRatio) times (a zip bomb)"
            )
        }
        let bytes = try ZipEntryReader(sample: sample, maxBytes: Self.maxPartBytes).prefix(of: entry, count: Self.maxPartBytes)
        return XMLTokenizer(bytes, part: name, partial: true)
    }

    /// A tokenizer over part `name`, or nil when there is no such entry.
    func xml(_ name: String) throws -> XMLTokenizer? {
        try bytes(name).map { XMLTokenizer($0, part: name) }
    }

    /// A tokenizer over part `name`, which must exist.
    func requiredXML(_ name: String) throws -> XMLTokenizer {
        guard let reader = try xml(name) else { throw VignetteError(.corrupt, "no \(name) in the file") }
        return reader
    }

    /// The relationships of `part` (from `dir/_rels/name.rels`): id to the target's part name.
    func relationships(of part: String) throws -> [String: String] {
        let (folder, file) = Self.split(part)
        guard var reader = try xml(folder + "_rels/" + file + ".rels") else { return [:] }
        var out: [String: String] = [:]
        while let event = try reader.next() {
            guard case .start(let tag) = event, tag.name == "Relationship", tag.attribute("TargetMode") != "External",
                let id = tag.attribute("Id"), let target = tag.attribute("Target")
            else { continue }
            out[id] = Self.resolve(target, from: folder)
        }
        return out
    }

    /// `target` (relative to `folder`, or absolute from the package root) as a part name.
    static func resolve(_ target: String, from folder: String) -> String {
        let joined = target.hasPrefix("/") ? String(target.dropFirst()) : folder + target
        var parts: [Substring] = []
        for piece in joined.split(separator: "/", omittingEmptySubsequences: true) {
            switch piece {
            case ".": continue
            case "..": _ = parts.popLast()
            default: parts.append(piece)
            }
        }
        return parts.joined(separator: "/")
    }

    /// The folder of `part` (with its trailing slash, or empty) and its file name.
    static func split(_ part: String) -> (folder: String, file: String) {
        guard let slash = part.lastIndex(of: "/") else { return ("", part) }
        return (String(part[...slash]), String(part[part.index(after: slash)...]))
    }
}
