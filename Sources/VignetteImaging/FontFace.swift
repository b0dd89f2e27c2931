import CVignetteCodecs
import Foundation
import VignetteCore

/// One face of a font file, opened with FreeType: names, metrics, glyph coverage, text runs.
///
/// Each face owns its FreeType library and a copy of the font bytes, and a lock serialises
/// its calls, so a face may be shared between threads (two faces never contend).
/// Untrusted fonts should be opened with `hinting: false`, which keeps FreeType's TrueType
/// bytecode interpreter out of the way. A face given a `FontFallback` measures and draws the
/// characters it has no glyph for in the fallback's fonts (Vignette's own text pages); one
/// without draws its .notdef box (a font's own preview).
public final class FontFace: @unchecked Sendable {
    private let handle: OpaquePointer
    private let lock = NSLock()
    private var pixelSize = 16
    /// The face's names and counts.
    public let info: Info
    /// Where the characters this face lacks are drawn from, if anywhere.
    public let fallback: FontFallback?

    /// Names and counts of a face.
    public struct Info: Sendable, Equatable {
        /// Family name ("DejaVu Sans"), empty when the font has none.
        public var family: String
        /// Style name ("Book", "Bold"), empty when none.
        public var style: String
        /// PostScript name, empty when none.
        public var postscriptName: String
        /// FreeType's name for the format ("TrueType", "CFF", "Type 1").
        public var format: String
        /// Glyphs in the face.
        public var glyphCount: Int
        /// Faces in the file (more than one for a collection).
        public var faceCount: Int
        /// Design units per em (0 for bitmap-only fonts).
        public var unitsPerEm: Int
        /// Whether the glyphs are outlines (scalable).
        public var isScalable: Bool
        /// Whether every glyph has the same advance.
        public var isFixedWidth: Bool
        /// Whether the face has a kerning table FreeType reads.
        public var hasKerning: Bool
    }

    /// Vertical metrics at the current size, in pixels.
    public struct Metrics: Sendable, Equatable {
        /// Baseline to the top of tall glyphs (positive).
        public var ascender: Double
        /// Baseline to the bottom of descenders (negative).
        public var descender: Double
        /// Baseline to baseline.
        public var lineHeight: Double
    }

    /// A rendered glyph: coverage bytes (0 none … 255 full), `width` per row.
    public struct Glyph: Sendable, Equatable {
        /// Bitmap width in pixels (0 for blank glyphs such as space).
        public var width: Int
        /// Bitmap height in pixels.
        public var height: Int
        /// Bitmap's left edge from the pen position.
        public var left: Int
        /// Bitmap's top edge above the baseline.
        public var top: Int
        /// Horizontal advance in pixels.
        public var advance: Double
        /// Coverage, `width * height` bytes.
        public var coverage: [UInt8]
    }

    /// Opens face `index` of the font file at `path`; errors name the path.
    public convenience init(path: String, index: Int = 0, hinting: Bool = true, fallback: FontFallback? = nil) throws {
        var err = vgn_error()
        guard let h = vgn_font_open(path, index, hinting ? 1 : 0, &err) else {
            throw FontFace.error(err).about(path)
        }
        try self.init(handle: h, fallback: fallback)
    }

    /// Opens face `index` of a font held in memory (the bytes are copied).
    public convenience init(bytes: [UInt8], index: Int = 0, hinting: Bool = false) throws {
        var err = vgn_error()
        let h = bytes.withUnsafeBufferPointer { vgn_font_open_memory($0.baseAddress, $0.count, index, hinting ? 1 : 0, &err) }
        guard let h else { throw FontFace.error(err) }
        try self.init(handle: h, fallback: nil)
    }

    /// Opens face `index` of a system font file, trusted (hinted) and read as needed rather
    /// than copied into memory: CJK fonts run to tens of megabytes.
    public convenience init(systemPath path: String, index: Int = 0) throws {
        var err = vgn_error()
        guard let h = vgn_font_open_system(path, index, &err) else { throw FontFace.error(err).about(path) }
        try self.init(handle: h, fallback: nil)
    }

    private init(handle: OpaquePointer, fallback: FontFallback?) throws {
        self.handle = handle
        self.fallback = fallback
        var raw = vgn_font_info()
        var err = vgn_error()
        guard vgn_font_get_info(handle, &raw, &err) == 0 else {
            vgn_font_close(handle)
            throw FontFace.error(err)
        }
        info = Info(
            family: CodecError.text(raw.family), style: CodecError.text(raw.style),
            postscriptName: CodecError.text(raw.postscript), format: CodecError.text(raw.format),
            glyphCount: raw.glyph_count, faceCount: raw.face_count, unitsPerEm: Int(raw.units_per_em),
            isScalable: raw.scalable != 0, isFixedWidth: raw.fixed_width != 0, hasKerning: raw.has_kerning != 0)
    }

    deinit { vgn_font_close(handle) }

    /// Largest pixel size a face accepts.
    public static let maxPixelSize = Int(VGN_FONT_MAX_PIXEL_SIZE)

    /// Runs `body` with the face set to `size` pixels per em (clamped to 1…`maxPixelSize`), under the lock.
    private func locked<T>(size: Int, _ body: (OpaquePointer) throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        let px = min(max(size, 1), FontFace.maxPixelSize)
        if px != pixelSize {
            var err = vgn_error()
            guard vgn_font_set_pixel_size(handle, Int32(px), &err) == 0 else { throw FontFace.error(err) }
            pixelSize = px
        }
        return try body(handle)
    }

    /// Vertical metrics at `size` pixels per em.
    public func metrics(size: Int) throws -> Metrics {
        try locked(size: size) { h in
            var m = vgn_font_metrics()
            var err = vgn_error()
            guard vgn_font_get_metrics(h, &m, &err) == 0 else { throw FontFace.error(err) }
            return Metrics(
                ascender: Double(m.ascender_26_6) / 64, descender: Double(m.descender_26_6) / 64,
                lineHeight: Double(m.line_height_26_6) / 64)
        }
    }

    /// Whether the face has a real glyph (not .notdef) for `scalar`.
    public func hasGlyph(_ scalar: Unicode.Scalar) -> Bool {
        hasGlyph(code: scalar.value)
    }

    /// Whether the face has a real glyph for the code point `code`.
    func hasGlyph(code: UInt32) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return vgn_font_has_glyph(handle, code) != 0
    }

    /// Up to `limit` codepoints the face maps, in code order from `start`.
    public func mappedScalars(from start: UInt32 = 0, limit: Int) -> [Unicode.Scalar] {
        guard limit > 0 else { return [] }
        lock.lock()
        defer { lock.unlock() }
        var out = [UInt32](repeating: 0, count: limit)
        let n = out.withUnsafeMutableBufferPointer { vgn_font_codepoints(handle, start, $0.baseAddress, Int32(limit)) }
        return out.prefix(Int(n)).compactMap(Unicode.Scalar.init)
    }

    /// The glyph for `scalar` at `size` pixels per em (.notdef when unmapped).
    public func glyph(_ scalar: Unicode.Scalar, size: Int) throws -> Glyph {
        try locked(size: size) { h in
            var g = vgn_glyph()
            var err = vgn_error()
            guard vgn_font_render_glyph(h, scalar.value, &g, nil, 0, &err) == 0 else { throw FontFace.error(err) }
            var coverage = [UInt8](repeating: 0, count: Int(g.width) * Int(g.height))
            if !coverage.isEmpty {
                let status = coverage.withUnsafeMutableBufferPointer {
                    vgn_font_render_glyph(h, scalar.value, &g, $0.baseAddress, $0.count, &err)
                }
                guard status == 0 else { throw FontFace.error(err) }
            }
            return Glyph(
                width: Int(g.width), height: Int(g.height), left: Int(g.left), top: Int(g.top),
                advance: Double(g.advance_26_6) / 64, coverage: coverage)
        }
    }

    /// The advance of `text` (kerning applied) at `size` pixels per em, in pixels; characters
    /// this face lacks are measured in the fallback's fonts.
    public func measure(_ text: String, size: Int) throws -> Double {
        let scalars = text.unicodeScalars.map(\.value)
        var total = 0.0
        for run in runs(scalars) {
            total += try run.face.measureOwn(Array(scalars[run.range]), size: size)
        }
        return total
    }

    /// The advance of `scalars` in this face alone.
    private func measureOwn(_ scalars: [UInt32], size: Int) throws -> Double {
        try locked(size: size) { h in
            var width: Int32 = 0
            var err = vgn_error()
            let status = scalars.withUnsafeBufferPointer { vgn_font_measure_run(h, $0.baseAddress, $0.count, &width, &err) }
            guard status == 0 else { throw FontFace.error(err) }
            return Double(width) / 64
        }
    }

    /// `scalars` cut into runs, each with the face that draws it: this one, or for characters
    /// it lacks the fallback font that has them (this one's .notdef when none has).
    func runs(_ scalars: [UInt32]) -> [(face: FontFace, range: Range<Int>)] {
        guard let fallback, !scalars.isEmpty else { return [(self, 0..<scalars.count)] }
        let lacking: [Int] = {
            lock.lock()
            defer { lock.unlock() }
            return scalars.indices.filter { vgn_font_has_glyph(handle, scalars[$0]) == 0 }
        }()
        guard !lacking.isEmpty else { return [(self, 0..<scalars.count)] }
        var faces = [FontFace](repeating: self, count: scalars.count)
        for index in lacking { faces[index] = fallback.face(for: scalars[index]) ?? self }
        var result: [(face: FontFace, range: Range<Int>)] = []
        var start = 0
        for index in 1...scalars.count where index == scalars.count || faces[index] !== faces[start] {
            result.append((faces[start], start..<index))
            start = index
        }
        return result
    }

    /// Draws `scalars` into RGBA `pixels` (`width × height`) with the pen at `x` on baseline `y`,
    /// blending `color` by coverage, touching only columns in `clip`; returns the pen's end x.
    /// Characters this face lacks are drawn in the fallback's fonts.
    func draw(
        _ scalars: [UInt32], size: Int, into pixels: UnsafeMutableBufferPointer<UInt8>, width: Int, height: Int,
        x: Double, y: Int, color: [UInt8], clip: Range<Int>
    ) throws -> Double {
        var pen = x
        for run in runs(scalars) {
            // The C draw stops at the clip's end; so do the runs after it.
            guard pen < Double(clip.upperBound) else { break }
            pen = try run.face.drawOwn(
                Array(scalars[run.range]), size: size, into: pixels, width: width, height: height, x: pen, y: y, color: color,
                clip: clip)
        }
        return pen
    }

    /// Draws `scalars` in this face alone.
    private func drawOwn(
        _ scalars: [UInt32], size: Int, into pixels: UnsafeMutableBufferPointer<UInt8>, width: Int, height: Int,
        x: Double, y: Int, color: [UInt8], clip: Range<Int>
    ) throws -> Double {
        guard pixels.count >= width * height * 4, color.count == 4, width > 0, height > 0 else { return x }
        return try locked(size: size) { h in
            var end: Int32 = 0
            var err = vgn_error()
            let pen = Int32(clamping: Int((x * 64).rounded()))
            let status = scalars.withUnsafeBufferPointer { run in
                color.withUnsafeBufferPointer { rgba in
                    vgn_font_draw_run(
                        h, run.baseAddress, run.count, pixels.baseAddress, Int32(width), Int32(height), width * 4, 4,
                        pen, Int32(clamping: y), rgba.baseAddress, Int32(clamping: clip.lowerBound),
                        Int32(clamping: clip.upperBound), &end, &err)
                }
            }
            guard status >= 0 else { throw FontFace.error(err) }
            return Double(end) / 64
        }
    }

    /// A `VignetteError` for a failed font call, its reason starting "font: ".
    static func error(_ err: vgn_error) -> VignetteError {
        let message = CodecError.text(err.message)
        switch Int32(err.code) {
        case VGN_E_LIMIT.rawValue:
            return VignetteError(.limitExceeded, "font over a limit: \(message)")
        case VGN_E_NOMEM.rawValue:
            return VignetteError(.limitExceeded, "out of memory reading font")
        case VGN_E_IO.rawValue:
            return VignetteError(.io, message)
        case VGN_E_STATE.rawValue:
            return VignetteError(.invalidRequest, "font misuse: \(message)")
        default:
            return VignetteError(.corrupt, "damaged or unsupported font: \(message)")
        }
    }
}
