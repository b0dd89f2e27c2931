public import VignetteCore

/// Streams decoded rows into a thumbnail: an integer box shrink, then a Lanczos-3 reduce.
///
/// Like libvips' thumbnail, most of the reduction is a box average (cheap, and exact for
/// integer factors) down to between one and two times the target, and the rest is a
/// Lanczos-3 reduce, which gives the sharpness. Colour is averaged premultiplied by alpha,
/// so transparent pixels do not bleed. Memory is O(width) for the box stage plus
/// O(target width × Lanczos taps) floats and the thumbnail: the full-size image never exists.
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
    /// One intermediate row: a premultiplied RGBA pixel (floats in 0…1) per intermediate column.
    let midRow: UnsafeMutablePointer<SIMD4<Float>>
    /// The last `ringRows` horizontally resampled intermediate rows, `outWidth` pixels each (row r in slot r % ringRows).
    let rows: UnsafeMutablePointer<SIMD4<Float>>
    let ringRows: Int
    var midRowsDone = 0
    /// The thumbnail's bytes, a row written as soon as the intermediate rows it needs are in.
    var pixels: [UInt8]
    var outRowsDone = 0
    /// Where each tap's intermediate row is in the ring, for the output row being made.
    let tapRows: UnsafeMutablePointer<UnsafePointer<SIMD4<Float>>>
    /// A 1×1 box: each row becomes an intermediate row directly, without the integer sums.
    let direct: Bool
    /// What a one-pixel box of each byte value divides down to (1- and 3-byte pixels of a direct downscaler).
    let byteValues: [Float]

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
        midRow = .allocate(capacity: midWidth)
        midRow.initialize(repeating: .zero, count: midWidth)
        // Every row is written by horizontalPass before an output row reads it (finish fills missing ones).
        ringRows = Downscaler.ringSize(vKernel, midHeight: midHeight)
        rows = .allocate(capacity: outWidth * ringRows)
        tapRows = .allocate(capacity: vKernel?.taps ?? 1)
        pixels = [UInt8](repeating: 0, count: outWidth * outHeight * 4)
        direct = boxX == 1 && boxY == 1
        let one = Downscaler.scales(count: 1)
        byteValues = direct && channels != 4 ? (0..<256).map { Float(UInt64($0) &* 255) * one.colour } : []
    }

    deinit {
        midRow.deallocate()
        rows.deallocate()
        tapRows.deallocate()
    }

    /// How many horizontally resampled rows to keep: one output row's taps when no output row's
    /// last tap comes before the previous row's (always, for Lanczos), else all of them.
    static func ringSize(_ kernel: ResampleKernel?, midHeight: Int) -> Int {
        guard let kernel else { return 1 }
        var end = 0
        for o in 0..<kernel.starts.count {
            let next = kernel.starts[o] + kernel.counts[o]
            guard next >= end, kernel.counts[o] <= kernel.taps else { return midHeight }
            end = next
        }
        return min(kernel.taps, midHeight)
    }

    /// The factors that turn a box's colour sums (units of 255 × 255) and alpha sum (units of 255) into 0…1, for a box of `count` pixels.
    @inline(__always)
    static func scales(count: Float) -> (colour: Float, alpha: Float) {
        (1 / (65025 * count), 1 / (255 * count))
    }

    /// Feeds `count` rows of `inWidth` pixels starting at `base`, `stride` bytes apart.
    public func push(_ base: UnsafePointer<UInt8>, stride: Int, count: Int) {
        if direct {
            for r in 0..<count where rowsSeen < inHeight {
                convertRow(base + r * stride)
                rowsSeen += 1
                addMidRow()
            }
            return
        }
        for r in 0..<count where rowsSeen < inHeight {
            accumulate(base + r * stride)
            rowsSeen += 1
            rowsInBand += 1
            if rowsInBand == boxY || rowsSeen == inHeight { flushBand() }
        }
    }

    /// Finishes (missing rows count as transparent black) and returns the thumbnail; call it once.
    ///
    /// The downscaler hands its pixels over rather than sharing them, so the caller can change
    /// the bitmap without a copy.
    public func finish() -> Bitmap {
        precondition(!pixels.isEmpty, "Downscaler.finish() was already called")
        while midRowsDone < midHeight {
            if rowsInBand > 0 {
                flushBand()
            } else {
                rowsInBand = boxY
                flushBand()
            }
        }
        assert(outRowsDone == outHeight, "every output row needs only rows before the last")
        let bitmap = Bitmap(width: outWidth, height: outHeight, pixels: pixels)
        pixels = []
        return bitmap
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

    /// Turns one input row into the intermediate row when the box is 1×1: the values flushBand
    /// would give for one-pixel boxes, computed with the same float operations.
    func convertRow(_ row: UnsafePointer<UInt8>) {
        let mid = midRow
        let width = inWidth
        let one = Downscaler.scales(count: 1)
        switch channels {
        case 4:
            let scale = SIMD4<Float>(one.colour, one.colour, one.colour, one.alpha)
            for x in 0..<width {
                let p = row + x * 4
                // Byte products are below 2^24, so the float product is the integer sum exactly.
                let a = Float(p[3])
                mid[x] = SIMD4<Float>(Float(p[0]) * a, Float(p[1]) * a, Float(p[2]) * a, a) * scale
            }
        case 3:
            let alpha = Float(UInt64(255)) * one.alpha
            byteValues.withUnsafeBufferPointer { table in
                for x in 0..<width {
                    let p = row + x * 3
                    mid[x] = SIMD4<Float>(table[Int(p[0])], table[Int(p[1])], table[Int(p[2])], alpha)
                }
            }
        default:
            let alpha = Float(UInt64(255)) * one.alpha
            byteValues.withUnsafeBufferPointer { table in
                for x in 0..<width {
                    let v = table[Int(row[x])]
                    mid[x] = SIMD4<Float>(v, v, v, alpha)
                }
            }
        }
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
                var p = UnsafeRawPointer(row)
                while x < inWidth {
                    let end = min(x + boxX, inWidth)
                    // Colour times alpha, and alpha, summed as four 32-bit lanes: the scalar sums exactly.
                    var sum = SIMD4<UInt32>()
                    while x < end {
                        let v = SIMD4<UInt32>(truncatingIfNeeded: p.loadUnaligned(as: SIMD4<UInt8>.self))
                        sum &+= v &* SIMD4<UInt32>(v[3], v[3], v[3], 1)
                        p += 4
                        x += 1
                    }
                    acc[o] &+= UInt64(sum[0]); acc[o + 1] &+= UInt64(sum[1]); acc[o + 2] &+= UInt64(sum[2]); acc[o + 3] &+= UInt64(sum[3])
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
        // Every box is boxX wide but the last, which may be partial.
        let full = Downscaler.scales(count: Float(boxX) * band)
        let last = Downscaler.scales(count: Float(inWidth - (midWidth - 1) * boxX) * band)
        let fullScale = SIMD4<Float>(full.colour, full.colour, full.colour, full.alpha)
        let lastScale = SIMD4<Float>(last.colour, last.colour, last.colour, last.alpha)
        let mid = midRow
        let midWidth = self.midWidth
        accumulator.withUnsafeMutableBufferPointer { acc in
            for ox in 0..<midWidth {
                let o = ox * 4
                // The sums fit in Int64, whose conversion to Float is one instruction (UInt64's is not); same value.
                let sums = SIMD4<Float>(
                    Float(Int64(bitPattern: acc[o])), Float(Int64(bitPattern: acc[o + 1])),
                    Float(Int64(bitPattern: acc[o + 2])), Float(Int64(bitPattern: acc[o + 3])))
                mid[ox] = sums * (ox == midWidth - 1 ? lastScale : fullScale)
                acc[o] = 0; acc[o + 1] = 0; acc[o + 2] = 0; acc[o + 3] = 0
            }
        }
        rowsInBand = 0
        addMidRow()
    }

    /// Resamples the intermediate row into the ring, then makes the output rows that were waiting for it.
    func addMidRow() {
        horizontalPass(into: midRowsDone % ringRows)
        midRowsDone += 1
        let src = UnsafePointer(rows)
        let outWidth = self.outWidth
        pixels.withUnsafeMutableBufferPointer { pixels in
            guard let k = vKernel else {
                // No vertical resampling: output row r is intermediate row r.
                while outRowsDone < min(midRowsDone, outHeight) {
                    let row = src + (outRowsDone % ringRows) * outWidth
                    let dst = pixels.baseAddress! + outRowsDone * outWidth * 4
                    for x in 0..<outWidth { Downscaler.store(row[x], dst + x * 4) }
                    outRowsDone += 1
                }
                return
            }
            k.withUnsafePointers { starts, counts, weights in
                while outRowsDone < outHeight && starts[outRowsDone] + counts[outRowsDone] <= midRowsDone {
                    let oy = outRowsDone
                    for t in 0..<counts[oy] { tapRows[t] = src + ((starts[oy] + t) % ringRows) * outWidth }
                    verticalRow(
                        dst: pixels.baseAddress! + oy * outWidth * 4, weights: weights + oy * k.taps, count: counts[oy])
                    outRowsDone += 1
                }
            }
        }
    }

    /// Resamples the intermediate row into row `index` of `rows`.
    func horizontalPass(into index: Int) {
        let outWidth = self.outWidth
        let dst = rows + index * outWidth
        let mid = midRow
        guard let k = hKernel else {
            dst.update(from: mid, count: outWidth)
            return
        }
        let taps = k.taps
        k.withUnsafePointers { starts, counts, weights in
            var ox = 0
            // Four output pixels at a time where their tap counts agree (all but the edges): four
            // independent sums keep the adder busy; each is still summed in tap order.
            while ox + 4 <= outWidth {
                let n = counts[ox]
                guard counts[ox + 1] == n, counts[ox + 2] == n, counts[ox + 3] == n else {
                    dst[ox] = Downscaler.weightedSum(mid + starts[ox], weights + ox * taps, n)
                    ox += 1
                    continue
                }
                let s0 = mid + starts[ox], s1 = mid + starts[ox + 1], s2 = mid + starts[ox + 2], s3 = mid + starts[ox + 3]
                let w0 = weights + ox * taps, w1 = w0 + taps, w2 = w1 + taps, w3 = w2 + taps
                var a0 = SIMD4<Float>(), a1 = SIMD4<Float>(), a2 = SIMD4<Float>(), a3 = SIMD4<Float>()
                for t in 0..<n {
                    a0 += s0[t] * w0[t]
                    a1 += s1[t] * w1[t]
                    a2 += s2[t] * w2[t]
                    a3 += s3[t] * w3[t]
                }
                dst[ox] = a0; dst[ox + 1] = a1; dst[ox + 2] = a2; dst[ox + 3] = a3
                ox += 4
            }
            while ox < outWidth {
                dst[ox] = Downscaler.weightedSum(mid + starts[ox], weights + ox * taps, counts[ox])
                ox += 1
            }
        }
    }

    /// The sum of `count` pixels from `src`, each times its weight, in order from zero.
    ///
    /// Lane by lane these are the same operations, in the same order, as four scalar sums.
    @inline(__always)
    static func weightedSum(_ src: UnsafePointer<SIMD4<Float>>, _ w: UnsafePointer<Float>, _ count: Int) -> SIMD4<Float> {
        var sum = SIMD4<Float>()
        for t in 0..<count { sum += src[t] * w[t] }
        return sum
    }

    /// Resamples one output row vertically from the `count` rows of `tapRows` and writes it as straight-alpha bytes.
    func verticalRow(dst: UnsafeMutablePointer<UInt8>, weights w: UnsafePointer<Float>, count n: Int) {
        let outWidth = self.outWidth
        let tapRows = self.tapRows
        var x = 0
        // Four pixels at a time, each summed over the taps in order (as the horizontal pass).
        while x + 4 <= outWidth {
            var a0 = SIMD4<Float>(), a1 = SIMD4<Float>(), a2 = SIMD4<Float>(), a3 = SIMD4<Float>()
            for t in 0..<n {
                let p = tapRows[t] + x
                let weight = w[t]
                a0 += p[0] * weight
                a1 += p[1] * weight
                a2 += p[2] * weight
                a3 += p[3] * weight
            }
            Downscaler.store(a0, dst + x * 4)
            Downscaler.store(a1, dst + x * 4 + 4)
            Downscaler.store(a2, dst + x * 4 + 8)
            Downscaler.store(a3, dst + x * 4 + 12)
            x += 4
        }
        while x < outWidth {
            var sum = SIMD4<Float>()
            for t in 0..<n { sum += tapRows[t][x] * w[t] }
            Downscaler.store(sum, dst + x * 4)
            x += 1
        }
    }

    /// Writes a premultiplied pixel as straight-alpha bytes (transparent black when alpha is 0).
    @inline(__always)
    static func store(_ v: SIMD4<Float>, _ dst: UnsafeMutablePointer<UInt8>) {
        let a = min(max(v[3], 0), 1)
        if a <= 0 {
            dst[0] = 0; dst[1] = 0; dst[2] = 0; dst[3] = 0
            return
        }
        let inv = 255 / a
        dst[0] = clampByte(v[0] * inv)
        dst[1] = clampByte(v[1] * inv)
        dst[2] = clampByte(v[2] * inv)
        dst[3] = clampByte(a * 255)
    }

    @inline(__always)
    static func clampByte(_ v: Float) -> UInt8 {
        UInt8(min(max(v + 0.5, 0), 255))
    }
}
