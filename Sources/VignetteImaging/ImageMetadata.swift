import Foundation
import VignetteCore

/// What an image file says about itself besides its pixels: format details, EXIF, the XMP title
/// and description, and the name of its colour profile.
///
/// Found by walking the container's own structure (JPEG markers, PNG chunks, RIFF chunks, TIFF);
/// everything is bounded by the bytes given, and a damaged block only leaves its facts out.
public struct ImageMetadata: Sendable, Equatable {
    /// Bit depth and colour model in words (`8-bit YCbCr, progressive`).
    public var details: String?
    /// EXIF, when the file has it.
    public var exif: ExifData?
    /// The XMP `dc:title`.
    public var title: String?
    /// The XMP `dc:description`.
    public var description: String?
    /// The embedded ICC profile's description (`Display P3`), or the PNG profile's name.
    public var profileName: String?
    /// The format's own facts, in order (a DICOM file's modality, body part, study…).
    public var facts: [Fact] = []

    /// One of a format's own facts: a label and its value.
    public struct Fact: Sendable, Equatable {
        /// "Modality".
        public let label: String
        /// "CT (computed tomography)".
        public let value: String
    }

    /// Most bytes of an XMP packet searched for the title and description.
    static let maxXMP = 1 << 20

    /// The metadata of the image in `bytes` (its start is enough for everything but TIFF's IFDs
    /// far in the file).
    public init(_ bytes: [UInt8]) {
        if bytes.starts(with: [0xFF, 0xD8]) {
            jpeg(bytes)
        } else if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
            png(bytes)
        } else if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), bytes[8..<12].elementsEqual("WEBP".utf8) {
            webp(bytes)
        } else if bytes.count >= 132, bytes[128..<132].elementsEqual("DICM".utf8) {
            dicom(bytes)
        } else if let exif = ExifData(tiff: bytes) {
            self.exif = exif.isEmpty ? nil : exif
        }
    }

    private mutating func take(exif block: [UInt8]) {
        if let exif = ExifData(tiff: block), !exif.isEmpty { self.exif = exif }
    }

    private mutating func take(xmp block: ArraySlice<UInt8>) {
        let text = String(decoding: block.prefix(Self.maxXMP), as: UTF8.self)
        title = Self.xmpText(text, "dc:title") ?? title
        description = Self.xmpText(text, "dc:description") ?? description
    }

    private mutating func jpeg(_ b: [UInt8]) {
        var i = 2
        var icc: [UInt8] = []
        while i + 4 <= b.count, b[i] == 0xFF {
            let marker = b[i + 1]
            if marker == 0xD9 || marker == 0xDA { break }
            let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
            guard length >= 2, i + 2 + length <= b.count else { break }
            let body = b[(i + 4)..<(i + 2 + length)]
            switch marker {
            case 0xE1 where body.starts(with: Array("Exif\0\0".utf8)):
                take(exif: Array(body.dropFirst(6)))
            case 0xE1 where body.starts(with: Array("http://ns.adobe.com/xap/1.0/\0".utf8)):
                take(xmp: body.dropFirst(29))
            case 0xE2 where body.starts(with: Array("ICC_PROFILE\0".utf8)) && icc.count < 4 << 20:
                icc += body.dropFirst(14)
            case 0xC0...0xCF where ![0xC4, 0xC8, 0xCC].contains(marker) && body.count >= 6:
                let components = Int(body[body.startIndex + 5])
                let model = [1: "greyscale", 3: "YCbCr", 4: "CMYK"][components] ?? "\(components) components"
                let kind = [0xC2, 0xC6, 0xCA, 0xCE].contains(marker) ? ", progressive" : ""
                details = "\(body[body.startIndex])-bit \(model)\(kind)"
            default: break
            }
            i += 2 + length
        }
        if !icc.isEmpty { profileName = Self.iccDescription(icc) }
    }

    private mutating func png(_ b: [UInt8]) {
        var i = 8
        while i + 12 <= b.count {
            let length = Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3])
            let type = String(decoding: b[(i + 4)..<(i + 8)], as: UTF8.self)
            guard length >= 0, length <= b.count - i - 12 else { break }
            let body = b[(i + 8)..<(i + 8 + length)]
            switch type {
            case "IHDR" where length >= 13:
                let depth = body[body.startIndex + 8]
                let model =
                    [0: "greyscale", 2: "RGB", 3: "indexed colour", 4: "greyscale with alpha", 6: "RGBA"][
                        Int(body[body.startIndex + 9])] ?? "colour type \(body[body.startIndex + 9])"
                details = "\(depth)-bit \(model)" + (body[body.startIndex + 12] == 1 ? ", interlaced" : "")
            case "eXIf": take(exif: Array(body))
            case "iCCP":
                let name = String(decoding: body.prefix { $0 != 0 }.prefix(79), as: UTF8.self)
                profileName = name.isEmpty ? nil : name
            case "iTXt" where body.starts(with: Array("XML:com.adobe.xmp\0".utf8)):
                // Keyword, NUL, compression flag and method, then language and translated keyword, each NUL-ended.
                var rest = body.dropFirst(18)
                guard rest.first == 0 else { break }
                rest = rest.dropFirst(2)
                for _ in 0..<2 { rest = rest.drop { $0 != 0 }.dropFirst() }
                take(xmp: rest)
            case "IDAT", "IEND": return
            default: break
            }
            i += 12 + length
        }
    }

    private mutating func webp(_ b: [UInt8]) {
        var i = 12
        while i + 8 <= b.count {
            let type = String(decoding: b[i..<(i + 4)], as: UTF8.self)
            let length = Int(b[i + 4]) | Int(b[i + 5]) << 8 | Int(b[i + 6]) << 16 | Int(b[i + 7]) << 24
            guard length <= b.count - i - 8 else { break }
            let body = b[(i + 8)..<(i + 8 + length)]
            switch type {
            case "EXIF": take(exif: Array(body.starts(with: Array("Exif\0\0".utf8)) ? body.dropFirst(6) : body))
            case "XMP ": take(xmp: body)
            case "ICCP": profileName = Self.iccDescription(Array(body))
            case "VP8 ": details = "lossy (VP8)"
            case "VP8L": details = "lossless (VP8L)"
            case "ANIM": details = "animated"
            default: break
            }
            i += 8 + length + (length & 1)
        }
    }

    /// The text of an XMP property: its `rdf:li` (the first language alternative) or its content.
    static func xmpText(_ xmp: String, _ property: String) -> String? {
        guard let open = xmp.range(of: "<\(property)"), let close = xmp.range(of: "</\(property)>", range: open.upperBound..<xmp.endIndex)
        else { return nil }
        var inner = Substring(xmp[open.upperBound..<close.lowerBound])
        if let li = inner.range(of: "<rdf:li"), let end = inner.range(of: "</rdf:li>", range: li.upperBound..<inner.endIndex) {
            inner = inner[li.upperBound..<end.lowerBound]
        }
        guard let start = inner.firstIndex(of: ">") else { return nil }
        let text = MarkupEntities.decode(String(inner[inner.index(after: start)...])).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : String(text.prefix(ExifData.maxText))
    }

    /// The `desc` tag of an ICC profile (v2 `desc` or v4 `mluc`, first record).
    static func iccDescription(_ p: [UInt8]) -> String? {
        func u32(_ at: Int) -> Int? {
            guard at >= 0, at <= p.count - 4 else { return nil }
            return Int(p[at]) << 24 | Int(p[at + 1]) << 16 | Int(p[at + 2]) << 8 | Int(p[at + 3])
        }
        guard let count = u32(128) else { return nil }
        for index in 0..<min(count, 100) {
            let entry = 132 + index * 12
            guard let signature = u32(entry), let offset = u32(entry + 4), let size = u32(entry + 8) else { return nil }
            guard signature == 0x6465_7363, size >= 12, offset <= p.count - size else { continue }
            let tag = p[offset..<(offset + size)]
            let base = tag.startIndex
            if tag.starts(with: Array("desc".utf8)), let n = u32(offset + 8), n > 0, n <= size - 12 {
                let text = String(decoding: tag[(base + 12)..<(base + 12 + n)].prefix { $0 != 0 }.prefix(ExifData.maxText), as: UTF8.self)
                return text.isEmpty ? nil : text
            }
            if tag.starts(with: Array("mluc".utf8)), let records = u32(offset + 8), records > 0, let length = u32(offset + 20),
                let start = u32(offset + 24), start <= size, length <= size - start
            {
                let units = stride(from: 0, to: length - 1, by: 2).map {
                    UInt16(tag[base + start + $0]) << 8 | UInt16(tag[base + start + $0 + 1])
                }
                let text = String(decoding: units.prefix(ExifData.maxText), as: UTF16.self).trimmingCharacters(in: .controlCharacters)
                return text.isEmpty ? nil : text
            }
        }
        return nil
    }
}
