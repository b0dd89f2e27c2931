public import VignetteCore

/// Streams decoded rows into a thumbnail: an integer box shrink, then a Lanczos-3 reduce.
///
/// Like libvips' thumbnail, most of the reduction is a box average (cheap, and exact for
/// integer factors) down to between one and two times the target, and the rest is a
/// Lanczos-3 reduce, which gives the sharpness. Colour is averaged premultiplied by alpha,
/// so transparent pixels do not bleed. Memory is O(width) for the box stage plus
/// O(target width × intermediate height) floats: the full-size image never exists.
public final class Downscaler {
    /// Size of the image fed in.
    public let inWidth: Int, inHeight: Int
    /// Size of the image produced.
    public let outWidth: Int, outHeight: Int
    let channels: Int
    let boxX: Int, boxY: Int
    let midWidth: Int, midHeight: Int
    let hKernel: ResampleKernel?
    let vKernel: ResampleKernel?
    /// Box sums of the current band of rows (4 channels per intermediate column; 64-bit so huge boxes cannot overflow).
    var accumulator: [UInt64]
    /// Opaque input with a vertical box (no alpha channel, or RGBA known to be opaque): plain
    /// per-byte column sums of the band, a loop the compiler vectorises; collapsed horizontally
    /// once per band instead of once per row.
    let columnFirst: Bool
    var columns: [UInt32]
    var rowsInBand = 0
    var rowsSeen = 0
    var midRow: [Float]
    /// Horizontally resampled intermediate rows, `outWidth * 4` floats each.
    var rows: [Float]
    var midRowsDone = 0

    /// Creates a downscaler for `channels`-byte pixels (1 gray, 3 RGB, 4 RGBA straight alpha).
    ///
    /// `extent` is the true size of the picture in input pixels when it is smaller than the
    /// input (a JPEG scaled by 1/4 whose height was not a multiple of 4 has a last row that is
    /// only partly picture): the scale comes from it, so the thumbnail is not shifted. `opaque`
    /// says 4-byte pixels all have alpha 255 (then it is not read): colour is averaged alone.
    public init(
        inWidth: Int, inHeight: Int, channels: Int, outWidth: Int, outHeight: Int, extent: (width: Double, height: Double)? = nil,
        opaque: Bool = false
    ) {
        precondition([1, 3, 4].contains(channels), "channels must be 1, 3 or 4")
        precondition(inWidth > 0 && inHeight > 0 && outWidth > 0 && outHeight > 0, "sizes must be positive")
        self.inWidth = inWidth
        self.inHeight = inHeight
        self.outWidth = outWidth
        self.outHeight = outHeight
        self.channels = channels
        // Box down to no less than twice the target; Lanczos does the last factor (1×–2×).
        boxX = max(1, inWidth / (outWidth * 2))
        boxY = max(1, inHeight / (outHeight * 2))
        midWidth = (inWidth + boxX - 1) / boxX
        midHeight = (inHeight + boxY - 1) / boxY
        // Scales from the true geometry: a partial last box must not stretch the whole row.
        let trueWidth = min(Double(inWidth), extent?.width ?? Double(inWidth))
        let trueHeight = min(Double(inHeight), extent?.height ?? Double(inHeight))
        hKernel =
            midWidth == outWidth && Double(boxX * outWidth) == trueWidth
            ? nil : ResampleKernel(inSize: midWidth, outSize: outWidth, scale: trueWidth / Double(boxX * outWidth))
        vKernel =
            midHeight == outHeight && Double(boxY * outHeight) == trueHeight
            ? nil : ResampleKernel(inSize: midHeight, outSize: outHeight, scale: trueHeight / Double(boxY * outHeight))
        accumulator = [UInt64](repeating: 0, count: midWidth * 4)
        columnFirst = (channels != 4 || opaque) && boxY > 1
        columns = [UInt32](repeating: 0, count: columnFirst ? inWidth * channels : 0)
        midRow = [Float](repeating: 0, count: midWidth * 4)
        rows = [Float](repeating: 0, count: outWidth * 4 * midHeight)
    }

    /// Feeds `count` rows of `inWidth` pixels starting at `base`, `stride` bytes apart.
    public func push(_ base: UnsafePointer<UInt8>, stride: Int, count: Int) {
        for r in 0..<count where rowsSeen < inHeight {
            accumulate(base + r * stride)
            rowsSeen += 1
            rowsInBand += 1
            if rowsInBand == boxY || rowsSeen == inHeight { flushBand() }
        }
    }

    /// Finishes (missing rows count as transparent black) and returns the thumbnail.
    public func finish() -> Bitmap {
        while midRowsDone < midHeight {
            if rowsInBand > 0 {
                flushBand()
            } else {
                rowsInBand = boxY
                flushBand()
            }
        }
        return verticalPass()
    }

    func accumulate(_ row: UnsafePointer<UInt8>) {
        if columnFirst {
            let n = inWidth * channels
            columns.withUnsafeMutableBufferPointer { col in
                for i in 0..<n { col[i] &+= UInt32(row[i]) }
            }
            return
        }
        accumulateRow(row)
    }

    /// Sums the band's column totals over each box width into the accumulator, and clears them.
    func collapseColumns() {
        let boxX = self.boxX
        let inWidth = self.inWidth
        let channels = self.channels
        columns.withUnsafeMutableBufferPointer { col in
            accumulator.withUnsafeMutableBufferPointer { acc in
                var x = 0
                var o = 0
                while x < inWidth {
                    let start = x
                    let end = min(x + boxX, inWidth)
                    var r: UInt64 = 0, g: UInt64 = 0, b: UInt64 = 0
                    if channels == 3 {
                        while x < end {
                            r &+= UInt64(col[x * 3]); g &+= UInt64(col[x * 3 + 1]); b &+= UInt64(col[x * 3 + 2])
                            x += 1
                        }
                    } else if channels == 4 {
                        while x < end {
                            r &+= UInt64(col[x * 4]); g &+= UInt64(col[x * 4 + 1]); b &+= UInt64(col[x * 4 + 2])
                            x += 1
                        }
                    } else {
                        while x < end { r &+= UInt64(col[x]); x += 1 }
                        g = r
                        b = r
                    }
                    acc[o] &+= r &* 255; acc[o + 1] &+= g &* 255; acc[o + 2] &+= b &* 255
                    acc[o + 3] &+= UInt64(end - start) &* UInt64(rowsInBand) &* 255
                    o += 4
                }
                for i in 0..<col.count { col[i] = 0 }
            }
        }
    }

    func accumulateRow(_ row: UnsafePointer<UInt8>) {
        let boxX = self.boxX
        let inWidth = self.inWidth
        accumulator.withUnsafeMutableBufferPointer { acc in
            switch channels {
            case 4:
                var x = 0
                var o = 0
                while x < inWidth {
                    let end = min(x + boxX, inWidth)
                    var r: UInt32 = 0, g: UInt32 = 0, b: UInt32 = 0, a: UInt32 = 0
                    while x < end {
                        let p = row + x * 4
                        let alpha = UInt32(p[3])
                        r &+= UInt32(p[0]) &* alpha
                        g &+= UInt32(p[1]) &* alpha
                        b &+= UInt32(p[2]) &* alpha
                        a &+= alpha
                        x += 1
                    }
                    acc[o] &+= UInt64(r); acc[o + 1] &+= UInt64(g); acc[o + 2] &+= UInt64(b); acc[o + 3] &+= UInt64(a)
                    o += 4
                }
            case 3:
                var x = 0
                var o = 0
                while x < inWidth {
                    let start = x
                    let end = min(x + boxX, inWidth)
                    var r: UInt32 = 0, g: UInt32 = 0, b: UInt32 = 0
                    while x < end {
                        let p = row + x * 3
                        r &+= UInt32(p[0]); g &+= UInt32(p[1]); b &+= UInt32(p[2])
                        x += 1
                    }
                    // Opaque: colour in the same units as premultiplied RGBA (value × 255).
                    acc[o] &+= UInt64(r &* 255); acc[o + 1] &+= UInt64(g &* 255); acc[o + 2] &+= UInt64(b &* 255)
                    acc[o + 3] &+= UInt64(end - start) &* 255
                    o += 4
                }
            default:
                var x = 0
                var o = 0
                while x < inWidth {
                    let start = x
                    let end = min(x + boxX, inWidth)
                    var v: UInt32 = 0
                    while x < end { v &+= UInt32(row[x]); x += 1 }
                    let value = UInt64(v) &* 255
                    acc[o] &+= value; acc[o + 1] &+= value; acc[o + 2] &+= value
                    acc[o + 3] &+= UInt64(end - start) &* 255
                    o += 4
                }
            }
        }
    }

    /// Turns the band's box sums into one intermediate row (premultiplied floats in 0…1) and resamples it horizontally.
    func flushBand() {
        guard midRowsDone < midHeight else { return }
        if columnFirst { collapseColumns() }
        let band = Float(max(rowsInBand, 1))
        // Colour sums are in units of 255 × 255 per pixel, alpha sums in units of 255.
        accumulator.withUnsafeMutableBufferPointer { acc in
            midRow.withUnsafeMutableBufferPointer { mid in
                for ox in 0..<midWidth {
                    let count = Float(min(boxX, inWidth - ox * boxX)) * band
                    let sColour = 1 / (65025 * count)
                    let sAlpha = 1 / (255 * count)
                    let o = ox * 4
                    mid[o] = Float(acc[o]) * sColour
                    mid[o + 1] = Float(acc[o + 1]) * sColour
                    mid[o + 2] = Float(acc[o + 2]) * sColour
                    mid[o + 3] = Float(acc[o + 3]) * sAlpha
                    acc[o] = 0; acc[o + 1] = 0; acc[o + 2] = 0; acc[o + 3] = 0
                }
            }
        }
        rowsInBand = 0
        horizontalPass(into: midRowsDone)
        midRowsDone += 1
    }

    func horizontalPass(into index: Int) {
        let outWidth = self.outWidth
        rows.withUnsafeMutableBufferPointer { rowsBuffer in
            let dst = rowsBuffer.baseAddress! + index * outWidth * 4
            midRow.withUnsafeBufferPointer { mid in
                guard let k = hKernel else {
                    for i in 0..<(outWidth * 4) { dst[i] = mid[i] }
                    return
                }
                k.weights.withUnsafeBufferPointer { w in
                    for ox in 0..<outWidth {
                        var r: Float = 0, g: Float = 0, b: Float = 0, a: Float = 0
                        let start = k.starts[ox]
                        let wBase = ox * k.taps
                        for t in 0..<k.counts[ox] {
                            let weight = w[wBase + t]
                            let p = (start + t) * 4
                            r += mid[p] * weight; g += mid[p + 1] * weight
                            b += mid[p + 2] * weight; a += mid[p + 3] * weight
                        }
                        dst[ox * 4] = r; dst[ox * 4 + 1] = g; dst[ox * 4 + 2] = b; dst[ox * 4 + 3] = a
                    }
                }
            }
        }
    }

    func verticalPass() -> Bitmap {
        var out = Bitmap(width: outWidth, height: outHeight)
        let rowFloats = outWidth * 4
        out.pixels.withUnsafeMutableBufferPointer { pixels in
            rows.withUnsafeBufferPointer { src in
                var line = [Float](repeating: 0, count: rowFloats)
                for oy in 0..<outHeight {
                    if let k = vKernel {
                        for i in 0..<rowFloats { line[i] = 0 }
                        let start = k.starts[oy]
                        for t in 0..<k.counts[oy] {
                            let weight = k.weights[oy * k.taps + t]
                            let base = (start + t) * rowFloats
                            for i in 0..<rowFloats { line[i] += src[base + i] * weight }
                        }
                    } else {
                        for i in 0..<rowFloats { line[i] = src[oy * rowFloats + i] }
                    }
                    let dst = pixels.baseAddress! + oy * rowFloats
                    for x in 0..<outWidth {
                        let a = min(max(line[x * 4 + 3], 0), 1)
                        let o = x * 4
                        if a <= 0 {
                            dst[o] = 0; dst[o + 1] = 0; dst[o + 2] = 0; dst[o + 3] = 0
                            continue
                        }
                        let inv = 255 / a
                        dst[o] = Downscaler.clampByte(line[o] * inv)
                        dst[o + 1] = Downscaler.clampByte(line[o + 1] * inv)
                        dst[o + 2] = Downscaler.clampByte(line[o + 2] * inv)
                        dst[o + 3] = Downscaler.clampByte(a * 255)
                    }
                }
            }
        }
        return out
    }

    @inline(__always)
    static func clampByte(_ v: Float) -> UInt8 {
        UInt8(min(max(v + 0.5, 0), 255))
    }
}
