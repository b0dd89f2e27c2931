import Foundation
public import VignetteCore

/// Lists `ar` archives: the members of a static library, and for a Debian package its control
/// fields (package, version, description…) and the files it installs.
///
/// Member headers are read in place; a Debian package's `control.tar.*` and `data.tar.*` are
/// streamed through the decompressor like any tar (never extracted, never held in memory), under
/// the same `ArchiveLimits`.
public struct ArListingGenerator: BuiltInGenerator, PreviewGenerating {
    /// `ar-listing`.
    public let identifier = "ar-listing"
    /// `ar` archives, and through conformance Debian packages.
    public let supportedTypes = ["org.gnu.ar-archive"]
    /// None on size: the listing bounds its own work (`ArchiveLimits`).
    public let limits = GeneratorLimits.none
    private let archiveLimits: ArchiveLimits
    /// Largest `control` file read from a Debian package.
    static let maxControlBytes = 64 << 10
    /// The control fields a Debian package's preview shows, in this order.
    static let shownFields = [
        "Package", "Version", "Architecture", "Maintainer", "Installed-Size", "Section", "Priority", "Depends", "Recommends",
        "Homepage", "Description",
    ]

    /// Creates the generator with work limits.
    public init(limits: ArchiveLimits = .standard) {
        archiveLimits = limits
    }

    /// The member list, or a Debian package's fields and file tree.
    public func makePreview(for input: GeneratorInput, request: PreviewRequest) throws -> TextPreview {
        let source = try input.randomAccess()
        let archive = try ArArchive(source, maxMembers: archiveLimits.maxEntries)
        let shown = min(archiveLimits.maxShownEntries, request.maxLines)
        let rootName = input.filename ?? "(upload)"
        guard archive.members.first?.name == "debian-binary",
            let data = archive.members.first(where: { $0.name.hasPrefix("data.tar") && $0.isStored })
        else {
            let entries = archive.members.map { ArchiveEntry(path: $0.name, kind: .file, size: UInt64($0.size)) }
            return ArchiveListing(kind: "ar archive", rootName: rootName, entries: entries, compressedSize: nil, note: archive.problem)
                .preview(maxShown: shown)
        }
        let deadline = ContinuousClock.now + .milliseconds(Int(archiveLimits.maxSeconds * 1000))
        var control = DebianControl("")
        var notes: [String] = []
        if let member = archive.members.first(where: { $0.name.hasPrefix("control.tar") && $0.isStored }) {
            do {
                control = DebianControl(try controlFile(source, member, deadline: deadline) ?? "")
            } catch let error as VignetteError {
                notes.append("\(member.name): \(error.reason)")
            }
        }
        var listing = ArchiveListing(kind: "Debian package", rootName: rootName, entries: [], compressedSize: data.size, note: nil)
        do {
            let stream = try stream(source, data, deadline: deadline)
            let (entries, end) = try TarScanner(stream: stream, maxEntries: archiveLimits.maxEntries).scan(firstBlock: try stream.read(512))
            listing.entries = entries.map {
                var entry = $0
                if entry.path.hasPrefix("./") { entry.path.removeFirst(2) }
                return entry
            }.filter { !$0.path.isEmpty }
            switch end {
            case .complete: break
            case .entryLimit:
                listing.note = "listing stopped after \(CountText.grouped(entries.count)) entries; the package may hold more"
            case .budget(let why): listing.note = "listing \(why); the package continues"
            case .damaged(let why): listing.note = "\(data.name) is damaged: \(why)"
            }
        } catch let error as VignetteError {
            listing.note = "\(data.name): \(error.reason)"
        }
        let files = listing.preview(maxShown: shown)
        let rows = Self.shownFields.compactMap { name in control[name].map { (name, $0) } }
        var text = rows.map { name, value in
            "\(name): "
                + value.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : "  " + $0 }.joined(separator: "\n")
                .dropFirst(2)
        }.joined(separator: "\n")
        var html = "<dl class=\"facts\">"
        for (name, value) in rows {
            html += "<dt>\(HTML.escape(name))</dt><dd>\(HTML.escape(value).replacingOccurrences(of: "\n", with: "<br>"))</dd>"
        }
        html += "</dl>\n"
        for note in notes {
            text += "\n(\(note))"
            html += "<p class=\"vignette-note\">\(HTML.escape(note))</p>\n"
        }
        text += (text.isEmpty ? "" : "\n\n") + "Files (\(data.name)):\n" + files.text
        html += "<h3>Files (\(HTML.escape(data.name)))</h3>\n" + files.html
        var title = "Debian package"
        if let name = control["Package"] { title += " \(name)" }
        if let version = control["Version"] { title += " \(version)" }
        title += ", " + files.title.dropFirst("Debian package, ".count)
        return TextPreview(title: title, text: text, html: html, truncated: files.truncated || !notes.isEmpty)
    }

    /// The decompressed stream of a `*.tar[.gz|.xz|.bz2|.zst]` member, by the compression its first bytes show.
    private func stream(_ source: FileSample, _ member: ArArchive.Member, deadline: ContinuousClock.Instant) throws -> ByteStream {
        let head = Array(source.bytes(at: member.offset, count: min(6, member.size)) ?? [])
        let kind: Decompressor.Kind?
        if head.starts(with: [0x1F, 0x8B]) {
            kind = .gzip
        } else if head.starts(with: [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00]) {
            kind = .xz
        } else if head.starts(with: Array("BZh".utf8)) {
            kind = .bzip2
        } else if head.starts(with: [0x28, 0xB5, 0x2F, 0xFD]) {
            kind = .zstd
        } else {
            kind = nil
        }
        return ByteStream(
            source: source, range: member.offset..<(member.offset + member.size), decompressor: try kind.map(Decompressor.init),
            budget: archiveLimits.maxStreamBytes, deadline: deadline)
    }

    /// The text of `./control` in the control tarball, or nil when it has none (among its first 64 entries).
    private func controlFile(_ source: FileSample, _ member: ArArchive.Member, deadline: ContinuousClock.Instant) throws -> String? {
        let stream = try stream(source, member, deadline: deadline)
        for _ in 0..<64 {
            guard let header = TarHeaderBlock(try stream.read(512)), !header.isZero else { return nil }
            guard header.hasValidChecksum, let size = header.size, size <= UInt64(Int.max - 511) else {
                throw VignetteError(.corrupt, "bad tar header")
            }
            let padded = (Int(size) + 511) / 512 * 512
            let name = String(decoding: header.path, as: UTF8.self)
            if name == "./control" || name == "control", size <= UInt64(Self.maxControlBytes) {
                return String(decoding: try stream.read(Int(size)), as: UTF8.self)
            }
            guard try stream.skip(padded) == padded else { return nil }
        }
        return nil
    }
}
