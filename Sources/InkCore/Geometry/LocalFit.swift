/// The fixed-lag smoother of ``StrokeBuilder``: a node's settled position is the value at
/// its own place of a least-squares polynomial through its neighbours (a Savitzky-Golay
/// filter on uneven steps).
///
/// The window holds `2 × radius + 1` nodes. Inside a stroke it is centred on the node and
/// fits a parabola, so curves keep their shape and the result has no lag (a three-node
/// window, radius 1, fits a line instead: a parabola would pass through all three points and
/// smooth nothing). Near the ends of
/// a stroke it is shifted to stay that long (the first and last nodes are fitted too, not
/// kept as the noisy raw samples they are); a stroke shorter than the window is fitted as a
/// whole. A shifted window fits a line, a parabola or a cubic, whichever explains the
/// points best once each coefficient is charged for the noise it could absorb (a Mallows
/// Cp-style penalty of twice ``StrokeStyle/sampleNoise`` squared per coefficient and
/// axis). So a decimal point that barely moves is fitted by a line through all its samples,
/// and a quick dash by a cubic.
///
/// The polynomial's parameter is given by the caller, and rescaled to -1...1 over the window
/// so the fits stay well conditioned. ``StrokeBuilder`` uses the timestamps where they are
/// evenly spaced (as a digitizer's are; the fit then follows the pen's own motion, and is
/// a fixed kernel), and the distance along the raw samples where they are not, so devices
/// that deliver samples in bunches or with jittery timestamps do not bend the shape. The
/// parameter must not decrease within a window; it may repeat (a window with no spread is
/// left as it is).
///
/// The price of the centred window is that a node settles only once `radius` later nodes
/// are known; the live tip of the stroke, drawn by the causal `PenFilter`, hides that.
package enum LocalFit {
    /// Where a fit reads its points and their parameters (index → value).
    protocol Source {
        func point(_ i: Int) -> CanvasPoint
        func parameter(_ i: Int) -> Double
    }

    /// Two parallel arrays.
    struct Arrays: Source {
        let points: [CanvasPoint]
        let parameters: [Double]
        func point(_ i: Int) -> CanvasPoint { points[i] }
        func parameter(_ i: Int) -> Double { parameters[i] }
    }

    /// The window of node `center` among `count` nodes: `2 × radius + 1` nodes, centred where
    /// the stroke allows, shifted at its ends, the whole stroke when it is shorter.
    ///
    /// - Parameters:
    ///   - center: The node.
    ///   - radius: Neighbours on each side of a centred window.
    ///   - count: How many nodes the stroke has.
    @inline(__always)
    package static func window(of center: Int, radius: Int, count: Int) -> ClosedRange<Int> {
        let length = 2 * max(0, radius) + 1
        let lower = max(0, min(center - radius, count - length))
        return lower...min(count - 1, lower + length - 1)
    }

    /// The last node of node `center`'s window while the stroke goes on: the upper bound of
    /// ``window(of:radius:count:)`` among unboundedly many nodes (`radius ≥ 0`), without the
    /// clamps to the stroke's end. A node settles once this node is known.
    @inline(__always)
    package static func completeWindowEnd(of center: Int, radius: Int) -> Int {
        max(0, center - radius) + 2 * radius
    }

    /// The settled position of `points[center]` from the window of `center` among the first
    /// `count` points (see ``window(of:radius:count:)``).
    ///
    /// - Parameters:
    ///   - center: The point to settle.
    ///   - radius: Neighbours on each side of a centred window.
    ///   - points: The raw positions.
    ///   - parameters: Each point's place along the stroke (its time, or the distance along
    ///     the points), not decreasing within the window.
    ///   - count: How many of the points exist (the window never reads past them).
    ///   - noise: The expected noise of a point (standard deviation, canvas points), which
    ///     decides the degree of a shifted window's fit.
    package static func settledPosition(
        of center: Int, radius: Int, points: [CanvasPoint], parameters: [Double], count: Int, noise: Double
    ) -> CanvasPoint {
        let range = window(of: center, radius: radius, count: count)
        let source = Arrays(points: points, parameters: parameters)
        if center - range.lowerBound == radius, range.count == 2 * radius + 1 {
            return centredParabola(range, center: center, source) ?? points[center]
        }
        return Curve(fitting: range, source, noise: noise)?.position(at: parameters[center]) ?? points[center]
    }

    /// The weights of the centred fit's constant term on evenly spaced times (a
    /// Savitzky-Golay kernel), for radius 0 ... ``StrokeBuilder/maxSettleRadius``: weight
    /// `k + radius` goes to the node `k` steps from the centre. Radius 1 fits a line (the
    /// mean of the three).
    static let evenKernels: [[Double]] = (0...StrokeBuilder.maxSettleRadius).map { r in
        guard r > 0 else { return [1] }
        guard r > 1 else { return [1.0 / 3, 1.0 / 3, 1.0 / 3] }
        let n = Double(r)
        let denominator = (2 * n - 1) * (2 * n + 1) * (2 * n + 3)
        return (-r...r).map { k in (3 * (3 * n * n + 3 * n - 1) - 15 * Double(k * k)) / denominator }
    }

    /// The constant term of the least-squares parabola through a centred window (a line for
    /// a window of three), by Cramer's rule; `nil` when the system is singular.
    static func centredParabola<S: Source>(_ range: ClosedRange<Int>, center: Int, _ source: S) -> CanvasPoint? {
        let t0 = source.parameter(center)
        let scale = 1 / max(source.parameter(range.upperBound) - t0, t0 - source.parameter(range.lowerBound))
        guard scale.isFinite, scale > 0 else { return nil }
        var s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0, s4 = 0.0
        var x0 = 0.0, x1 = 0.0, x2 = 0.0, y0 = 0.0, y1 = 0.0, y2 = 0.0
        for i in range {
            let tau = (source.parameter(i) - t0) * scale, tau2 = tau * tau
            let p = source.point(i)
            s0 += 1; s1 += tau; s2 += tau2; s3 += tau2 * tau; s4 += tau2 * tau2
            x0 += p.x; x1 += p.x * tau; x2 += p.x * tau2
            y0 += p.y; y1 += p.y * tau; y2 += p.y * tau2
        }
        if range.count <= 3 {
            // The line's value at τ = 0.
            let det = s0 * s2 - s1 * s1
            guard abs(det) > 1e-12 * s0 * s2 else { return nil }
            return CanvasPoint(x: (x0 * s2 - s1 * x1) / det, y: (y0 * s2 - s1 * y1) / det)
        }
        let m0 = s2 * s4 - s3 * s3, m1 = s1 * s4 - s3 * s2, m2 = s1 * s3 - s2 * s2
        let det = s0 * m0 - s1 * m1 + s2 * m2
        guard abs(det) > 1e-12 * s0 * s2 * s4 else { return nil }
        func constant(_ b0: Double, _ b1: Double, _ b2: Double) -> Double {
            (b0 * m0 - s1 * (b1 * s4 - s3 * b2) + s2 * (b1 * s3 - s2 * b2)) / det
        }
        return CanvasPoint(x: constant(x0, x1, x2), y: constant(y0, y1, y2))
    }

    /// The curve fitted to a shifted window or a whole short stroke: a polynomial of degree
    /// 1 ... 3 in time, the degree chosen as the type's notes say. One fit serves every node
    /// of its window.
    ///
    /// The fit uses polynomials orthogonal over the window's times (Forsythe's three-term
    /// recurrence): each degree adds one coefficient per axis, and the residual of every
    /// degree follows from the same sums, with no system to solve.
    struct Curve {
        private let t0: Double
        private let scale: Double
        /// Recurrence: q0 = 1, q1 = τ − a1, q(k+1) = (τ − a(k+1)) qk − bk q(k−1).
        private var a1 = 0.0, a2 = 0.0, a3 = 0.0, b1 = 0.0, b2 = 0.0
        /// Coefficients on q0 ... q3 (zero past the chosen degree).
        private var x = SIMD4<Double>(), y = SIMD4<Double>()

        /// `nil` when the window has fewer than two distinct parameters.
        init?<S: Source>(fitting range: ClosedRange<Int>, _ source: S, noise: Double) {
            guard range.count > 1 else { return nil }
            let low = source.parameter(range.lowerBound), high = source.parameter(range.upperBound)
            let t0 = (low + high) / 2, scale = 2 / (high - low)
            guard scale.isFinite, scale > 0 else { return nil }
            self.t0 = t0
            self.scale = scale
            let maxDegree = min(3, range.count - 1)
            // One pass per basis polynomial: its squared norm, the coefficients of x and y on
            // it, and the sum that gives the next recurrence term.
            // Points are taken relative to the window's first, so the sum of squares does not
            // lose the residual to cancellation far from the origin.
            let origin = source.point(range.lowerBound)
            let count = range.count
            var norms = SIMD4<Double>()
            var squares = 0.0
            var a1 = 0.0, a2 = 0.0, a3 = 0.0, b1 = 0.0, b2 = 0.0
            var x = SIMD4<Double>(), y = SIMD4<Double>()
            // The window is read once: each point's τ and offset from the origin, then each
            // degree's basis value, are kept for the next passes (the same expressions in the
            // same order as computing them again, so the same bits).
            withUnsafeTemporaryAllocation(of: Double.self, capacity: 5 * count) { buffer in
                let taus = buffer.baseAddress!, xs = taus + count, ys = xs + count, q1s = ys + count, q2s = q1s + count
                var st = 0.0, sx = 0.0, sy = 0.0
                var j = 0
                for i in range {
                    let p = source.point(i) - origin
                    let tau = (source.parameter(i) - t0) * scale
                    taus[j] = tau; xs[j] = p.x; ys[j] = p.y
                    st += tau
                    sx += p.x
                    sy += p.y
                    squares += p.x * p.x + p.y * p.y
                    j += 1
                }
                norms[0] = Double(count)
                x[0] = sx / norms[0]
                y[0] = sy / norms[0]
                a1 = st / norms[0]
                for k in 1...maxDegree {
                    var norm = 0.0
                    st = 0; sx = 0; sy = 0
                    @inline(__always) func add(_ j: Int, _ q: Double) {
                        norm += q * q
                        sx += xs[j] * q
                        sy += ys[j] * q
                        st += taus[j] * q * q
                    }
                    switch k {
                    case 1: for j in 0..<count { let q = taus[j] - a1; q1s[j] = q; add(j, q) }
                    case 2: for j in 0..<count { let q = (taus[j] - a2) * q1s[j] - b1; q2s[j] = q; add(j, q) }
                    default: for j in 0..<count { add(j, (taus[j] - a3) * q2s[j] - b2 * q1s[j]) }
                    }
                    guard norm > 1e-12 * norms[0], norm.isFinite else { break }
                    norms[k] = norm
                    x[k] = sx / norm
                    y[k] = sy / norm
                    switch k {
                    case 1: a2 = st / norm; b1 = norm / norms[0]
                    case 2: a3 = st / norm; b2 = norm / norms[1]
                    default: break
                    }
                }
            }
            self.a1 = a1; self.a2 = a2; self.a3 = a3; self.b1 = b1; self.b2 = b2
            // The residual of degree d is the sum of squares less what q0 ... qd explain.
            let penalty = 2 * noise * noise
            var best = (score: Double.infinity, degree: -1)
            let explained = (x * x + y * y) * norms
            var total = explained[0]
            for degree in 1...maxDegree where norms[degree] > 0 {
                total += explained[degree]
                let score = max(0, squares - total) + penalty * Double(2 * (degree + 1))
                if score < best.score { best = (score, degree) }
            }
            guard best.degree >= 1, (x * x).sum().isFinite, (y * y).sum().isFinite else { return nil }
            for k in (best.degree + 1)..<4 {
                x[k] = 0
                y[k] = 0
            }
            x[0] += origin.x
            y[0] += origin.y
            self.x = x
            self.y = y
        }

        /// The curve's position at parameter `value`.
        func position(at value: Double) -> CanvasPoint {
            let tau = (value - t0) * scale
            let q1 = tau - a1
            let q2 = (tau - a2) * q1 - b1
            let q3 = (tau - a3) * q2 - b2 * q1
            let q = SIMD4<Double>(1, q1, q2, q3)
            return CanvasPoint(x: (x * q).sum(), y: (y * q).sum())
        }
    }
}
