import Foundation
import Testing
@_spi(Tooling) @testable import InkCore

@Suite("Pen filter and local fit")
struct FilterTests {
    /// A pen on a line at constant velocity with uniform jitter of ±`jitter` points.
    static func noisyLine(count: Int, jitter: Double, seed: UInt64, rate: Double = 240)
        -> (samples: [CanvasPoint], truth: [CanvasPoint], times: [Double]) {
        var random = GeometryRandom(seed: seed)
        var samples: [CanvasPoint] = [], truth: [CanvasPoint] = [], times: [Double] = []
        for i in 0..<count {
            let t = Double(i) / rate
            let p = CanvasPoint(x: 20 + 150 * t, y: 40 + 60 * t)
            truth.append(p)
            times.append(t)
            samples.append(CanvasPoint(x: p.x + random.range(-jitter...jitter), y: p.y + random.range(-jitter...jitter)))
        }
        return (samples, truth, times)
    }

    static func rms(_ a: [CanvasPoint], _ b: [CanvasPoint]) -> Double {
        (zip(a, b).map { ($0 - $1).length * ($0 - $1).length }.reduce(0, +) / Double(a.count)).squareRoot()
    }

    @Test("a pen moving at constant velocity is followed without lag")
    func noLagOnSteadyMotion() {
        let line = Self.noisyLine(count: 60, jitter: 0, seed: 1)
        var filter = PenFilter()
        for (i, p) in line.samples.enumerated() {
            let out = filter.filter(p, at: line.times[i])
            // The start-up gains fit a line exactly, and a tracker with a velocity keeps it.
            #expect(out.distance(to: p) < 1e-9, "sample \(i)")
        }
        #expect(abs(filter.velocity.x - 150) < 1e-6 && abs(filter.velocity.y - 60) < 1e-6)
    }

    @Test("jitter is reduced, with the live filter and more with the settled fit")
    func jitterReduced() {
        let line = Self.noisyLine(count: 400, jitter: 0.8, seed: 9)
        var filter = PenFilter()
        let live = line.samples.indices.map { filter.filter(line.samples[$0], at: line.times[$0]) }
        let settled = line.samples.indices.map {
            LocalFit.settledPosition(of: $0, radius: 4, points: line.samples, parameters: line.times,
                                     count: line.samples.count, noise: 0.5)
        }
        let raw = Self.rms(line.samples, line.truth)
        #expect(Self.rms(live, line.truth) < 0.85 * raw)
        #expect(Self.rms(settled, line.truth) < 0.65 * raw)
    }

    @Test("a time that does not advance changes nothing")
    func repeatedTime() {
        var filter = PenFilter()
        _ = filter.filter(CanvasPoint(x: 0, y: 0), at: 1)
        let a = filter.filter(CanvasPoint(x: 1, y: 0), at: 1.01)
        let before = filter
        #expect(filter.filter(CanvasPoint(x: 50, y: 50), at: 1.01) == a)
        #expect(filter.filter(CanvasPoint(x: 50, y: 50), at: 1.0) == a)
        #expect(filter == before)
    }

    @Test("a gap too long to measure (an infinite step) follows the new sample, never NaN")
    func infiniteStep() {
        var filter = PenFilter()
        _ = filter.filter(CanvasPoint(x: 0, y: 0), at: -1e308)
        let p = filter.filter(CanvasPoint(x: 10, y: 5), at: 1e308)
        #expect(p == CanvasPoint(x: 10, y: 5))
        #expect(filter.smoothedSpeed.isFinite || filter.smoothedSpeed == 0)
    }

    @Test("the predictor extrapolates the damped velocity")
    func predictor() {
        var filter = PenFilter()
        #expect(filter.predicted(after: 0.01) == nil)
        let line = Self.noisyLine(count: 20, jitter: 0, seed: 1)
        for (i, p) in line.samples.enumerated() { _ = filter.filter(p, at: line.times[i]) }
        let guess = filter.predicted(after: 0.01)!
        let damping = PenFilter.Parameters.handwriting.predictionDamping
        let expected = line.samples.last! + CanvasPoint(x: 150, y: 60) * (0.01 * damping)
        #expect(guess.distance(to: expected) < 1e-6)
    }

    @Test("the local fit reproduces a parabola exactly, on uneven steps, ends included")
    func parabola() {
        let times = [0.0, 0.003, 0.0071, 0.0118, 0.015, 0.0204, 0.0241, 0.029, 0.0333, 0.0375, 0.041]
        let points = times.map { t in CanvasPoint(x: 5 + 300 * t - 4_000 * t * t, y: -2 + 90 * t + 9_000 * t * t) }
        // Centred windows fit a parabola; shifted ones at the ends choose their degree, and a
        // parabola has no residual, so the cheapest exact degree (2) wins.
        for center in points.indices {
            let fitted = LocalFit.settledPosition(of: center, radius: 4, points: points, parameters: times,
                                                  count: points.count, noise: 0.5)
            #expect(fitted.distance(to: points[center]) < 1e-9, "node \(center)")
        }
    }

    @Test("windows are centred inside a stroke, shifted at its ends, the whole of a short stroke")
    func windows() {
        #expect(LocalFit.window(of: 5, radius: 4, count: 20) == 1...9)
        #expect(LocalFit.window(of: 0, radius: 4, count: 20) == 0...8)
        #expect(LocalFit.window(of: 2, radius: 4, count: 20) == 0...8)
        #expect(LocalFit.window(of: 19, radius: 4, count: 20) == 11...19)
        #expect(LocalFit.window(of: 1, radius: 4, count: 5) == 0...4)
        #expect(LocalFit.window(of: 0, radius: 4, count: 1) == 0...0)
        #expect(LocalFit.window(of: 3, radius: 0, count: 9) == 3...3)
        // Nothing past `count` is read: a wild point there changes nothing.
        let times = (0..<12).map { Double($0) / 240 }
        var points = (0..<12).map { CanvasPoint(x: Double($0), y: Double($0 % 2)) }
        let before = LocalFit.settledPosition(of: 6, radius: 4, points: points, parameters: times, count: 10, noise: 0.5)
        points[10] = CanvasPoint(x: 1e6, y: 1e6)
        #expect(LocalFit.settledPosition(of: 6, radius: 4, points: points, parameters: times, count: 10, noise: 0.5) == before)
    }

    @Test("the ends are fitted, not kept: a noisy dot's first sample moves toward the line through it")
    func endsFitted() {
        // A slow drift (a decimal point) with alternating jitter: the fitted ends lie nearer
        // the true drift than the raw samples do, and the line (degree 1) is chosen.
        let times = (0..<6).map { Double($0) / 240 }
        let truth = times.map { CanvasPoint(x: 100 + 40 * $0, y: 50) }
        let points = truth.enumerated().map { i, p in CanvasPoint(x: p.x, y: p.y + (i % 2 == 0 ? 0.6 : -0.6)) }
        for i in [0, 5] {
            let fitted = LocalFit.settledPosition(of: i, radius: 4, points: points, parameters: times, count: 6, noise: 0.5)
            #expect(fitted.distance(to: truth[i]) < 0.5 * points[i].distance(to: truth[i]), "node \(i)")
        }
        // With no noise expected, the same points are worth a cubic: the ends follow the samples more.
        let exact = LocalFit.settledPosition(of: 0, radius: 4, points: points, parameters: times, count: 6, noise: 0)
        let smoothed = LocalFit.settledPosition(of: 0, radius: 4, points: points, parameters: times, count: 6, noise: 0.5)
        #expect(exact.distance(to: points[0]) < smoothed.distance(to: points[0]))
    }

    @Test("a three-node window fits a line: radius 1 smooths (a parabola through three points would not)")
    func radiusOne() throws {
        let times = [0.0, 1.0 / 240, 2.0 / 240], uneven = [0.0, 0.003, 0.0085]
        let points = [CanvasPoint(x: 0, y: 0), CanvasPoint(x: 1, y: 0.9), CanvasPoint(x: 2, y: 0)]
        for parameters in [times, uneven] {
            let fitted = LocalFit.settledPosition(of: 1, radius: 1, points: points, parameters: parameters, count: 3, noise: 0.5)
            #expect(fitted.y < 0.5 && fitted.y > 0.1, "\(parameters): \(fitted)")
        }
        // In a stroke too: a zig-zag drawn with radius 1 is flattened where radius 0 keeps it.
        let zigzag = (0..<40).map { i in
            TouchSample(x: Double(i), y: i % 2 == 0 ? 0 : 1, timestamp: 1 + Double(i) / 240, tool: .pencil)
        }
        func amplitude(_ radius: Int) throws -> Double {
            var style = StrokeStyle()
            style.settleRadius = radius
            style.filter = PenFilter.Parameters(minCutoff: 1e6, beta: 0, innovationGain: 0, speedCutoff: 1e6,
                                               innovationCutoff: 1e6, predictionDamping: 0)
            let stroke = try StrokeGeometryTests.build(zigzag, style: style)
            let ys = stroke.nodes[10..<30].map(\.position.y)
            return ys.max()! - ys.min()!
        }
        let smoothed = try amplitude(1), kept = try amplitude(0)
        #expect(smoothed < 0.5 * kept, "radius 1: \(smoothed), radius 0: \(kept)")
    }

    @Test("a fit far from the origin is the fit near it, moved")
    func farFromOrigin() {
        let times = (0..<6).map { Double($0) / 240 }
        let near = times.enumerated().map { i, t in CanvasPoint(x: 100 + 40 * t, y: 50 + (i % 2 == 0 ? 0.6 : -0.6)) }
        let offset = CanvasPoint(x: 3e7, y: -2e7)
        for i in near.indices {
            let a = LocalFit.settledPosition(of: i, radius: 4, points: near, parameters: times, count: 6, noise: 0.5)
            let b = LocalFit.settledPosition(of: i, radius: 4, points: near.map { $0 + offset }, parameters: times, count: 6, noise: 0.5)
            #expect((b - offset).distance(to: a) < 1e-6, "node \(i)")
        }
    }

    @Test("the even-step kernel and the general fit agree")
    func evenKernel() {
        for radius in [1, 2, 4, 7] {
            let kernel = LocalFit.evenKernels[radius]
            #expect(kernel.count == 2 * radius + 1)
            #expect(abs(kernel.reduce(0, +) - 1) < 1e-12, "a constant is kept")
            let times = (0...(2 * radius)).map { Double($0) / 240 }
            let points = times.map { t in CanvasPoint(x: sin(40 * t) * 10, y: cos(25 * t) * 7) }
            let general = LocalFit.settledPosition(of: radius, radius: radius, points: points, parameters: times,
                                                   count: points.count, noise: 0.5)
            let weighted = zip(kernel, points).reduce(CanvasPoint(x: 0, y: 0)) { $0 + $1.1 * $1.0 }
            #expect(general.distance(to: weighted) < 1e-9, "radius \(radius)")
        }
    }

    @Test("a live stroke draws the filter's output at the tip and settles nodes behind it")
    func liveTipThenSettled() throws {
        let line = Self.noisyLine(count: 30, jitter: 0.8, seed: 3)
        var filter = PenFilter()
        var stroke = StrokeBuilder(style: StrokeStyle(predictionHorizon: 0))
        for (i, p) in line.samples.enumerated() {
            let live = filter.filter(p, at: line.times[i])
            _ = try stroke.append(TouchSample(x: p.x, y: p.y, timestamp: line.times[i]))
            #expect(stroke.nodes.last?.position == live)
        }
        let radius = StrokeStyle().settleRadius
        let settledIndex = line.samples.count - 2 - radius
        let expected = LocalFit.settledPosition(of: settledIndex, radius: radius, points: line.samples,
                                                parameters: line.times, count: line.samples.count, noise: 0.5)
        #expect(stroke.nodes[settledIndex].position.distance(to: expected) < 1e-9)
        // The node after it has not settled yet: it is still the filter's.
        #expect(stroke.nodes[settledIndex + 1].position != LocalFit.settledPosition(
            of: settledIndex + 1, radius: radius, points: line.samples, parameters: line.times, count: line.samples.count, noise: 0.5))
    }
}
