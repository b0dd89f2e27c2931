import Foundation

/// Precomputed Lanczos-3 weights for resampling one axis from `inSize` to `outSize` samples.
///
/// Each output sample has a start index and a run of normalised weights; edges are handled by
/// dropping taps outside the input and renormalising (no mirrored or clamped phantom samples).
struct ResampleKernel {
    /// First input index of each output sample.
    let starts: [Int]
    /// Number of taps of each output sample (all equal to `taps` except near edges).
    let counts: [Int]
    /// Weights, `taps` per output sample.
    let weights: [Float]
    /// Weight slots per output sample.
    let taps: Int

    /// `scale` is input samples per output sample; it differs from `inSize / outSize` when the
    /// input is a box-shrunk image whose last box was partial (the true geometry must be kept).
    init(inSize: Int, outSize: Int, scale explicitScale: Double? = nil) {
        let scale = explicitScale ?? Double(inSize) / Double(outSize)
        let stretch = max(scale, 1)
        let support = 3 * stretch
        let taps = Int(ceil(support * 2)) + 1
        var starts = [Int](repeating: 0, count: outSize)
        var counts = [Int](repeating: 0, count: outSize)
        var weights = [Float](repeating: 0, count: outSize * taps)
        for o in 0..<outSize {
            let center = (Double(o) + 0.5) * scale - 0.5
            let first = max(0, Int(ceil(center - support)))
            let last = min(inSize - 1, Int(floor(center + support)))
            var sum = 0.0
            var local = [Double]()
            local.reserveCapacity(taps)
            if last >= first {
                for i in first...last {
                    let w = ResampleKernel.lanczos3((Double(i) - center) / stretch)
                    local.append(w)
                    sum += w
                }
            }
            if local.isEmpty || abs(sum) < 1e-9 {
                // Degenerate (a 1-sample input): take the nearest sample.
                starts[o] = min(inSize - 1, max(0, Int(center.rounded())))
                counts[o] = 1
                weights[o * taps] = 1
                continue
            }
            let n = min(local.count, taps)
            starts[o] = first
            counts[o] = n
            for k in 0..<n { weights[o * taps + k] = Float(local[k] / sum) }
        }
        self.starts = starts
        self.counts = counts
        self.weights = weights
        self.taps = taps
    }

    /// Calls `body` with the start, tap count and weights arrays as pointers (no bounds checks in the resampling loops).
    @inline(__always)
    func withUnsafePointers<R>(_ body: (UnsafePointer<Int>, UnsafePointer<Int>, UnsafePointer<Float>) -> R) -> R {
        starts.withUnsafeBufferPointer { s in
            counts.withUnsafeBufferPointer { c in
                weights.withUnsafeBufferPointer { w in body(s.baseAddress!, c.baseAddress!, w.baseAddress!) }
            }
        }
    }

    static func lanczos3(_ x: Double) -> Double {
        let ax = abs(x)
        if ax < 1e-12 { return 1 }
        if ax >= 3 { return 0 }
        let px = Double.pi * x
        return 3 * sin(px) * sin(px / 3) / (px * px)
    }
}
