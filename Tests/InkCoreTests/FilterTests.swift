import Foundation
import Testing
@testable import InkCore

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
                                     available: 0..<line.samples.count)
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

    @Test("the local fit reproduces a parabola exactly, on uneven steps")
    func parabola() {
        let times = [0.0, 0.003, 0.0071, 0.0118, 0.015, 0.0204, 0.0241, 0.029, 0.0333, 0.0375, 0.041]
        let points = times.map { t in CanvasPoint(x: 5 + 300 * t - 4_000 * t * t, y: -2 + 90 * t + 9_000 * t * t) }
        // Nodes 1 and 9 have a window of 3, which fits a line; the ends are kept as they are.
        for center in [0] + Array(2...8) + [10] {
            let fitted = LocalFit.settledPosition(of: center, radius: 4, points: points, parameters: times,
                                                  available: 0..<points.count)
            #expect(fitted.distance(to: points[center]) < 1e-9, "node \(center)")
        }
    }

    @Test("the window stays symmetric, so the ends are kept exactly and nothing past the range is read")
    func windowShrinks() {
        let times = (0..<9).map { Double($0) / 240 }
        var points = (0..<9).map { CanvasPoint(x: Double($0), y: Double($0 % 2)) }
        #expect(LocalFit.settledPosition(of: 0, radius: 4, points: points, parameters: times, available: 0..<9) == points[0])
        #expect(LocalFit.settledPosition(of: 8, radius: 4, points: points, parameters: times, available: 0..<9) == points[8])
        // Node 1 uses nodes 0...2 only (a line through a zig-zag: its middle is averaged).
        let second = LocalFit.settledPosition(of: 1, radius: 4, points: points, parameters: times, available: 0..<9)
        #expect(abs(second.y - 1.0 / 3) < 1e-9)
        // Points outside `available` do not matter.
        points[7] = CanvasPoint(x: 1e6, y: 1e6)
        let inner = LocalFit.settledPosition(of: 4, radius: 4, points: points, parameters: times, available: 0..<7)
        #expect(inner.x < 10)
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
        var distances = [0.0]
        for i in 1..<line.samples.count { distances.append(distances[i - 1] + line.samples[i].distance(to: line.samples[i - 1])) }
        let expected = LocalFit.settledPosition(of: settledIndex, radius: radius, points: line.samples,
                                                parameters: distances, available: 0..<line.samples.count)
        #expect(stroke.nodes[settledIndex].position.distance(to: expected) < 1e-12)
    }
}
