import Foundation
public import VignetteCore
public import VignetteImaging

/// Thumbnails of EPUB books from their cover image (JPEG or PNG), found through the package document.
///
/// `META-INF/container.xml` names the package (OPF); its manifest item with
/// `properties="cover-image"` (EPUB 3), else the item named by `<meta name="cover">` (EPUB 2),
/// else a JPEG/PNG item called "cover", is the cover; its `href` is relative to the package document.
public struct EPUBCoverGenerator: BuiltInGenerator, ThumbnailGenerating {
    /// `epub-cover`.
    public let identifier = "epub-cover"
    /// EPUB.
    public let supportedTypes = ["org.idpf.epub-container"]
    /// None on size: only the zip directory, two small XML parts and the cover are read.
    public let limits = GeneratorLimits.none
    /// Largest XML part read (container and package documents).
    static let maxXMLBytes = 1 << 20
    private let reader: EmbeddedImageReader

    /// Creates the generator over a catalog, with decoding caps.
    public init(catalog: TypeCatalog, limits: ImageLimits = .standard) {
        reader = EmbeddedImageReader(thumbnailer: ImageThumbnailer(resolver: TypeResolver(catalog: catalog), limits: limits))
    }

    /// Decodes the cover image at the requested size; declines when the book declares none.
    public func makeThumbnail(for input: GeneratorInput, request: ThumbnailRequest) throws -> GeneratedThumbnail {
        let (sample, directory) = try EmbeddedImageReader.open(input)
        func entry(_ name: String) -> ZipDirectory.Entry? { directory.entries.first { $0.name == name } }
        guard let container = entry("META-INF/container.xml") else {
            throw VignetteError(.declined, "no META-INF/container.xml in the EPUB file")
        }
        let rootfiles = XMLElements(try reader.contents(of: container, in: sample, limit: Self.maxXMLBytes)).named("rootfile")
        guard let opfPath = rootfiles.compactMap({ $0.attributes["full-path"] }).first, let opf = entry(opfPath) else {
            throw VignetteError(.declined, "the EPUB container names no package document that exists")
        }
        let package = XMLElements(try reader.contents(of: opf, in: sample, limit: Self.maxXMLBytes))
        guard let href = Self.coverHref(package) else {
            throw VignetteError(.declined, "no cover image declared in the EPUB package document")
        }
        let path = Self.resolve(href, relativeTo: opfPath)
        guard let cover = entry(path) else {
            throw VignetteError(.declined, "the EPUB cover \(path) is not in the file")
        }
        return try reader.thumbnail(of: cover, in: sample, request: request)
    }

    /// The manifest `href` of the cover: `properties` containing `cover-image`, else the `<meta name="cover">`
    /// item, else a JPEG or PNG item whose id or href says "cover".
    static func coverHref(_ package: XMLElements) -> String? {
        let items = package.named("item")
        if let item = items.first(where: { ($0.attributes["properties"] ?? "").split(separator: " ").contains("cover-image") }) {
            return item.attributes["href"]
        }
        let coverID = package.named("meta").first { $0.attributes["name"] == "cover" }?.attributes["content"]
        if let coverID, let href = items.first(where: { $0.attributes["id"] == coverID })?.attributes["href"] {
            return href
        }
        // Many books declare nothing but still name their cover picture "cover".
        return items.first { item in
            let type = item.attributes["media-type"] ?? ""
            let names = ((item.attributes["id"] ?? "") + " " + (item.attributes["href"] ?? "")).lowercased()
            return (type == "image/jpeg" || type == "image/png") && names.contains("cover")
        }?.attributes["href"]
    }

    /// `href` (percent-encoded, maybe with `..`) resolved against the package document's folder.
    static func resolve(_ href: String, relativeTo opfPath: String) -> String {
        let decoded = (href.split(separator: "#").first.map(String.init) ?? href).removingPercentEncoding ?? href
        var parts = opfPath.split(separator: "/").dropLast().map(String.init)
        for part in decoded.split(separator: "/") {
            switch part {
            case ".": continue
            case "..": if !parts.isEmpty { parts.removeLast() }
            default: parts.append(String(part))
            }
        }
        return parts.joined(separator: "/")
    }
}
