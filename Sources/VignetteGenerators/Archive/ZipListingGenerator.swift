public import VignetteCore

/// Lists the entries of zip archives (and JAR, APK, wheels) as a tree with sizes and totals.
///
/// Only the central directory is read (capped by `ZipDirectory.maxEntries` and
/// `ZipDirectory.maxDirectoryBytes`); nothing is decompressed.
public struct ZipListingGenerator: BuiltInGenerator, PreviewGenerating {
    /// `zip-listing`.
    public let identifier = "zip-listing"
    /// The zip family: plain zip, PKZip, JAR, APK and Python wheels (and, through conformance, any zip-based format).
    public let supportedTypes = [
        "com.pkware.zip-archive", "public.zip-archive", "com.sun.java-archive", "com.android.package-archive", "org.python.wheel",
    ]
    /// None: only the central directory is read, and that is capped.
    public let limits = GeneratorLimits.none
    private let archiveLimits: ArchiveLimits

    /// Creates the generator; `limits` caps the entries shown.
    public init(limits: ArchiveLimits = .standard) {
        self.archiveLimits = limits
    }

    /// The tree of entries, with uncompressed and compressed totals.
    public func makePreview(for input: GeneratorInput, request: PreviewRequest) throws -> TextPreview {
        let sample = try input.randomAccess()
        guard let directory = ZipDirectory(sample) else {
            throw VignetteError(.corrupt, "no valid zip central directory (end record missing or damaged)")
        }
        let entries = directory.entries.map { entry in
            ArchiveEntry(
                path: entry.name, kind: entry.isDirectory ? .directory : .file, size: entry.isDirectory ? 0 : entry.uncompressedSize)
        }
        let compressed = directory.entries.reduce(UInt64(0)) { $0.addingReportingOverflow($1.compressedSize).partialValue }
        var note: String? = nil
        if directory.isPartial {
            note =
                "listing shows the first \(CountText.grouped(entries.count)) of "
                + "\(CountText.grouped(Int(clamping: directory.declaredEntryCount))) entries"
        }
        let listing = ArchiveListing(
            kind: input.type.localizedDescription, rootName: input.filename ?? "(upload)", entries: entries,
            compressedSize: Int(clamping: compressed), note: note)
        return listing.preview(maxShown: min(archiveLimits.maxShownEntries, request.maxLines))
    }
}
