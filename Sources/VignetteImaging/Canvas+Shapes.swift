extension Canvas {
    /// An anti-aliased rectangle (fractional edges get partial coverage).
    public mutating func fillRect(x: Double, y: Double, width w: Double, height h: Double, color: Color) {
        guard w > 0, h > 0 else { return }
        let inner = Int(x.rounded(.up))..<Int((x + w).rounded(.down))
        fill(
            x0: Int(x.rounded(.down)), y0: Int(y.rounded(.down)), x1: Int((x + w).rounded(.up)), y1: Int((y + h).rounded(.up)),
            color: color, solid: { row in Double(row) >= y && Double(row + 1) <= y + h ? inner : nil }
        ) { px, py in
            let cx = min(px + 0.5, x + w) - max(px - 0.5, x)
            let cy = min(py + 0.5, y + h) - max(py - 0.5, y)
            return max(0, min(cx, 1)) * max(0, min(cy, 1))
        }
    }

    /// An anti-aliased rectangle with corners rounded by `radius`; `feather` widens the soft
    /// edge (1 is a crisp anti-aliased edge; a few pixels make a shadow).
    public mutating func fillRoundedRect(
        x: Double, y: Double, width w: Double, height h: Double, radius: Double,
        color: Color, feather: Double = 1
    ) {
        guard w > 0, h > 0 else { return }
        let r = min(max(radius, 0), min(w, h) / 2)
        let f = max(feather, 0.5)
        let cx = x + w / 2, cy = y + h / 2
        let hx = w / 2 - r, hy = h / 2 - r
        // Pixels at least a feather inside both the straight edges and the corner arcs are fully covered.
        let wide = Canvas.columns(x + f, x + w - f), narrow = Canvas.columns(x + r + f, x + w - r - f)
        let solid: (Int) -> Range<Int>? = { row in
            let py = Double(row) + 0.5
            if py >= y + r + f && py <= y + h - r - f { return wide }
            if py >= y + f && py <= y + h - f { return narrow }
            return nil
        }
        fill(
            x0: Int((x - f).rounded(.down)), y0: Int((y - f).rounded(.down)),
            x1: Int((x + w + f).rounded(.up)), y1: Int((y + h + f).rounded(.up)), color: color, solid: solid
        ) { px, py in
            // Signed distance to the rounded box, turned into coverage across the feather band.
            let qx = abs(px - cx) - hx, qy = abs(py - cy) - hy
            let outside = (max(qx, 0) * max(qx, 0) + max(qy, 0) * max(qy, 0)).squareRoot()
            let d = outside + min(max(qx, qy), 0) - r
            return min(max(0.5 - d / f, 0), 1)
        }
    }

    /// An anti-aliased filled polygon (any simple polygon; pixels within a pixel of an edge take 4×4 samples).
    public mutating func fillPolygon(_ points: [(x: Double, y: Double)], color: Color) {
        guard points.count >= 3 else { return }
        let xs = points.map(\.x), ys = points.map(\.y)
        guard let minX = xs.min(), let maxX = xs.max(), let minY = ys.min(), let maxY = ys.max() else { return }
        // A convex polygon's rows have one inside span: the pixels wholly within it need no sampling.
        let solid: ((Int) -> Range<Int>?)? =
            Canvas.isConvex(points)
            ? { row in
                guard let top = Canvas.span(points, atY: Double(row)), let bottom = Canvas.span(points, atY: Double(row + 1)) else {
                    return nil
                }
                let lo = Int(max(top.lowerBound, bottom.lowerBound).rounded(.up)),
                    hi = Int(min(top.upperBound, bottom.upperBound).rounded(.down))
                return lo < hi ? lo..<hi : nil
            } : nil
        fill(
            x0: Int(minX.rounded(.down)), y0: Int(minY.rounded(.down)), x1: Int(maxX.rounded(.up)), y1: Int(maxY.rounded(.up)),
            color: color, solid: solid
        ) { px, py in
            // Away from every edge the pixel is wholly in or out: one test instead of sixteen.
            if Canvas.distanceToEdges(points, px, py) > 0.75 { return Canvas.contains(points, px, py) ? 1 : 0 }
            var hits = 0
            for sy in 0..<4 {
                for sx in 0..<4 {
                    let qx = px - 0.5 + (Double(sx) + 0.5) / 4, qy = py - 0.5 + (Double(sy) + 0.5) / 4
                    if Canvas.contains(points, qx, qy) { hits += 1 }
                }
            }
            return Double(hits) / 16
        }
    }

    static func distanceToEdges(_ points: [(x: Double, y: Double)], _ x: Double, _ y: Double) -> Double {
        var best = Double.infinity
        var j = points.count - 1
        for i in 0..<points.count {
            let a = points[j], b = points[i]
            let dx = b.x - a.x, dy = b.y - a.y
            let len2 = dx * dx + dy * dy
            let t = len2 > 0 ? min(max(((x - a.x) * dx + (y - a.y) * dy) / len2, 0), 1) : 0
            let ex = a.x + t * dx - x, ey = a.y + t * dy - y
            best = min(best, (ex * ex + ey * ey).squareRoot())
            j = i
        }
        return best
    }

    static func contains(_ points: [(x: Double, y: Double)], _ x: Double, _ y: Double) -> Bool {
        var inside = false
        var j = points.count - 1
        for i in 0..<points.count {
            let a = points[i], b = points[j]
            if (a.y > y) != (b.y > y), x < (b.x - a.x) * (y - a.y) / (b.y - a.y) + a.x { inside.toggle() }
            j = i
        }
        return inside
    }

    /// Columns whose pixel centres lie in `a...b`.
    static func columns(_ a: Double, _ b: Double) -> Range<Int> {
        let lo = Int((a - 0.5).rounded(.up)), hi = Int((b - 0.5).rounded(.down)) + 1
        return lo < hi ? lo..<hi : 0..<0
    }

    /// Whether the polygon turns the same way at every corner.
    static func isConvex(_ points: [(x: Double, y: Double)]) -> Bool {
        var sign = 0.0
        let n = points.count
        for i in 0..<n {
            let a = points[i], b = points[(i + 1) % n], c = points[(i + 2) % n]
            let cross = (b.x - a.x) * (c.y - b.y) - (b.y - a.y) * (c.x - b.x)
            if cross != 0 {
                if sign != 0 && (cross > 0) != (sign > 0) { return false }
                sign = cross
            }
        }
        return true
    }

    /// Where the horizontal line at `y` enters and leaves a convex polygon, if it meets it.
    static func span(_ points: [(x: Double, y: Double)], atY y: Double) -> ClosedRange<Double>? {
        var lo = Double.infinity, hi = -Double.infinity
        var j = points.count - 1
        for i in 0..<points.count {
            let a = points[j], b = points[i]
            j = i
            guard a.y != b.y, y >= min(a.y, b.y), y <= max(a.y, b.y) else { continue }
            let x = a.x + (y - a.y) * (b.x - a.x) / (b.y - a.y)
            lo = min(lo, x)
            hi = max(hi, x)
        }
        return lo <= hi ? lo...hi : nil
    }
}
