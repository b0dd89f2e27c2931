/// What a photo's EXIF block says about how it was taken: camera, lens, exposure, date, place.
///
/// Read from the TIFF structure EXIF uses (IFD0, the Exif IFD and the GPS IFD), every offset and
/// count checked against the block, at most `maxEntries` entries an IFD and `maxText` bytes a text.
public struct ExifData: Sendable, Equatable {
    /// Camera maker (`Make`).
    public var make: String?
    /// Camera model (`Model`).
    public var model: String?
    /// Lens maker (`LensMake`).
    public var lensMake: String?
    /// Lens model (`LensModel`).
    public var lensModel: String?
    /// The software that wrote the file last.
    public var software: String?
    /// When the picture was taken (`DateTimeOriginal`, else `DateTime`), as the file says it: `2003:12:14 12:01:44`.
    public var dateTaken: String?
    /// `ImageDescription`.
    public var imageDescription: String?
    /// `Artist`.
    public var artist: String?
    /// `Copyright`.
    public var copyright: String?
    /// Exposure time in seconds.
    public var exposureTime: Double?
    /// The f-number.
    public var fNumber: Double?
    /// ISO speed.
    public var iso: Int?
    /// Focal length in millimetres.
    public var focalLength: Double?
    /// Orientation (EXIF numbering 1…8).
    public var orientation: Int?
    /// Latitude in degrees, north positive.
    public var latitude: Double?
    /// Longitude in degrees, east positive.
    public var longitude: Double?
    /// Altitude in metres above sea level.
    public var altitude: Double?

    /// Most entries read from one IFD.
    public static let maxEntries = 512
    /// Longest text kept, in bytes.
    public static let maxText = 256

    /// Whether anything was read.
    public var isEmpty: Bool { self == ExifData() }

    /// No data.
    public init() {}

    /// The EXIF of a TIFF-structured block (`II*\0` or `MM\0*`, as after `Exif\0\0` in a JPEG);
    /// nil when it is not one.
    public init?(tiff: [UInt8]) {
        let reader = TIFFReader(tiff)
        guard let reader, let ifd0 = reader.u32(4) else { return nil }
        read(reader, ifd: Int(ifd0), kind: .main)
    }

    private enum IFDKind { case main, exif, gps }

    private mutating func read(_ r: TIFFReader, ifd offset: Int, kind: IFDKind) {
        guard let count = r.u16(offset) else { return }
        var latRef = "N", lonRef = "E", altBelow = false
        for index in 0..<min(Int(count), Self.maxEntries) {
            let entry = offset + 2 + index * 12
            guard let tag = r.u16(entry), let type = r.u16(entry + 2), let n = r.u32(entry + 4) else { return }
            let value = TIFFReader.Field(type: type, count: Int(n), entry: entry)
            switch (kind, tag) {
            case (.main, 0x010E): imageDescription = r.text(value)
            case (.main, 0x010F): make = r.text(value)
            case (.main, 0x0110): model = r.text(value)
            case (.main, 0x0112): orientation = r.integers(value).first
            case (.main, 0x0131): software = r.text(value)
            case (.main, 0x0132): if dateTaken == nil { dateTaken = r.text(value) }
            case (.main, 0x013B): artist = r.text(value)
            case (.main, 0x8298): copyright = r.text(value)
            case (.main, 0x8769): if let to = r.integers(value).first, to > offset { read(r, ifd: to, kind: .exif) }
            case (.main, 0x8825): if let to = r.integers(value).first, to > offset { read(r, ifd: to, kind: .gps) }
            case (.exif, 0x829A): exposureTime = r.rationals(value).first
            case (.exif, 0x829D): fNumber = r.rationals(value).first
            case (.exif, 0x8827): iso = r.integers(value).first
            case (.exif, 0x9003): dateTaken = r.text(value)
            case (.exif, 0x920A): focalLength = r.rationals(value).first
            case (.exif, 0xA433): lensMake = r.text(value)
            case (.exif, 0xA434): lensModel = r.text(value)
            case (.gps, 1): latRef = r.text(value) ?? "N"
            case (.gps, 2): latitude = Self.degrees(r.rationals(value))
            case (.gps, 3): lonRef = r.text(value) ?? "E"
            case (.gps, 4): longitude = Self.degrees(r.rationals(value))
            case (.gps, 5): altBelow = r.integers(value).first == 1
            case (.gps, 6): altitude = r.rationals(value).first
            default: break
            }
        }
        if kind == .gps {
            if latRef == "S", let l = latitude { latitude = -l }
            if lonRef == "W", let l = longitude { longitude = -l }
            if altBelow, let a = altitude { altitude = -a }
        }
    }

    /// Degrees, minutes and seconds as degrees; nil unless three finite values in range.
    static func degrees(_ parts: [Double]) -> Double? {
        guard parts.count == 3, parts.allSatisfy({ $0.isFinite && $0 >= 0 }) else { return nil }
        let value = parts[0] + parts[1] / 60 + parts[2] / 3600
        return value <= 180 ? value : nil
    }
}

/// Bounds-checked reads of a TIFF-structured block in its byte order.
struct TIFFReader {
    /// One IFD entry's value: its type, count, and where the entry starts.
    struct Field {
        let type: Int
        let count: Int
        let entry: Int
    }

    let bytes: [UInt8]
    let littleEndian: Bool

    /// A reader over `bytes`; nil unless they start with a TIFF header.
    init?(_ bytes: [UInt8]) {
        guard bytes.count >= 8 else { return nil }
        if bytes[0] == 0x49, bytes[1] == 0x49, bytes[2] == 42, bytes[3] == 0 {
            littleEndian = true
        } else if bytes[0] == 0x4D, bytes[1] == 0x4D, bytes[2] == 0, bytes[3] == 42 {
            littleEndian = false
        } else {
            return nil
        }
        self.bytes = bytes
    }

    func u16(_ at: Int) -> Int? {
        guard at >= 0, at <= bytes.count - 2 else { return nil }
        let (a, b) = (Int(bytes[at]), Int(bytes[at + 1]))
        return littleEndian ? a | b << 8 : a << 8 | b
    }

    func u32(_ at: Int) -> Int? {
        guard let lo = u16(littleEndian ? at : at + 2), let hi = u16(littleEndian ? at + 2 : at) else { return nil }
        return lo | hi << 16
    }

    /// Bytes per value of a TIFF type; nil for unknown types.
    static func size(_ type: Int) -> Int? {
        switch type {
        case 1, 2, 6, 7: 1
        case 3, 8: 2
        case 4, 9, 11: 4
        case 5, 10, 12: 8
        default: nil
        }
    }

    /// Where a field's values are (inside the entry when they fit in 4 bytes) and how many bytes.
    func values(_ f: Field) -> (offset: Int, length: Int)? {
        guard let size = Self.size(f.type), f.count >= 0, f.count <= bytes.count else { return nil }
        let length = size * f.count
        let offset = length <= 4 ? f.entry + 8 : (u32(f.entry + 8) ?? -1)
        guard offset >= 0, offset <= bytes.count - length else { return nil }
        return (offset, length)
    }

    /// An ASCII or UTF-8 text, trimmed of NULs and spaces, at most `ExifData.maxText` bytes.
    func text(_ f: Field) -> String? {
        guard f.type == 2 || f.type == 7, let (offset, length) = values(f) else { return nil }
        let raw = bytes[offset..<offset + min(length, ExifData.maxText)].prefix { $0 != 0 }
        let text = String(decoding: raw, as: UTF8.self).trimmingCharacters(in: .whitespaces)
        return text.isEmpty ? nil : text
    }

    /// The integer values of a BYTE, SHORT or LONG field (at most 16).
    func integers(_ f: Field) -> [Int] {
        guard [1, 3, 4].contains(f.type), let (offset, _) = values(f), let size = Self.size(f.type) else { return [] }
        return (0..<min(f.count, 16)).compactMap { i in
            switch size {
            case 1: Int(bytes[offset + i])
            case 2: u16(offset + i * 2)
            default: u32(offset + i * 4)
            }
        }
    }

    /// The values of a RATIONAL or SRATIONAL field (at most 16); a zero denominator gives nothing.
    func rationals(_ f: Field) -> [Double] {
        guard f.type == 5 || f.type == 10, let (offset, _) = values(f) else { return [] }
        return (0..<min(f.count, 16)).compactMap { i in
            guard var n = u32(offset + i * 8), var d = u32(offset + i * 8 + 4), d != 0 else { return nil }
            if f.type == 10 {
                n = Int(Int32(truncatingIfNeeded: n))
                d = Int(Int32(truncatingIfNeeded: d))
            }
            return Double(n) / Double(d)
        }
    }
}
