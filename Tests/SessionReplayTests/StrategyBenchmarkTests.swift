import Testing
@_spi(Tooling) import InkCore
@_spi(Tooling) @testable import HitTestBridge
@_spi(Tooling) import InkRecording
@_spi(Tooling) @testable import SessionReplay

@Suite("Strategy benchmark")
struct StrategyBenchmarkTests {
    static let bench = StrategyBenchmark(generated: 300, seed: 3)

    @Test("the workload is short strokes: 1-12 samples within 60 ms")
    func workload() {
        #expect(Self.bench.strokes.count == 300)
        for stroke in Self.bench.strokes {
            #expect((1...12).contains(stroke.count))
            #expect(stroke.last!.timestamp - stroke[0].timestamp <= 0.060)
        }
        #expect(Self.bench.away.contains(true) && Self.bench.truth.contains(.page))
    }

    @Test("blocking loses samples at every latency above 0; the queued strategies lose none",
          arguments: [0.0, 0.008, 0.030, 0.100])
    func losses(latency: Double) {
        let blocking = Self.bench.run(.blocking, latency: latency)
        if latency > 0 { #expect(blocking.samplesLost > 0) } else { #expect(blocking.samplesLost == 0) }
        for strategy in [DecisionStrategy.queued, .cached, .speculative] {
            let result = Self.bench.run(strategy, latency: latency)
            #expect(result.samplesLost == 0 && result.strokesLost == 0, "\(strategy)")
            #expect(result.wrongOwner == 0, "\(strategy)")  // answers beat the 250 ms deadline
        }
    }

    @Test("speculative ink shows strokes away from regions at once; the cache needs fewer round trips")
    func firstInk() {
        let queued = Self.bench.run(.queued, latency: 0.030)
        let cached = Self.bench.run(.cached, latency: 0.030)
        let speculative = Self.bench.run(.speculative, latency: 0.030)
        #expect(queued.firstInk!.p50 >= 0.030)
        #expect(cached.firstInk!.p50 == 0)
        #expect(speculative.firstInkAway!.p95 == 0 && speculative.firstInkAway!.max == 0)
        #expect(cached.roundTrips < queued.roundTrips / 2)
    }

    @Test("the same seed gives the same results")
    func deterministic() {
        let a = StrategyBenchmark(generated: 50, seed: 9).run(.speculative, latency: 0.016, seed: 2)
        let b = StrategyBenchmark(generated: 50, seed: 9).run(.speculative, latency: 0.016, seed: 2)
        #expect(a == b)
    }
}
