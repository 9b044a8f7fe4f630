/// The fixed-lag smoother of ``StrokeBuilder``: a point's settled position is the value at
/// its own place of a least-squares polynomial through its neighbours (a Savitzky-Golay
/// filter on uneven steps).
///
/// The polynomial's parameter is given by the caller; ``StrokeBuilder`` uses the distance
/// along the raw points (chord length), not the timestamps, so devices that deliver samples
/// in bunches, or with jittery timestamps, do not bend the shape. On evenly timed input the
/// timestamps would do a little better (see `docs/geometry.md`).
///
/// The window is symmetric, `radius` nodes on each side, and shrinks near the ends of a
/// stroke so it stays symmetric: the first and last points are kept exactly. Windows of 5
/// or more points fit a parabola (so curves keep their shape), windows of 3 a line.
/// Because the window is centred, the result has no lag; the price is that a point settles
/// only once `radius` later points are known, which the live tip of the stroke (drawn by
/// the causal ``PenFilter``) hides.
public enum LocalFit {
    /// The settled position of `points[center]`, from the points within `radius` of it on
    /// each side that exist (`available` is the index range that may be used), each placed
    /// at its `parameters` value (increasing, not necessarily strictly).
    public static func settledPosition(
        of center: Int, radius: Int, points: [CanvasPoint], parameters: [Double], available: Range<Int>
    ) -> CanvasPoint {
        let r = min(radius, center - available.lowerBound, available.upperBound - 1 - center)
        guard r > 0 else { return points[center] }
        let t0 = parameters[center]
        // Normal equations of the fit in τ = t − t0, centred so they are well conditioned.
        var s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0, s4 = 0.0
        var x0 = 0.0, x1 = 0.0, x2 = 0.0, y0 = 0.0, y1 = 0.0, y2 = 0.0
        for i in (center - r)...(center + r) {
            let tau = parameters[i] - t0, tau2 = tau * tau
            let p = points[i]
            s0 += 1; s1 += tau; s2 += tau2; s3 += tau2 * tau; s4 += tau2 * tau2
            x0 += p.x; x1 += p.x * tau; x2 += p.x * tau2
            y0 += p.y; y1 += p.y * tau; y2 += p.y * tau2
        }
        if r >= 2 {
            // Constant term of the parabola, by Cramer's rule on the 3 × 3 system.
            let det = s0 * (s2 * s4 - s3 * s3) - s1 * (s1 * s4 - s3 * s2) + s2 * (s1 * s3 - s2 * s2)
            if abs(det) > 1e-12 * s0 * s2 * s4 {
                func constant(_ b0: Double, _ b1: Double, _ b2: Double) -> Double {
                    (b0 * (s2 * s4 - s3 * s3) - s1 * (b1 * s4 - s3 * b2) + s2 * (b1 * s3 - s2 * b2)) / det
                }
                return CanvasPoint(x: constant(x0, x1, x2), y: constant(y0, y1, y2))
            }
        }
        // A line: constant term of a + bτ.
        let det = s0 * s2 - s1 * s1
        guard abs(det) > 1e-12 * s0 * s2 else { return CanvasPoint(x: x0 / s0, y: y0 / s0) }
        return CanvasPoint(x: (x0 * s2 - s1 * x1) / det, y: (y0 * s2 - s1 * y1) / det)
    }
}
