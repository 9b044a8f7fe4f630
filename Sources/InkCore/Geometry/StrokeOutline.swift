/// The ink outline of stroke segments: the region swept by a disc whose diameter follows
/// the segment's width, so caps and joins are round.
///
/// Each segment is drawn as one closed polygon (its two offset curves) plus a disc at its
/// start; the last segment also gets a disc at its end. Pieces overlap, so fill them with
/// the non-zero rule (every polygon is counter-clockwise in y-up terms, i.e. positive
/// signed area): the union is the ink. Drawing pieces separately is what lets a renderer
/// redraw only the volatile tail.
@_spi(Tooling) public enum StrokeOutline {
    /// `value` clamped to `range`, as a count: the upper bound when it is NaN or beyond
    /// (huge coordinates), never a trap.
    @inline(__always)
    private static func count(_ value: Double, in range: ClosedRange<Int>) -> Int {
        if value.isNaN || value >= Double(range.upperBound) { return range.upperBound }
        if value <= Double(range.lowerBound) { return range.lowerBound }
        return Int(value)
    }

    /// The closed polygon of one segment's body (without its end discs), counter-clockwise.
    /// A dot segment gives the polygon of its disc.
    ///
    /// Each side is the centreline offset by half the width along its normal at `n + 1`
    /// parameters `k / n`, with `n` the control polygon's length over `maxStep` rounded up,
    /// 1 to 32. The first and last point of each side are evaluated directly at t = 0 and
    /// t = 1, so pieces meet their caps and their neighbours exactly; the points between
    /// them are forward differences at the fixed step, which differ from a direct
    /// evaluation only in their last bits (about `n · 2⁻⁵²` times the coordinates' and the
    /// segment's size).
    ///
    /// It allocates the array it returns; a renderer that outlines every segment can reuse one
    /// buffer with ``appendPolygon(for:maxStep:to:)`` instead.
    ///
    /// - Parameters:
    ///   - segment: The segment.
    ///   - maxStep: the longest chord along the centreline, canvas points.
    public static func polygon(for segment: StrokeSegment, maxStep: Double = 2) -> [CanvasPoint] {
        var polygon: [CanvasPoint] = []
        appendPolygon(for: segment, maxStep: maxStep, to: &polygon)
        return polygon
    }

    /// Appends the polygon ``polygon(for:maxStep:)`` returns to `polygon`, the same points
    /// in the same order, after what it already holds. It allocates nothing when `polygon`
    /// has room for them (at most 66 points for a body, 64 for a dot): clear the buffer with
    /// `removeAll(keepingCapacity: true)` between segments, or append several polygons and
    /// draw each from its start index.
    ///
    /// - Parameters:
    ///   - segment: The segment.
    ///   - maxStep: the longest chord along the centreline, canvas points.
    ///   - polygon: The caller's buffer.
    public static func appendPolygon(for segment: StrokeSegment, maxStep: Double = 2, to polygon: inout [CanvasPoint]) {
        let curve = segment.curve
        let length = curve.controlPolygonLength
        if length < 1e-9 {   // a dot (``StrokeSegment/isDot``)
            appendCircle(center: curve.p0, radius: segment.startWidth / 2, to: &polygon)
            return
        }
        let steps = Self.steps(length / maxStep)
        let total = 2 * (steps + 1)
        // The polygon is the left side forwards, then the right side backwards, turned
        // round when its area is negative, which it usually is: so it is written turned round
        // (the right side forwards, then the left backwards) into a buffer on the stack, its
        // area summed in the unturned order (the same sum, bit for bit), turned back only when
        // that area is not negative, and appended in one copy.
        //
        // The ends are the plain arithmetic, the points between them forward differences
        // (``writeBody(of:steps:to:)``), x and y side by side in the two lanes of a `SIMD2`.
        // A fixed capacity keeps the buffer a plain stack slot (1,024 bytes, the most the
        // standard library places on the stack without asking). The 66 points of 32 steps
        // would pass it, and a temporary allocation would then go to the heap (a malloc per
        // such segment): those are written in place in the caller's array.
        if total <= 64 {
            withUnsafeTemporaryAllocation(of: CanvasPoint.self, capacity: 64) { buffer in
                writeBody(of: segment, steps: steps, to: buffer.baseAddress!)
                polygon.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<total]))
            }
        } else {
            let start = polygon.count
            polygon.append(contentsOf: repeatElement(CanvasPoint(x: 0, y: 0), count: total))
            polygon.withUnsafeMutableBufferPointer { buffer in
                writeBody(of: segment, steps: steps, to: buffer.baseAddress! + start)
            }
        }
    }

    /// The body of ``appendPolygon(for:maxStep:to:)`` with its step count: written into
    /// `out` (room for `2 * (steps + 1)` points, initialized or not: trivial values).
    ///
    /// The two ends (t = 0 and t = 1) are the plain computation: `point(at:)`,
    /// `derivative(at:)`, `normalized ?? chord` and the width in the same operations and
    /// order, so a polygon meets its caps and its neighbours exactly. The points between them
    /// are forward differences at the fixed step h = 1/steps: the cubic's third difference is
    /// constant, so the point takes three additions a step, the derivative (a quadratic) two
    /// and the half width one, and the normal is the derivative turned a quarter and scaled
    /// by one division, `half / |v|`. They differ from the plain computation in the last bits
    /// (`StrokePipelineSpeedTests` bounds the difference); where the derivative is no longer
    /// than 1e-12 the chord gives the direction, as at the ends.
    @inline(__always)
    private static func writeBody(of segment: StrokeSegment, steps: Int, to out: UnsafeMutablePointer<CanvasPoint>) {
        let curve = segment.curve
        let last = 2 * (steps + 1) - 1
        let p0 = SIMD2(curve.p0.x, curve.p0.y), p1 = SIMD2(curve.p1.x, curve.p1.y)
        let p2 = SIMD2(curve.p2.x, curve.p2.y), p3 = SIMD2(curve.p3.x, curve.p3.y)
        let d01 = p1 - p0, d12 = p2 - p1, d23 = p3 - p2
        let startWidth = segment.startWidth
        let widthChange = segment.endWidth - segment.startWidth
        // The polygon is written turned round: the right side forwards at out[k], the left
        // side backwards from out[last].
        @inline(__always) func put(_ k: Int, _ p: SIMD2<Double>, _ normal: SIMD2<Double>) {
            let plus = p + normal, minus = p - normal
            (out + (last &- k)).initialize(to: CanvasPoint(x: plus.x, y: plus.y))
            (out + k).initialize(to: CanvasPoint(x: minus.x, y: minus.y))
        }
        // An end, the plain computation with t = 0 or 1 (both exact: they were k / steps).
        @inline(__always) func end(_ k: Int, at value: Double) {
            let t = SIMD2(repeating: value)
            let u = 1 - t
            let u3 = 3 * u * u, t3 = 3 * t * t
            // point(at:)
            let a = u * u * u, b = u3 * t, c = 3 * u * t * t, d = t * t * t
            let p = p0 * a + p1 * b + p2 * c + p3 * d
            // derivative(at:)
            let v = d01 * u3 + d12 * (6 * u * t) + d23 * t3
            // normalized ?? the chord
            let l = (v.x * v.x + v.y * v.y).squareRoot()
            let direction = l > 1e-12 ? v / SIMD2(repeating: l) : Self.chord(from: p0, to: p3)
            let half = (SIMD2(repeating: startWidth) + SIMD2(repeating: widthChange) * t) / 2
            put(k, p, SIMD2(-direction.y, direction.x) * half)
        }
        end(0, at: 0)
        end(steps, at: 1)
        if steps > 1 {
            // p(t) = p0 + c t + b t² + a t³, v(t) = p'(t) = c + 2b t + 3a t², at t = k h.
            let a = d23 - 2 * d12 + d01, b = 3 * (d12 - d01), c = 3 * d01
            let h = 1 / Double(steps)
            let ah2 = a * (h * h), ah3 = ah2 * h, bh = b * h, bh2 = bh * h
            var p = p0, dp = ah3 + bh2 + c * h, ddp = 6 * ah3 + 2 * bh2
            let dddp = 6 * ah3
            var v = c, dv = 3 * ah2 + 2 * bh
            let ddv = 6 * ah2
            var half = startWidth / 2
            let dhalf = widthChange * h / 2
            for k in 1..<steps {
                p += dp; dp += ddp; ddp += dddp
                v += dv; dv += ddv
                half += dhalf
                let l = (v.x * v.x + v.y * v.y).squareRoot()
                let normal: SIMD2<Double>
                if l > 1e-12 {
                    normal = SIMD2(-v.y, v.x) * (half / l)
                } else {
                    let direction = Self.chord(from: p0, to: p3)
                    normal = SIMD2(-direction.y, direction.x) * half
                }
                put(k, p, normal)
            }
        }
        // ``signedArea(_:)`` of the unturned polygon, out[last] down to out[0].
        var area = 0.0
        var previous = out[0]
        var i = last
        while i >= 0 {
            let p = out[i]
            area += previous.x * p.y - p.x * previous.y
            previous = p
            i -= 1
        }
        let body = UnsafeMutableBufferPointer(start: out, count: last + 1)
        if !(area < 0) { var turned = body; turned.reverse() }
    }

    /// The step count for a control polygon `ratio` times the longest step: its ceiling
    /// clamped to 1...32 (32 when it is NaN or beyond), `count((ratio).rounded(.up), in: 1...32)`
    /// without a call to `ceil`.
    @inline(__always)
    private static func steps(_ ratio: Double) -> Int {
        if !(ratio <= 31) { return 32 }   // NaN too
        if ratio <= 1 { return 1 }
        let whole = Int(ratio)           // 1...31
        return Double(whole) < ratio ? whole + 1 : whole
    }

    /// The direction of a curve's chord, the normal's direction where its derivative
    /// vanishes: `(p3 - p0).normalized ?? CanvasPoint(x: 1, y: 0)` with the same operations,
    /// inlined so that the step loop makes no call (a call would spill its registers).
    @inline(__always)
    private static func chord(from p0: SIMD2<Double>, to p3: SIMD2<Double>) -> SIMD2<Double> {
        let c = p3 - p0
        let l = (c.x * c.x + c.y * c.y).squareRoot()
        return l > 1e-12 ? c / SIMD2(repeating: l) : SIMD2(1, 0)
    }

    /// A polygon approximating a circle, counter-clockwise, with at most `maxStep` between
    /// vertices (and at least 8 vertices).
    public static func circle(center: CanvasPoint, radius: Double, maxStep: Double = 1) -> [CanvasPoint] {
        var polygon: [CanvasPoint] = []
        appendCircle(center: center, radius: radius, maxStep: maxStep, to: &polygon)
        return polygon
    }

    /// Appends the points of ``circle(center:radius:maxStep:)`` to `polygon`.
    static func appendCircle(center: CanvasPoint, radius: Double, maxStep: Double = 1, to polygon: inout [CanvasPoint]) {
        let count = Self.count((2 * Double.pi * radius / maxStep).rounded(.up), in: 8...64)
        for k in 0..<count {
            let a = 2 * Double.pi * Double(k) / Double(count)
            polygon.append(CanvasPoint(x: center.x + radius * cosine(a), y: center.y + radius * sine(a)))
        }
    }

    /// Twice the signed area of a polygon (shoelace formula); positive when counter-clockwise
    /// with y up.
    public static func signedArea(_ polygon: [CanvasPoint]) -> Double {
        polygon.withUnsafeBufferPointer { signedArea($0) }
    }

    /// ``signedArea(_:)`` of the points in a buffer.
    @inline(__always)
    static func signedArea(_ polygon: UnsafeBufferPointer<CanvasPoint>) -> Double {
        guard polygon.count >= 3 else { return 0 }
        var sum = 0.0
        var previous = polygon[polygon.count - 1]
        for p in polygon {
            sum += previous.x * p.y - p.x * previous.y
            previous = p
        }
        return sum
    }

    /// Whether the point is ink: inside a segment body or one of the round joins and caps.
    public static func contains<Segments: Collection<StrokeSegment>>(_ point: CanvasPoint, in segments: Segments) -> Bool {
        for (i, segment) in segments.enumerated() {
            if point.distance(to: segment.curve.p0) <= segment.startWidth / 2 + 1e-9 { return true }
            if i == segments.count - 1, point.distance(to: segment.curve.p3) <= segment.endWidth / 2 + 1e-9 { return true }
            if !segment.isDot, segment.bounds.contains(point), winding(of: point, around: polygon(for: segment)) != 0 {
                return true
            }
        }
        return false
    }

    /// The winding number of a polygon around a point (non-zero means inside).
    public static func winding(of point: CanvasPoint, around polygon: [CanvasPoint]) -> Int {
        var winding = 0
        guard var a = polygon.last else { return 0 }
        for b in polygon {
            let cross = (b.x - a.x) * (point.y - a.y) - (point.x - a.x) * (b.y - a.y)
            if a.y <= point.y {
                if b.y > point.y, cross > 0 { winding += 1 }
            } else if b.y <= point.y, cross < 0 {
                winding -= 1
            }
            a = b
        }
        return winding
    }

    /// SVG path data for the ink of the segments (fill with `fill-rule="nonzero"`):
    /// a polygon per segment body and a circle (two arcs) per join and cap.
    ///
    /// - Parameters:
    ///   - segments: The segments to draw.
    ///   - decimals: digits after the decimal point (2 is 1/100 pt).
    public static func svgPathData<Segments: Collection<StrokeSegment>>(_ segments: Segments, decimals: Int = 2) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(segments.count * 160)
        func command(_ letter: Unicode.Scalar) { out.append(UInt8(ascii: letter)) }
        func number(_ value: Double) { SVGNumber.append(value, decimals: decimals, to: &out) }
        func space() { out.append(0x20) }
        func disc(_ c: CanvasPoint, _ r: Double) {
            guard r > 0 else { return }
            // M cx-r cy a r r 0 1 1 2r 0 a r r 0 1 1 -2r 0 Z
            command("M"); number(c.x - r); space(); number(c.y)
            arc(r, 2 * r)
            arc(r, -2 * r)
            command("Z")
        }
        func arc(_ r: Double, _ dx: Double) {
            command("a"); number(r); space(); number(r); out.append(contentsOf: " 0 1 1 ".utf8); number(dx); out.append(contentsOf: " 0".utf8)
        }
        for (i, segment) in segments.enumerated() {
            disc(segment.curve.p0, segment.startWidth / 2)
            if segment.isDot { continue }
            let polygon = polygon(for: segment)
            for (k, p) in polygon.enumerated() {
                command(k == 0 ? "M" : "L"); number(p.x); space(); number(p.y)
            }
            command("Z")
            if i == segments.count - 1 { disc(segment.curve.p3, segment.endWidth / 2) }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// Number formatting for SVG: fixed decimals, no trailing zeros; an exponent only for
/// magnitudes of 10^15 and more (valid SVG number syntax), where decimals mean nothing.
/// Any finite value formats; a non-finite one becomes 0.
package enum SVGNumber {
    package static func format(_ value: Double, decimals: Int) -> String {
        var bytes: [UInt8] = []
        append(value, decimals: decimals, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the number's text (see ``format(_:decimals:)``) as ASCII.
    package static func append(_ value: Double, decimals: Int, to out: inout [UInt8]) {
        guard value.isFinite else { out.append(0x30); return }
        let decimals = min(max(decimals, 0), 15)
        let scale = pow10(decimals)
        let scaled = (value * scale).rounded()
        // Beyond 2^53 a Double holds no fraction, and beyond 2^63 no Int64 holds it.
        guard abs(value) < 1e15, abs(scaled) < 9e15 else { out.append(contentsOf: "\(value.rounded())".utf8); return }
        if scaled == 0 { out.append(0x30); return }
        if scaled < 0 { out.append(0x2D) }
        let magnitude = Int64(abs(scaled))
        let unit = Int64(scale)
        appendDigits(magnitude / unit, to: &out)
        var fraction = magnitude % unit
        guard fraction != 0 else { return }
        var digits = decimals
        while fraction % 10 == 0 { fraction /= 10; digits -= 1 }
        out.append(0x2E)
        // Leading zeros of the fraction, then its digits.
        let start = out.count
        appendDigits(fraction, to: &out)
        let width = out.count - start
        if digits > width { out.insert(contentsOf: repeatElement(UInt8(0x30), count: digits - width), at: start) }
    }

    private static func appendDigits(_ value: Int64, to out: inout [UInt8]) {
        // Least significant first (division by a constant 10 is cheap), then reversed.
        let start = out.count
        var rest = value
        repeat {
            out.append(UInt8(truncatingIfNeeded: 48 + rest % 10))
            rest /= 10
        } while rest > 0
        var low = start, high = out.count - 1
        while low < high {
            out.swapAt(low, high)
            low += 1
            high -= 1
        }
    }

    private static func pow10(_ n: Int) -> Double { (0..<n).reduce(1.0) { r, _ in r * 10 } }
}
