import Foundation
import Testing
@_spi(Tooling) @testable import InkCore

/// The shortcuts of the fast stroke pipeline (issue 31) give the geometry the plain
/// computation gives: the knot intervals passed from one stable segment to the next, the
/// outline written into a caller's buffer, and the filter's weights kept between steps.
@Suite("Stroke pipeline shortcuts")
struct StrokePipelineSpeedTests {
    /// A seeded scribble: steady 240 Hz steps (times in milliseconds converted to seconds, as
    /// the harness's are), with sometimes a repeated timestamp, a gap or a still pen.
    static func scribble(seed: UInt64, count: Int) -> [TouchSample] {
        var random = GeometryRandom(seed: seed)
        var point = CanvasPoint(x: 300, y: 300)
        var heading = random.range(0...6.28)
        var samples: [TouchSample] = []
        var tick = 0
        for _ in 0..<count {
            let u = random.unit()
            if u > 0.05 { tick += u > 0.97 ? 3 : 1 }
            heading += random.range(-0.5...0.5)
            let step = random.unit() > 0.9 ? 0 : random.range(0...5)
            point = point + CanvasPoint(x: cos(heading), y: sin(heading)) * step
            samples.append(TouchSample(x: point.x + random.range(-0.5...0.5), y: point.y + random.range(-0.5...0.5),
                                       timestamp: Double(tick) * (1000.0 / 240) / 1000,
                                       force: seed % 3 == 0 ? nil : random.unit()))
        }
        return samples
    }

    /// The outline as it was computed before it could be written into a buffer: a fresh
    /// array per segment, its area summed over the array.
    static func referencePolygon(_ segment: StrokeSegment, maxStep: Double = 2) -> [CanvasPoint] {
        referenceOutline(segment, maxStep: maxStep).polygon
    }

    /// ``referencePolygon(_:maxStep:)``, and whether it was turned round (its area negative).
    static func referenceOutline(_ segment: StrokeSegment, maxStep: Double = 2) -> (polygon: [CanvasPoint], turned: Bool) {
        if segment.isDot {
            let radius = segment.startWidth / 2
            let count = min(max(Int((2 * Double.pi * radius).rounded(.up)), 8), 64)
            return ((0..<count).map { k in
                let a = 2 * Double.pi * Double(k) / Double(count)
                return CanvasPoint(x: segment.curve.p0.x + radius * cosine(a), y: segment.curve.p0.y + radius * sine(a))
            }, false)
        }
        let ratio = (segment.curve.controlPolygonLength / maxStep).rounded(.up)
        let steps = ratio.isNaN || ratio >= 32 ? 32 : max(Int(ratio), 1)   // NaN and beyond: the cap
        let chord = (segment.curve.p3 - segment.curve.p0).normalized ?? CanvasPoint(x: 1, y: 0)
        var polygon = [CanvasPoint](repeating: CanvasPoint(x: 0, y: 0), count: 2 * (steps + 1))
        for k in 0...steps {
            let t = Double(k) / Double(steps)
            let p = segment.curve.point(at: t)
            let direction = segment.curve.derivative(at: t).normalized ?? chord
            let half = (segment.startWidth + (segment.endWidth - segment.startWidth) * t) / 2
            let normal = direction.perpendicular * half
            polygon[k] = p + normal
            polygon[2 * (steps + 1) - 1 - k] = p - normal
        }
        var area = 0.0
        var previous = polygon[polygon.count - 1]
        for p in polygon {
            area += previous.x * p.y - p.x * previous.y
            previous = p
        }
        if area < 0 { polygon.reverse() }
        return (polygon, area < 0)
    }

    @Test("every stable segment is the Catmull-Rom segment of its nodes, bit for bit", arguments: 0..<24)
    func stableSegmentsMatchTheirNodes(seed: UInt64) throws {
        var stroke = StrokeBuilder()
        // A long stroke forgets the nodes nothing can reach any more (settled, stable): each
        // node as last seen is its final value.
        var nodes: [StrokeNode] = []
        func record() {
            for i in stroke.nodes.indices {
                if i < nodes.count { nodes[i] = stroke.nodes[i] } else { nodes.append(stroke.nodes[i]) }
            }
        }
        for sample in Self.scribble(seed: seed, count: 20 + Int(seed) * 40) {
            _ = try stroke.append(sample)
            record()
        }
        _ = stroke.finish()
        record()
        #expect(nodes.count == stroke.nodeCount)
        #expect(stroke.stableSegments.count == max(1, nodes.count - 1))
        guard nodes.count > 1 else { return }
        for (i, segment) in stroke.stableSegments.enumerated() {
            let expected = CatmullRom.segment(i > 0 ? nodes[i - 1].position : nil, nodes[i].position, nodes[i + 1].position,
                                              i + 2 < nodes.count ? nodes[i + 2].position : nil)
            #expect(segment.curve == expected, "segment \(i) of \(nodes.count - 1)")
            #expect(segment.startWidth == nodes[i].width && segment.endWidth == nodes[i + 1].width)
        }
    }

    @Test("the outline written into a reused buffer is the polygon computed alone, bit for bit, and the plain computation's within its bound", arguments: 0..<12)
    func bufferedOutlineMatches(seed: UInt64) throws {
        var stroke = StrokeBuilder()
        for sample in Self.scribble(seed: seed, count: 5 + Int(seed) * 30) { _ = try stroke.append(sample) }
        _ = stroke.finish()
        var buffer: [CanvasPoint] = [CanvasPoint(x: -1, y: -1)]   // what the caller already holds stays
        var segments = stroke.stableSegments
        // A dot, a degenerate piece and a huge one too.
        let p = CanvasPoint(x: 5, y: 5)
        segments.append(StrokeSegment(curve: CubicBezier(p, p, p, p), startWidth: 9, endWidth: 9, startTime: 0, endTime: 0))
        segments.append(StrokeSegment(curve: CubicBezier(p, CanvasPoint(x: 6, y: 5), p, p), startWidth: 3, endWidth: 1,
                                      startTime: 0, endTime: 1))
        segments.append(StrokeSegment(curve: CubicBezier(p, CanvasPoint(x: 1e6, y: 5), CanvasPoint(x: 1e6, y: 1e6), p),
                                      startWidth: 300, endWidth: 1, startTime: 0, endTime: 1))
        for segment in segments {
            let start = buffer.count
            StrokeOutline.appendPolygon(for: segment, to: &buffer)
            let polygon = StrokeOutline.polygon(for: segment)
            #expect(Array(buffer[start...]) == polygon)
            let mismatch = Self.outlineMismatch(polygon, segment, maxStep: 2)
            #expect(mismatch == nil, "\(segment): \(mismatch ?? "")")
        }
        #expect(buffer[0] == CanvasPoint(x: -1, y: -1))
    }

    /// A random segment for the outline's bit-for-bit test: dots, pieces of a fraction of a
    /// point up to hundreds (past the 32-step cap), control points on the ends or folded back
    /// (a derivative of exactly zero at an end or in the middle), widths from zero to wide,
    /// some zero or negative (a polygon that is not turned round).
    static func randomSegment(_ random: inout GeometryRandom) -> StrokeSegment {
        let scale = [0.0, 1e-10, 0.01, 0.5, 2, 7, 30, 70, 300][Int(random.next() % 9)]
        let p0 = CanvasPoint(x: random.range(-500...500), y: random.range(-500...500))
        func near() -> CanvasPoint { p0 + CanvasPoint(x: random.range(-1...1), y: random.range(-1...1)) * scale }
        var p1 = near(), p2 = near(), p3 = near()
        switch random.next() % 6 {
        case 0: p1 = p0                      // zero derivative at the start
        case 1: p2 = p3                      // and at the end
        case 2: p3 = p0; p2 = p1             // folded back: zero derivative at t = 1/2
        case 3: p1 = p0; p2 = p0             // a straight piece whose ends have no tangent
        default: break
        }
        func width() -> Double {
            switch random.next() % 8 {
            case 0: 0
            case 1: -random.range(0...4)
            default: random.range(0...40)
            }
        }
        return StrokeSegment(curve: CubicBezier(p0, p1, p2, p3), startWidth: width(), endWidth: width(),
                             startTime: 0, endTime: 1)
    }

    /// Why `polygon` (the outline of `segment` at `maxStep`) is not the plain computation
    /// (``referenceOutline(_:maxStep:)``) within the bound of forward differences, or `nil`
    /// when it is.
    ///
    /// - Dots and the two ends of a body (t = 0 and t = 1: the first and last point of each
    ///   side) are the plain computation, bit for bit.
    /// - A point between them, after k ≤ n ≤ 32 steps of h = 1/n: the centreline point is a sum
    ///   of k rounded additions of differences whose own errors grow as k, k²/2 and k³/6 times
    ///   their size, which is at most h, h² and h³ times the power coefficients' (|a|, |b|,
    ///   |c| ≤ 8 · the control polygon's length L); so it is off by at most about
    ///   n·ε·(M + 8L) (M the largest coordinate, ε = 2⁻⁵²), the plain computation's own
    ///   rounding included; the derivative by n·ε·8L and the half width by n·ε·(|w0| + |w1|).
    ///   A factor of 8 over those leaves room for the constants left out, and is still
    ///   about 10⁷ times below the 1/100 pt the SVG text rounds to at these scales. The
    ///   normal's direction follows the derivative: off by at most 2·(its error)/|v|, and by
    ///   anything (at most 2) where |v| is at the rounding's scale or the chord stands in.
    /// - The turn: the polygon is turned the way the plain computation turns it unless that
    ///   polygon's area is within what the points' differences and the sum's rounding can move.
    static func outlineMismatch(_ polygon: [CanvasPoint], _ segment: StrokeSegment, maxStep: Double) -> String? {
        let (reference, turned) = referenceOutline(segment, maxStep: maxStep)
        func bits(_ p: CanvasPoint) -> [UInt64] { [p.x.bitPattern, p.y.bitPattern] }
        guard polygon.count == reference.count else { return "\(polygon.count) points, \(reference.count) expected" }
        if segment.isDot {
            return polygon.map(bits) == reference.map(bits) ? nil : "the dot is not the plain computation bit for bit"
        }
        let total = reference.count, n = total / 2 - 1
        let curve = segment.curve
        let epsilon = Double.ulpOfOne
        let m = [curve.p0, curve.p1, curve.p2, curve.p3].map { max(abs($0.x), abs($0.y)) }.max()!
        let length = curve.controlPolygonLength
        let pointError = 8 * Double(n) * epsilon * (m + 8 * length)
        let derivativeError = 8 * Double(n) * epsilon * 8 * length
        let halfError = 8 * Double(n) * epsilon * (abs(segment.startWidth) + abs(segment.endWidth))
        // The bound of each reference point, by its index in the unturned order (k along the left
        // side, 2n + 1 - k back along the right).
        var bound = [Double](repeating: 0, count: total)
        for k in 0...n {
            var distance = 0.0
            if k > 0 && k < n {
                let t = Double(k) / Double(n)
                let v = curve.derivative(at: t)
                let l = (v.x * v.x + v.y * v.y).squareRoot()
                let half = abs(segment.startWidth + (segment.endWidth - segment.startWidth) * t) / 2
                let turn = l > 1e-12 && l.isFinite ? min(2, 4 * derivativeError / l + 8 * epsilon) : 2
                distance = pointError + halfError + (half + halfError) * turn
            }
            bound[k] = distance
            bound[total - 1 - k] = distance
        }
        if turned { bound.reverse() }
        // Twice the area's sum of absolute terms, and how far the points' differences can move it.
        var terms = 0.0, moved = 0.0
        for i in 0..<total {
            let a = reference[(i + total - 1) % total], b = reference[i]
            terms += abs(a.x * b.y) + abs(b.x * a.y)
            moved += bound[i] * (abs(a.x) + abs(a.y) + abs(reference[(i + 1) % total].x) + abs(reference[(i + 1) % total].y))
        }
        let area = StrokeOutline.signedArea(reference) * (turned ? -1 : 1)   // the unturned polygon's
        let close = abs(area) <= 2 * moved + 4 * Double(total) * epsilon * terms
        // Either orientation where the area is that close to zero; else the reference's.
        var failures: [String] = []
        for candidate in close ? [false, true] : [false] {
            let expected = candidate ? Array(reference.reversed()) : reference
            let limits = candidate ? Array(bound.reversed()) : bound
            var failure: String?
            for i in 0..<total {
                let p = polygon[i], q = expected[i]
                if limits[i] == 0 {
                    if bits(p) != bits(q) { failure = "end point \(i): \(p), \(q) expected bit for bit"; break }
                } else if !(p.distance(to: q) <= limits[i]) {
                    failure = "point \(i): \(p), \(q) expected within \(limits[i]) (off by \(p.distance(to: q)))"
                    break
                }
            }
            guard let failure else { return nil }
            failures.append(failure)
        }
        return failures.joined(separator: "; or turned: ")
    }

    @Test("the outline is the plain computation over random segments: its ends and dots bit for bit, the points between within the bound of forward differences", arguments: 0..<8)
    func outlineMatchesWithinBound(seed: UInt64) {
        var random = GeometryRandom(seed: 0x0071_1ee0 + seed)
        var buffer: [CanvasPoint] = []
        var kept = 0, capped = 0, degenerate = 0
        for i in 0..<4_000 {
            let segment = Self.randomSegment(&random)
            let maxStep = [2.0, 2, 2, 0.5, 1, 7][i % 6]
            let (_, turned) = Self.referenceOutline(segment, maxStep: maxStep)
            if i % 3 == 0 { buffer.removeAll(keepingCapacity: true) }
            let start = buffer.count
            StrokeOutline.appendPolygon(for: segment, maxStep: maxStep, to: &buffer)
            let polygon = Array(buffer[start...])
            let mismatch = Self.outlineMismatch(polygon, segment, maxStep: maxStep)
            #expect(mismatch == nil, "segment \(i): \(segment): \(mismatch ?? "")")
            // Counter-clockwise, as documented, to the rounding of the area's sum.
            if !segment.isDot {
                let terms = polygon.indices.reduce(0.0) { sum, j in
                    let a = polygon[(j + polygon.count - 1) % polygon.count], b = polygon[j]
                    return sum + abs(a.x * b.y) + abs(b.x * a.y)
                }
                let area = StrokeOutline.signedArea(polygon)
                #expect(area >= -4 * Double(polygon.count) * Double.ulpOfOne * terms, "segment \(i): area \(area)")
            }
            if segment.curve.controlPolygonLength / maxStep > 32 { capped += 1 }
            if !segment.isDot, !turned { kept += 1 }
            if !segment.isDot, segment.curve.p0 == segment.curve.p1 { degenerate += 1 }
        }
        // The cases the generator is there for did occur.
        #expect(kept > 100 && capped > 100 && degenerate > 100, "\(kept) \(capped) \(degenerate)")
    }

    @Test("the outline of non-finite and huge segments has the plain computation's non-finite points, and no others")
    func outlineOfSpecialValues() {
        let nan = Double.nan, inf = Double.infinity
        func segment(_ points: [(Double, Double)], _ w0: Double = 4, _ w1: Double = 2) -> StrokeSegment {
            let p = points.map { CanvasPoint(x: $0.0, y: $0.1) }
            return StrokeSegment(curve: CubicBezier(p[0], p[1], p[2], p[3]), startWidth: w0, endWidth: w1, startTime: 0, endTime: 1)
        }
        let segments = [
            segment([(0, 0), (nan, 1), (20, 5), (30, 0)]),
            segment([(0, 0), (10, 1), (20, inf), (30, 0)]),
            segment([(0, 0), (10, 1), (20, 5), (30, 0)], nan, 2),
            segment([(0, 0), (10, 1), (20, 5), (30, 0)], 4, inf),
            segment([(1e15, 1e15), (1e15 + 10, 1e15), (1e15 + 20, 1e15 + 5), (1e15 + 30, 1e15)]),
            segment([(0, 0), (1e150, 1), (2e150, -1e150), (3e150, 0)]),
            segment([(0, 0), (1e300, 1), (2e300, -1e300), (3e300, 0)], 1e300, 1e300),
            segment([(-1e300, 0), (0, 1e300), (1e300, 0), (0, -1e300)]),
        ]
        for (i, segment) in segments.enumerated() {
            for maxStep in [2.0, 0.5] {
                let (reference, _) = Self.referenceOutline(segment, maxStep: maxStep)
                let polygon = StrokeOutline.polygon(for: segment, maxStep: maxStep)
                #expect(polygon.count == reference.count, "segment \(i)")
                let finite = polygon.map { $0.x.isFinite && $0.y.isFinite }
                let expected = reference.map { $0.x.isFinite && $0.y.isFinite }
                // The same points finite in either orientation (a NaN area leaves the polygon unturned).
                #expect(finite == expected || finite == expected.reversed(), "segment \(i): \(polygon) against \(reference)")
            }
        }
    }

    @Test("the filter's kept weights give the weights computed afresh, to 1e-9 pt")
    func filterWeightsKept() {
        var kept = PenFilter()
        var fresh = PenFilter()
        for (i, sample) in Self.scribble(seed: 7, count: 2_000).enumerated() {
            let a = kept.filter(sample.point, at: sample.timestamp)
            // A filter whose cache is dropped before every step (setting the parameters drops it).
            let parameters = fresh.parameters
            fresh.parameters = parameters
            let b = fresh.filter(sample.point, at: sample.timestamp)
            #expect(a.distance(to: b) < 1e-9, "sample \(i)")
        }
    }

    @Test("the start-up gains stop only where they can no longer win")
    func startupCutoffIsSafe() {
        // A filter whose cutoff is as low as it gets (a pen at rest) at 240 Hz and 60 Hz: the
        // line's gain at the cut-off sample is below the tracker's.
        for dt in [1.0 / 240, 1.0 / 60, 1.0 / 1000] {
            let parameters = PenFilter.Parameters.handwriting
            let weights = PenFilter.StepWeights(dt: dt, parameters)
            #expect(weights.startupEnds < Int.max)
            let n = Double(weights.startupEnds)
            let lineG = 2 * (2 * n - 1) / (n * (n + 1))
            let a = PenFilter.alpha(cutoff: parameters.minCutoff, dt: dt)
            #expect(lineG < 1 - (1 - a) * (1 - a))
        }
        // Negative gains switch the shortcut off.
        var odd = PenFilter.Parameters.handwriting
        odd.beta = -1
        #expect(PenFilter.StepWeights(dt: 1.0 / 240, odd).startupEnds == Int.max)
    }

    /// The shifted-window fit as it was written before issue 42 (each of its four passes
    /// reading the window again and computing every basis value afresh): the reference the
    /// fit that reads its window once must equal, bit for bit.
    struct FourPassCurve {
        var t0 = 0.0, scale = 0.0
        var a1 = 0.0, a2 = 0.0, a3 = 0.0, b1 = 0.0, b2 = 0.0
        var x = SIMD4<Double>(), y = SIMD4<Double>()

        init?(points: [CanvasPoint], parameters: [Double], noise: Double) {
            let range = 0...(points.count - 1)
            guard range.count > 1 else { return nil }
            let low = parameters[range.lowerBound], high = parameters[range.upperBound]
            let t0 = (low + high) / 2, scale = 2 / (high - low)
            guard scale.isFinite, scale > 0 else { return nil }
            self.t0 = t0
            self.scale = scale
            let maxDegree = min(3, range.count - 1)
            let origin = points[range.lowerBound]
            var norms = SIMD4<Double>()
            var squares = 0.0, st = 0.0, sx = 0.0, sy = 0.0
            for i in range {
                let p = points[i] - origin
                st += (parameters[i] - t0) * scale
                sx += p.x
                sy += p.y
                squares += p.x * p.x + p.y * p.y
            }
            norms[0] = Double(range.count)
            x[0] = sx / norms[0]
            y[0] = sy / norms[0]
            a1 = st / norms[0]
            for k in 1...maxDegree {
                var norm = 0.0
                st = 0; sx = 0; sy = 0
                for i in range {
                    let tau = (parameters[i] - t0) * scale
                    let q1 = tau - a1
                    let q: Double
                    switch k {
                    case 1: q = q1
                    case 2: q = (tau - a2) * q1 - b1
                    default: q = (tau - a3) * ((tau - a2) * q1 - b1) - b2 * q1
                    }
                    let p = points[i] - origin
                    norm += q * q
                    sx += p.x * q
                    sy += p.y * q
                    st += tau * q * q
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
        }

        func position(at value: Double) -> CanvasPoint {
            let tau = (value - t0) * scale
            let q1 = tau - a1
            let q2 = (tau - a2) * q1 - b1
            let q3 = (tau - a3) * q2 - b2 * q1
            let q = SIMD4<Double>(1, q1, q2, q3)
            return CanvasPoint(x: (x * q).sum(), y: (y * q).sum())
        }
    }

    @Test("a shifted window's fit, reading its window once, is the four-pass fit bit for bit", arguments: 0..<8)
    func shiftedFitMatchesFourPasses(seed: UInt64) {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 &+ 1
        func random() -> Double {  // SplitMix64, 0 ..< 1
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
        }
        var fitted = 0
        for trial in 0..<400 {
            let count = 2 + Int(random() * 64)          // 2 ... 65 points, the longest shifted window
            let far = trial % 4 == 0 ? 1e5 : 0          // far from the origin sometimes
            let kind = trial % 5                        // even times, uneven, repeats, a still pen, a line
            var points: [CanvasPoint] = [], parameters: [Double] = []
            var t = 1_000 * random()
            for i in 0..<count {
                switch kind {
                case 0: t = Double(i) / 240 + 12.5
                case 2: if random() < 0.3 { t += 0 } else { t += random() }
                default: t += 0.001 + random()
                }
                parameters.append(t)
                let x = kind == 3 ? far + 1 : far + 40 * random() + Double(i)
                let y = kind == 4 ? 2 * Double(i) : far + 40 * random()
                points.append(CanvasPoint(x: x, y: y))
            }
            for noise in [0.0, 0.5, 3] {
                let reference = FourPassCurve(points: points, parameters: parameters, noise: noise)
                let curve = LocalFit.Curve(fitting: 0...(count - 1), LocalFit.Arrays(points: points, parameters: parameters),
                                           noise: noise)
                #expect((reference == nil) == (curve == nil), "trial \(trial), noise \(noise)")
                guard let reference, let curve else { continue }
                fitted += 1
                for value in parameters + [parameters[0] - 0.25, (parameters[0] + parameters[count - 1]) / 2] {
                    let a = reference.position(at: value), b = curve.position(at: value)
                    #expect(a.x.bitPattern == b.x.bitPattern && a.y.bitPattern == b.y.bitPattern,
                            "trial \(trial), noise \(noise), at \(value): \(a) against \(b)")
                }
            }
        }
        #expect(fitted > 1_000)
    }

    @Test("the end of a node's complete window is where LocalFit.window ends among unboundedly many nodes")
    func completeWindowEnd() {
        for radius in 0...StrokeInputModeler.maxSettleRadius {
            for center in 0..<200 {
                #expect(LocalFit.completeWindowEnd(of: center, radius: radius)
                        == LocalFit.window(of: center, radius: radius, count: .max / 2).upperBound)
            }
        }
    }
}
