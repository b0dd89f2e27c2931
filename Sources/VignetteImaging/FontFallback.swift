import CVignetteCodecs
import Foundation

/// The system fonts that stand in for the glyphs a face lacks (Chinese, Japanese, Korean, Thai,
/// Devanagari…), found through fontconfig when first needed and opened once.
///
/// Lookups are bounded for hostile text: characters that are never drawn (controls, format
/// characters, private use, unassigned) are not looked up; the fonts already opened are asked
/// first; fontconfig is asked at most once for each 128-character block in which it finds
/// nothing new; and at most `maxFaces` fonts are opened.
public final class FontFallback: @unchecked Sendable {
    /// The fallback Vignette's own text pages use.
    public static let system = FontFallback()

    /// Most fonts one fallback opens.
    public static let maxFaces = 16

    private let lock = NSLock()
    private var faces: [FontFace] = []
    private var tried: Set<String> = []
    private var fruitlessBlocks: Set<UInt32> = []
    private var unavailable = false
    /// How many times fontconfig has been asked (the bound above, for tests).
    private(set) var lookups = 0

    /// A fallback with no fonts opened yet.
    public init() {}

    /// The fonts opened so far, in the order they were first needed (family names).
    public var openedFamilies: [String] {
        lock.lock()
        defer { lock.unlock() }
        return faces.map(\.info.family)
    }

    /// A face with a glyph for `scalar`, or nil when no installed font has one (or fontconfig is
    /// not installed).
    public func face(for scalar: UInt32) -> FontFace? {
        guard Self.isDrawable(scalar) else { return nil }
        lock.lock()
        defer { lock.unlock() }
        if let face = faces.first(where: { $0.hasGlyph(code: scalar) }) { return face }
        let block = scalar >> 7
        guard !unavailable, faces.count < Self.maxFaces, !fruitlessBlocks.contains(block) else { return nil }
        var path = [CChar](repeating: 0, count: 4096)
        var index: Int32 = 0
        var err = vgn_error()
        lookups += 1
        let found = vgn_font_fallback_file(scalar, &path, path.count, &index, &err)
        if found < 0 { unavailable = true }
        guard found == 1 else {
            fruitlessBlocks.insert(block)
            return nil
        }
        let file = String(decoding: path.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let key = "\(file)#\(index)"
        // A font already tried that fontconfig names again has been found wanting (or is open
        // and lacks the glyph after all: fontconfig's coverage and the cmap can disagree).
        guard tried.insert(key).inserted, let face = try? FontFace(systemPath: file, index: Int(index)), face.hasGlyph(code: scalar)
        else {
            fruitlessBlocks.insert(block)
            return nil
        }
        faces.append(face)
        return face
    }

    /// Whether `scalar` is a character a font would draw: not a control or format character,
    /// private use, a surrogate, a noncharacter or unassigned.
    static func isDrawable(_ scalar: UInt32) -> Bool {
        guard let s = Unicode.Scalar(scalar) else { return false }
        switch s.properties.generalCategory {
        case .control, .format, .privateUse, .surrogate, .unassigned: return false
        default: return !s.properties.isNoncharacterCodePoint
        }
    }
}
