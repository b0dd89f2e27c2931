import Foundation
public import VignetteCore
import VignetteImaging

/// Thumbnails and previews of font files (TrueType, OpenType, collections, WOFF, WOFF2,
/// Type 1, and the font inside an Embedded OpenType file) through FreeType: the thumbnail is a sample ("Aa", "Bb 123") set in the font
/// itself with the family name below; the preview lists names, format and counts.
///
/// Fonts are untrusted: they are opened from memory with hinting off (no bytecode runs), at
/// capped sizes; a damaged font fails with FreeType's reason and the file falls through.
public struct FontGenerator: BuiltInGenerator, ThumbnailGenerating, PreviewGenerating {
    /// `font`.
    public let identifier = "font"
    /// All fonts.
    public let supportedTypes = ["public.font"]
    /// Fonts over 64 MiB are not opened.
    public let limits = GeneratorLimits(maxFileBytes: FontGenerator.maxFileBytes)

    /// Largest font file opened (big CJK collections are about 30 MiB).
    public static let maxFileBytes = 64 << 20
    /// Embedded OpenType: FreeType reads the font inside (see `EmbeddedOpenType`).
    static let embeddedOpenType = "com.microsoft.embedded-opentype"

    /// Creates the generator.
    public init() {}

    /// Opens the input as a font, or throws why it cannot be read.
    func open(_ input: GeneratorInput) throws -> FontFace {
        var bytes = try input.contents(limit: Self.maxFileBytes)
        guard !bytes.isEmpty else { throw VignetteError(.corrupt, "damaged or unsupported font: the file is empty") }
        if input.type.identifier == Self.embeddedOpenType { bytes = try EmbeddedOpenType.fontData(bytes) }
        return try FontFace(bytes: bytes, hinting: false)
    }

    /// "Aa" large and "Bb 123" below, in the font, on a square white card with the family name.
    public func makeThumbnail(for input: GeneratorInput, request: ThumbnailRequest) throws -> GeneratedThumbnail {
        let face = try open(input)
        return GeneratedThumbnail(bitmap: try Self.card(face: face, size: request.targetPixels))
    }

    /// The sample lines for `face`: "Aa" and "Bb 123", else (symbol and icon fonts) the first
    /// characters with ink, from the private use area when the font has icons there.
    static func sampleLines(_ face: FontFace) -> (String, String) {
        if "AaBb123".unicodeScalars.allSatisfy(face.hasGlyph) { return ("Aa", "Bb 123") }
        var candidates = face.mappedScalars(from: 0xE000, limit: 64).filter { $0.value <= 0xF8FF }
        if candidates.count < 3 { candidates = face.mappedScalars(from: 0x21, limit: 256) }
        var inked: [Unicode.Scalar] = []
        for scalar in candidates where !scalar.properties.isWhitespace && inked.count < 8 {
            if let glyph = try? face.glyph(scalar, size: 16), glyph.width > 0, glyph.coverage.contains(where: { $0 > 0 }) {
                inked.append(scalar)
            }
        }
        return (String(String.UnicodeScalarView(inked.prefix(2))), String(String.UnicodeScalarView(inked.dropFirst(2).prefix(6))))
    }

    /// The thumbnail card, `size` pixels square (at least 16).
    static func card(face: FontFace, size: Int) throws -> Bitmap {
        let side = max(16, min(size, 2048))
        let S = Double(side)
        var canvas = Canvas(width: side, height: side, background: .white)
        let edge = Canvas.Color(0xC4, 0xC9, 0xCF)
        let line = max(1, (S / 256).rounded())
        canvas.fillRect(x: 0, y: 0, width: S, height: line, color: edge)
        canvas.fillRect(x: 0, y: S - line, width: S, height: line, color: edge)
        canvas.fillRect(x: 0, y: 0, width: line, height: S, color: edge)
        canvas.fillRect(x: S - line, y: 0, width: line, height: S, color: edge)
        let ink = Canvas.Color(0x1E, 0x23, 0x29)
        let (big, small) = sampleLines(face)
        let showName = side >= 96
        // Big sample in the upper part, small sample under it, the name at the bottom.
        let bigBox = (width: S * 0.8, top: S * 0.1, height: S * (showName ? 0.42 : 0.5))
        if !big.isEmpty {
            try drawCentered(
                big, face: face, in: &canvas, width: bigBox.width, maxSize: Int(bigBox.height * 0.95),
                top: bigBox.top, height: bigBox.height, color: ink)
        }
        let smallTop = bigBox.top + bigBox.height + S * 0.04
        if !small.isEmpty {
            try drawCentered(
                small, face: face, in: &canvas, width: S * 0.8, maxSize: Int(S * 0.16),
                top: smallTop, height: S * 0.18, color: ink)
        }
        if showName, let sans = try? SystemFonts.face(.sans) {
            let name = face.info.family.isEmpty ? face.info.postscriptName : face.info.family
            let label = face.info.style.isEmpty || face.info.style == "Regular" ? name : "\(name) \(face.info.style)"
            if !label.isEmpty {
                try drawCentered(
                    label, face: sans, in: &canvas, width: S * 0.84, maxSize: max(5, Int(S * 0.065)),
                    top: S * 0.8, height: S * 0.12, color: Canvas.Color(0x6A, 0x73, 0x7D))
            }
        }
        return canvas.bitmap
    }

    /// Draws `text` centred in a box, as large as fits `width` and `maxSize`, its ink centred vertically.
    static func drawCentered(
        _ text: String, face: FontFace, in canvas: inout Canvas, width: Double, maxSize: Int,
        top: Double, height: Double, color: Canvas.Color
    ) throws {
        guard maxSize >= 1 else { return }
        let size = try Canvas.fittingSize(text, font: face, width: width, maxSize: min(maxSize, FontFace.maxPixelSize))
        let advance = try face.measure(text, size: size)
        let metrics = try face.metrics(size: size)
        // Centre the ascender-to-descender band, which keeps "Aa" and "Bb 123" on steady baselines.
        let band = metrics.ascender - metrics.descender
        let baseline = top + (height - band) / 2 + metrics.ascender
        let x = (Double(canvas.width) - advance) / 2
        try canvas.drawText(text, font: face, size: size, x: x, baseline: Int(baseline.rounded()), color: color)
    }

    /// Names, format, counts and the first characters the font maps, as text and HTML.
    public func makePreview(for input: GeneratorInput, request: PreviewRequest) throws -> TextPreview {
        let face = try open(input)
        let info = face.info
        let sample = face.mappedScalars(from: 0x21, limit: 96).filter { !$0.properties.isWhitespace }
        let rows: [(String, String)] = [
            ("Family", info.family.isEmpty ? "(none)" : info.family),
            ("Style", info.style.isEmpty ? "(none)" : info.style),
            ("PostScript", info.postscriptName.isEmpty ? "(none)" : info.postscriptName),
            ("Format", info.format + (info.isScalable ? " (outlines)" : " (bitmaps only)")),
            ("Glyphs", String(info.glyphCount)),
            ("Faces", String(info.faceCount)),
            ("Units per em", info.unitsPerEm == 0 ? "(none)" : String(info.unitsPerEm)),
            ("Monospace", info.isFixedWidth ? "yes" : "no"),
            ("Kerning", info.hasKerning ? "kern table" : "none read"),
            ("Characters", sample.isEmpty ? "(none mapped)" : String(String.UnicodeScalarView(sample))),
        ]
        let text = rows.map { "\(($0.0 + ":").padding(toLength: 14, withPad: " ", startingAt: 0))\($0.1)" }.joined(separator: "\n")
        var html = "<dl class=\"vignette-font\">\n"
        for (key, value) in rows { html += "<dt>\(HTML.escape(key))</dt><dd>\(HTML.escape(value))</dd>\n" }
        html += "</dl>\n"
        let title = info.family.isEmpty ? (input.filename ?? "(upload)") : "\(info.family) \(info.style)".trimmingTrailingSpace
        return TextPreview(title: "\(title) — \(input.type.localizedDescription)", text: text, html: html)
    }
}

extension String {
    fileprivate var trimmingTrailingSpace: String {
        var s = self
        while s.last == " " { s.removeLast() }
        return s
    }
}
