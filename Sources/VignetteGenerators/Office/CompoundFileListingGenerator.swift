public import VignetteCore

/// Previews of OLE2 compound files that no more specific generator reads (installers, Visio,
/// Publisher, damaged Office or Outlook files…): the streams they hold, as a tree with
/// storages as folders. An Office document saved with a password (an OOXML file encrypted into
/// a compound file, which `file` calls "CDFV2 Encrypted") is said to be one first, with its
/// cipher: nothing else about it can be read without the password.
public struct CompoundFileListingGenerator: BuiltInGenerator, PreviewGenerating {
    /// `ole2-listing`.
    public let identifier = "ole2-listing"
    /// OLE2 compound files; the legacy Office types are read by `office-legacy` first.
    public let supportedTypes = ["com.microsoft.ole2"]
    /// None on size: only the allocation tables, the directory and one small stream are read.
    public let limits = GeneratorLimits.none

    /// Creates the generator.
    public init() {}

    /// The stream tree, after what protects an encrypted Office document.
    public func makePreview(for input: GeneratorInput, request: PreviewRequest) throws -> TextPreview {
        let file = try CompoundFile(try input.randomAccess())
        let paths = file.paths()
        let entries = paths.map { item in
            ArchiveEntry(
                path: Self.displayName(item.path), kind: item.entry.type == 1 ? .directory : .file,
                size: item.entry.type == 1 ? 0 : UInt64(max(0, item.entry.size)))
        }
        var listing = ArchiveListing(
            kind: "OLE2 compound file", rootName: input.filename ?? "(upload)", entries: entries, compressedSize: nil, note: nil
        ).preview(maxShown: request.maxLines)
        guard let package = paths.first(where: { $0.path == "EncryptedPackage" && $0.entry.type == 2 }),
            let info = paths.first(where: { $0.path == "EncryptionInfo" && $0.entry.type == 2 })
        else { return listing }
        let cipher = Self.cipher(ofEncryptionInfo: try file.contents(of: info.entry, limit: 64 << 10).bytes)
        let headline =
            "This Office document is protected by a password: its content (EncryptedPackage, \(ByteCount.text(package.entry.size))) is encrypted"
            + (cipher.map { " with \($0)" } ?? "") + ", and cannot be shown without the password."
        listing.title = "Password-protected Office document" + (cipher.map { ", \($0)" } ?? "")
        listing.text = headline + "\n\n" + listing.text
        listing.html = "<p class=\"vignette-note\">\(HTML.escape(headline))</p>\n" + listing.html
        return listing
    }

    /// The cipher an `EncryptionInfo` stream names ("AES-256 (agile encryption, SHA-512)"), or nil.
    ///
    /// Version 4.4 is agile encryption, an XML descriptor after eight bytes; 3.2 and 4.2 are
    /// standard encryption, whose header gives the algorithm and key size (MS-OFFCRYPTO 2.3.4).
    static func cipher(ofEncryptionInfo bytes: [UInt8]) -> String? {
        guard bytes.count >= 8 else { return nil }
        let major = CompoundFile.u16(bytes[...], 0), minor = CompoundFile.u16(bytes[...], 2)
        if major == 4, minor == 4 {
            var reader = XMLTokenizer(Array(bytes[8...]), part: "EncryptionInfo", partial: true)
            while let event = try? reader.next() {
                guard case .start(let tag) = event, tag.name == "keyData" else { continue }
                guard let algorithm = tag.attribute("cipherAlgorithm") else { return nil }
                let bits = tag.attribute("keyBits").map { "-" + $0 } ?? ""
                let hash = tag.attribute("hashAlgorithm").map { ", " + $0.replacingOccurrences(of: "SHA", with: "SHA-") } ?? ""
                return "\(algorithm)\(bits) (agile encryption\(hash))"
            }
            return "agile encryption"
        }
        guard (2...4).contains(major), minor == 2, bytes.count >= 32 else { return nil }
        // EncryptionInfo: version, flags, header size; then the header: flags, size extra, AlgID, AlgIDHash, KeySize.
        let algorithm = CompoundFile.u32(bytes[...], 20), keyBits = CompoundFile.u32(bytes[...], 28)
        let name: String
        switch algorithm {
        case 0x660E, 0x660F, 0x6610: name = "AES-\(keyBits)"
        case 0x6801: name = "RC4-\(keyBits)"
        default: return "standard encryption"
        }
        return name + " (standard encryption)"
    }

    /// A stream name as 7-Zip shows it: a leading control character (`\u{5}SummaryInformation`)
    /// as its number in brackets (`[5]SummaryInformation`).
    static func displayName(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).map { part -> String in
            guard let first = part.unicodeScalars.first, first.value < 0x20 else { return String(part) }
            return "[\(first.value)]" + String(part.unicodeScalars.dropFirst())
        }.joined(separator: "/")
    }
}
