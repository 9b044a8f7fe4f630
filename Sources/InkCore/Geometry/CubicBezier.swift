/// A cubic Bézier curve in canvas points.
@_spi(Tooling) public struct CubicBezier: Sendable, Hashable {
    /// Start point (on the curve).
    public var p0: CanvasPoint
    /// First control point.
    public var p1: CanvasPoint
    /// Second control point.
    public var p2: CanvasPoint
    /// End point (on the curve).
    public var p3: CanvasPoint

    /// Creates a curve from its four points.
    public init(_ p0: CanvasPoint, _ p1: CanvasPoint, _ p2: CanvasPoint, _ p3: CanvasPoint) {
        self.p0 = p0
        self.p1 = p1
        self.p2 = p2
        self.p3 = p3
    }

    /// The point at parameter `t` in 0...1.
    public func point(at t: Double) -> CanvasPoint {
        let u = 1 - t
        let a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t
        return CanvasPoint(x: a * p0.x + b * p1.x + c * p2.x + d * p3.x,
                           y: a * p0.y + b * p1.y + c * p2.y + d * p3.y)
    }

    /// The derivative (tangent, not normalised) at parameter `t`.
    public func derivative(at t: Double) -> CanvasPoint {
        let u = 1 - t
        let a = (p1 - p0) * (3 * u * u), b = (p2 - p1) * (6 * u * t), c = (p3 - p2) * (3 * t * t)
        return a + b + c
    }

    /// The length of the control polygon: an upper bound of the curve's length.
    public var controlPolygonLength: Double { p0.distance(to: p1) + p1.distance(to: p2) + p2.distance(to: p3) }

    /// A rectangle containing the curve (the control points' bounds).
    public var bounds: CanvasRect {
        CanvasRect(minX: min(p0.x, p1.x, p2.x, p3.x), minY: min(p0.y, p1.y, p2.y, p3.y),
                   maxX: max(p0.x, p1.x, p2.x, p3.x), maxY: max(p0.y, p1.y, p2.y, p3.y))
    }
}

/// Centripetal Catmull-Rom interpolation (α = 0.5), the parameterisation that never forms
/// cusps or self-intersections within a segment, whatever the spacing of the points.
package enum CatmullRom {
    /// The Bézier form of the segment from `p1` to `p2` of the centripetal Catmull-Rom spline
    /// through `p0, p1, p2, p3`. Pass `nil` for a missing neighbour at either end of a stroke;
    /// it is then taken as the reflection of the far point, which makes the end tangents
    /// point along the chord.
    package static func segment(_ p0: CanvasPoint?, _ p1: CanvasPoint, _ p2: CanvasPoint, _ p3: CanvasPoint?) -> CubicBezier {
        let a = p0 ?? (p1 * 2 - p2)
        let d = p3 ?? (p2 * 2 - p1)
        return segment(a, p1, p2, d, knots(a, p1, p2, d))
    }

    /// The knots of the segment from `p1` to `p2` between neighbours `a` and `d`:
    /// reciprocals first, so five divisions in all.
    @inline(__always)
    package static func knots(_ a: CanvasPoint, _ p1: CanvasPoint, _ p2: CanvasPoint, _ d: CanvasPoint) -> Knots {
        let d01 = knot(a, p1), d12 = knot(p1, p2), d23 = knot(p2, d)
        return Knots(d01: d01, d12: d12, d23: d23, r01: 1 / d01, r12: 1 / d12, r23: 1 / d23,
                     r012: 1 / (d01 + d12), r123: 1 / (d12 + d23))
    }

    /// The knot interval of a chord: the square root of its length, kept away from zero so
    /// that repeated points cannot divide by zero.
    @inline(__always)
    package static func knot(_ a: CanvasPoint, _ b: CanvasPoint) -> Double {
        max(a.distance(to: b).squareRoot(), 1e-6)
    }

    /// A segment's three knot intervals and the reciprocals it divides by. Consecutive
    /// segments share two of the three chords, so a caller building them in order computes
    /// one chord per segment and passes the rest on (see ``next(to:)``).
    package struct Knots: Sendable {
        var d01, d12, d23: Double
        var r01, r12, r23, r012, r123: Double

        /// The next segment's knots, whose last chord (from this one's `p2` to `p3`) has
        /// interval `d34`: the same values ``CatmullRom/segment(_:_:_:_:)`` computes.
        @inline(__always)
        package func next(to d34: Double) -> Knots {
            Knots(d01: d12, d12: d23, d23: d34, r01: r12, r12: r23, r23: 1 / d34, r012: r123, r123: 1 / (d23 + d34))
        }
    }

    /// The segment from `p1` to `p2` with its neighbours and knots given.
    @inline(__always)
    package static func segment(_ a: CanvasPoint, _ p1: CanvasPoint, _ p2: CanvasPoint, _ d: CanvasPoint, _ k: Knots) -> CubicBezier {
        // Tangents at p1 and p2 scaled to the [t1, t2] interval (Barry-Goldman form), each
        // divided by 3 for the control points.
        let third = k.d12 / 3
        let m1 = ((p1 - a) * k.r01 - (p2 - a) * k.r012 + (p2 - p1) * k.r12) * third
        let m2 = ((p2 - p1) * k.r12 - (d - p1) * k.r123 + (d - p2) * k.r23) * third
        return CubicBezier(p1, p1 + m1, p2 - m2, p2)
    }
}
