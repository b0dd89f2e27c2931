import Foundation
import VignetteCore
import VignetteGenerators
import VignetteImaging

/// One parser of hostile bytes, driven the way a file reaches it, for libFuzzer and for replay.
///
/// Each case feeds the bytes to one entry point with small output limits and swallows thrown
/// errors: an error is the right answer to bad input; only a crash, a sanitizer report, a hang or
/// runaway memory is a finding. `make fuzz` runs each case under libFuzzer
/// (`scripts/fuzz.sh`); `FuzzRegressionTests` replays the seeds and every past finding.
public enum FuzzHarness: String, CaseIterable, Sendable {
    /// The type resolver on raw bytes (signatures, the system's magic rules, text sniffing, container peeks).
    case types
    /// A shared-mime-info package: the XML reader, merging into the catalog, and its rules on a probe file.
    case mimePackage = "mime-package"
    /// The compiled type cache read in place (`FrozenTables`): a whole, valid cache with bytes
    /// overwritten (the input is 5-byte edits: a 4-byte offset, then the new byte), then asked
    /// what a command asks.
    case typeCache = "type-cache"
    /// Type declaration files and generator manifests: the fast JSON reader (`PlainJSON`), then
    /// Foundation's for what it leaves.
    case declarations
    /// The text decoder: encoding detection and decoding, complete and cut.
    case text
    /// Image header dimensions (the pixel cap before external generators).
    case imageHeader = "image-header"
    /// The zip directory reader and the zip listing.
    case zip
    /// Office Open XML, OpenDocument and EPUB thumbnails (zip entries, inflate, XML), pages drawn
    /// from Office text (legacy formats too), the text previews of Office documents, XML and
    /// legacy (OLE2) formats, and the stream listing of OLE2 files.
    case office
    /// The tar listing over plain, gzip, bzip2, xz and lzma streams, and the ar listing (static
    /// libraries; Debian packages, whose members are tar streams).
    case tar
    /// The JSON previewer.
    case json
    /// The CSV previewer (dialect sniffing included).
    case csv
    /// The Markdown previewer and its HTML sanitizer.
    case markdown
    /// The HTML/XML previewer.
    case xml
    /// Property lists (binary and XML), YAML and TOML.
    case plist
    /// E-mail messages and mailboxes (MIME, RFC 2047, quoted-printable, base64), Outlook `.msg`
    /// messages, iCalendar and vCard.
    case mail
    /// The viewer fallback (file facts, hex dump and printable strings), and the previews that
    /// answer before it for some binaries: time zone files, terminfo entries, executables, binary EPS.
    case fallback
    /// Image metadata: EXIF, XMP and ICC descriptions found in JPEG, PNG, WebP and TIFF containers.
    case imageMetadata = "image-metadata"
    /// imaginary's `operations` JSON (the service's `POST /pipeline`), and the plan it makes.
    case imaginary
    /// RTF documents (`RichTextReader` through the `rtf` preview), and the same bytes as an
    /// Outlook message's compressed RTF body (MS-OXRTFCP), whose output is read as RTF in turn.
    case rtf
    /// The encryption dictionary of a PDF that poppler cannot open (found through the trailer's
    /// `/Encrypt`, read by a tokenizer stepping over binary strings), and the header's version.
    case pdf

    /// Runs the harness on one input; returns normally whatever the bytes are.
    public func run(_ bytes: [UInt8]) {
        switch self {
        case .types:
            _ = Self.resolver.resolve(bytes: bytes, filename: nil)
        case .mimePackage:
            let package = MIMEPackageReader.read(bytes: bytes, path: "fuzz.xml")
            let (catalog, _) = TypeCatalog.builtIn.adding(system: SystemMIMEDatabase(packages: [package]))
            let resolver = TypeResolver(catalog: catalog)
            for name in ["probe.acme", "README.x", "Makefile"] {
                _ = resolver.resolve(bytes: Self.probe, filename: name)
            }
            _ = resolver.resolve(bytes: Array(#"<?xml version="1.0"?><config xmlns="urn:x"/>"#.utf8), filename: "c.xml")
        case .typeCache:
            var damaged = Self.wholeTypeCache
            var i = 0
            while i + 5 <= bytes.count {
                let offset = Int(bytes[i]) | Int(bytes[i + 1]) << 8 | Int(bytes[i + 2]) << 16 | Int(bytes[i + 3]) << 24
                damaged[offset % damaged.count] = bytes[i + 4]
                i += 5
            }
            guard let (catalog, _) = TypeCatalog.decodeMerged(damaged, key: "fuzz") else { return }
            for id in catalog.identifiers.prefix(24) {
                guard let type = catalog.type(withIdentifier: id) else { continue }
                _ = (
                    catalog.supertypes(of: type), catalog.mimeTypes(of: type), catalog.genericIcon(of: type),
                    catalog.magicPriority(of: type)
                )
            }
            for name in ["a.png", "A.TAR.GZ", "Makefile", "probe.acme", "README.x"] { _ = catalog.nameMatches(forFilename: name) }
            _ = catalog.declaredType(forMIMEType: "image/png")
            _ = catalog.declaredType(forInterpreter: "python3.11")
            _ = TypeResolver(catalog: catalog).resolve(bytes: Self.probe, filename: "probe.bin")
        case .declarations:
            let data = Data(bytes)
            _ = try? TypeDeclarationFile.decode(data, path: "fuzz.json")
            _ = try? GeneratorManifest.parse(data, path: "/fuzz/manifest.json")
        case .text:
            _ = TextDecoder.decode(bytes[...], complete: true)
            _ = TextDecoder.decode(bytes.prefix(bytes.count / 2), complete: false)
        case .imageHeader:
            let at: (Int, Int) -> [UInt8]? = { offset, count in
                guard offset >= 0, count >= 0, offset <= bytes.count - count else { return nil }
                return Array(bytes[offset..<offset + count])
            }
            _ = ImageDimensions(bytes, isTGA: false, at: at)
            _ = ImageDimensions(bytes, isTGA: true, at: at)
        case .zip: preview(bytes, generator: "zip-listing", filename: "input.zip")
        case .office:
            thumbnail(bytes, generator: "ooxml-thumbnail", filename: "input.docx")
            thumbnail(bytes, generator: "opendocument-thumbnail", filename: "input.odt")
            thumbnail(bytes, generator: "epub-cover", filename: "input.epub")
            thumbnail(bytes, generator: "office-page", filename: "input.docx")
            thumbnail(bytes, generator: "office-page", filename: "input.xls")
            preview(bytes, generator: "office", filename: "input.docx")
            preview(bytes, generator: "office-legacy", filename: "input.doc")
            preview(bytes, generator: "ole2-listing", filename: "input.msg")
        case .tar:
            preview(bytes, generator: "tar-listing", filename: "input.tar")
            preview(bytes, generator: "ar-listing", filename: "input.deb")
        case .json: preview(bytes, generator: "json", filename: "input.json")
        case .csv: preview(bytes, generator: "csv", filename: "input.csv")
        case .markdown: preview(bytes, generator: "markdown", filename: "input.md")
        case .xml:
            preview(bytes, generator: "markup", filename: "input.xml")
            preview(bytes, generator: "markup", filename: "input.html")
        case .plist:
            preview(bytes, generator: "structured-text", filename: "input.plist")
            preview(bytes, generator: "structured-text", filename: "input.yaml")
        case .mail:
            preview(bytes, generator: "mail", filename: "input.eml")
            preview(bytes, generator: "mail", filename: "input.mbox")
            preview(bytes, generator: "calendar", filename: "input.ics")
            preview(bytes, generator: "outlook-message", filename: "input.msg")
            preview(bytes, generator: "contacts", filename: "input.vcf")
        case .fallback:
            preview(bytes, generator: "fallback", filename: "input.bin")
            preview(bytes, generator: "system-data", filename: "input")
            preview(bytes, generator: "executable", filename: "input")
            preview(bytes, generator: "eps-preview", filename: "input.eps")
        case .imageMetadata:
            _ = ImageMetadata(bytes)
            _ = ExifData(tiff: bytes)
        case .rtf:
            preview(bytes, generator: "rtf", filename: "input.rtf")
            if let rtf = try? CompressedRTF.decompress(bytes[...], limit: 1 << 20) { preview(rtf, generator: "rtf", filename: "body.rtf") }
        case .pdf:
            _ = PDFEncryption.dictionary(bytes[...])?.cipher
            _ = PDFEncryption.headerVersion(bytes[...])
        case .imaginary:
            guard let plan = try? PipelinePlan(operations: String(decoding: bytes, as: UTF8.self), maxSide: 64) else { return }
            _ = plan.request.outputSize(width: 300, height: 200)
            _ = plan.fitted(Self.smallBitmap)
            _ = plan.output(for: Self.smallBitmap, inputMediaType: "image/png")
        }
    }

    private static let resolver = TypeResolver(catalog: TypeCatalog.builtIn.adding(system: SystemMIMEDatabase.load()).0)
    /// A whole compiled type cache under the key "fuzz": the built-in types and the system's.
    private static let wholeTypeCache = TypeCatalog.builtIn.adding(system: SystemMIMEDatabase.load()).0.encodedMerged(
        problems: [], key: "fuzz")
    /// A picture for plans to fit and encode: 80 × 50, larger than the harness's 64-pixel cap.
    private static let smallBitmap = Bitmap(width: 80, height: 50)

    private static let probe: [UInt8] = Array("ACME\u{0}SKETCH".utf8) + (0..<64).map { UInt8($0 &* 37 & 0xFF) }
    private static let generators: [String: any Generator] = Dictionary(
        BuiltInGenerators.makeRegistry().generators.map { ($0.identifier, $0) }, uniquingKeysWith: { first, _ in first })

    private func preview(_ bytes: [UInt8], generator id: String, filename: String) {
        guard let generator = Self.generators[id] as? any PreviewGenerating else { fatalError("no preview generator \(id)") }
        let input = GeneratorInput(bytes: bytes, filename: filename, resolver: Self.resolver)
        _ = try? generator.makePreview(for: input, request: PreviewRequest(maxBytes: 16 << 10, maxLines: 200))
    }

    private func thumbnail(_ bytes: [UInt8], generator id: String, filename: String) {
        guard let generator = Self.generators[id] as? any ThumbnailGenerating else { fatalError("no thumbnail generator \(id)") }
        let input = GeneratorInput(bytes: bytes, filename: filename, resolver: Self.resolver)
        _ = try? generator.makeThumbnail(for: input, request: ThumbnailRequest(maxPixelSize: 32))
    }
}
