@_spi(Tooling) import InkCore
@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkRecording

/// How the host decides who owns a touch, for ``StrategyBenchmark``.
public enum DecisionStrategy: String, Sendable, Hashable, CaseIterable {
    /// (a) The naive design: a blocking query at touch-down; input that arrives while it
    /// waits is lost.
    case blocking
    /// (b) An asynchronous query; samples queue until the answer (`InkEngine`, without the
    /// region cache).
    case queued
    /// (c) Queued, and fresh region snapshots answer without a round trip.
    case cached
    /// (d) Cached, and touches that wait for a round trip while the last snapshot shows
    /// nothing near are drawn as tentative ink at once.
    case speculative
}

/// One row of the strategy benchmark: a strategy at one oracle latency.
public struct StrategyResult: Sendable, Hashable {
    /// The strategy.
    public var strategy: DecisionStrategy
    /// The oracle's base latency, seconds (each round trip adds seeded jitter).
    public var latency: Double
    /// Touches and samples replayed.
    public var touches: Int, samples: Int
    /// Samples that never reached their owner.
    public var samplesLost: Int
    /// Touches whose owner received fewer than half of their samples.
    public var strokesLost: Int
    /// First-ink latency percentiles over touches that became ink (seconds).
    public var firstInk: Percentiles?
    /// The same, over touches that began at least ``StrategyBenchmark/awayMargin`` from
    /// every interactive region.
    public var firstInkAway: Percentiles?
    /// Touches that ended with an owner other than the page's own answer.
    public var wrongOwner: Int
    /// Tentative or early ink taken back.
    public var retractions: Int
    /// Round trips to the page.
    public var roundTrips: Int
}

/// Replays short strokes (dots, decimal points, dashes: 1-12 samples within 60 ms) over an
/// exercise page under each ``DecisionStrategy`` at several oracle latencies, in simulated
/// time, and counts what each loses and how late ink appears.
///
/// The page model: the exercise page of `SyntheticSessions/page` re-pushes a snapshot of
/// its regions every 0.5 s, each trusted for 1 s (the page script's heartbeat), except
/// that for 2 s of every 6 s the page is busy and pushes nothing, so the cache goes stale
/// for about 1 s in 6. It answers every question from its regions after the latency plus a
/// seeded jitter of up to a quarter of it.
public struct StrategyBenchmark: Sendable {
    /// The short strokes, as one session log.
    public let log: SessionLog
    /// How many strokes came from recorded fixtures (the rest are generated).
    public let recordedStrokes: Int
    /// Each touch's samples, in the order the touches began.
    public let strokes: [[TouchSample]]
    /// What the page says under each touch-down.
    public let truth: [HitTestVerdict]
    /// Whether each touch began at least ``awayMargin`` from every interactive region.
    public let away: [Bool]
    /// Page units.
    public static let awayMargin = 24.0

    /// Builds the workload: `generated` seeded strokes plus `recorded` short strokes
    /// (re-timed onto the same timeline, positions kept).
    public init(generated: Int = 2_000, recorded: [[TouchSample]] = [], seed: UInt64 = 1) {
        var random = SplitMix64(seed: seed)
        var builder = SessionBuilder(header: SessionHeader(
            canvas: CanvasSize(width: 1024, height: 768), pageTransform: .identity,
            exercise: "synthetic/fractions-and-blocks", device: "ink-replay bench", source: "StrategyBenchmark"))
        var time = 0.5
        var touch: UInt64 = 0
        var shapes: [[TouchSample]] = recorded.filter { !$0.isEmpty && $0.count <= 12 && $0.last!.timestamp - $0[0].timestamp <= 0.060 }
        let recordedCount = shapes.count
        for _ in 0..<generated {
            // A dot, a decimal point, a dash or a minus sign, anywhere on the page.
            let count = 1 + Int(random.unit() * 12)
            let x = 40 + random.unit() * 940, y = 40 + random.unit() * 690
            let length = count < 4 ? random.unit() * 1.5 : 4 + random.unit() * 14
            let rate = 240.0
            shapes.append((0..<count).map { i in
                let u = count == 1 ? 0 : Double(i) / Double(count - 1)
                return TouchSample(x: x + length * u, y: y + random.unit() * 0.4, timestamp: Double(i) / rate,
                                   force: 0.3 + 0.4 * random.unit(), tool: .pencil)
            })
        }
        for shape in shapes {
            touch += 1
            let offset = time - shape[0].timestamp
            let samples = shape.map { sample -> TouchSample in
                var moved = sample
                moved.timestamp = ((sample.timestamp + offset) * 1e6).rounded() / 1e6
                moved.tool = .pencil
                moved.estimationUpdateIndex = nil
                return moved
            }
            builder.stroke(PlatformTouchID(touch), samples, answerAfter: nil)
            time = samples.last!.timestamp + 0.15 + random.unit() * 0.45
        }
        var push = 0.0
        while push <= time {
            if push.truncatingRemainder(dividingBy: 6) < 4 {
                var snapshot = SyntheticSessions.page
                snapshot.maxAge = 1
                builder.regions(snapshot, at: push)
            }
            push += 0.5
        }
        var log = builder.log
        log.sortEventsByTime()
        self.log = log
        self.recordedStrokes = recordedCount
        let strokes = log.samplesByTouch.map(\.samples)
        self.strokes = strokes
        // The page answers for where the touch lands on it: its first point through the
        // session's page transform.
        let view = log.header.pageTransform ?? .identity
        self.truth = strokes.map { SyntheticSessions.page.verdict(at: view.pagePoint(for: $0[0].point)) }
        let index = RegionIndex(regions: SyntheticSessions.page.regions)
        self.away = strokes.map { !index.hasRegion(near: view.pagePoint(for: $0[0].point), margin: Self.awayMargin) }
    }

    /// Runs one strategy at one latency.
    public func run(_ strategy: DecisionStrategy, latency: Double, seed: UInt64 = 1) -> StrategyResult {
        switch strategy {
        case .blocking:
            return blocking(latency: latency, seed: seed)
        case .queued, .cached, .speculative:
            let configuration = ReplayConfiguration(
                engine: InkEngineConfiguration(useRegionCache: strategy != .queued, speculativeInk: strategy == .speculative),
                oracle: .regions(latency: latency), latencyJitter: latency / 4, seed: seed)
            let report = SessionReplayer(configuration: configuration).replay(log)
            var lost = 0, strokesLost = 0, wrong = 0
            var awayLatencies: [Double] = []
            for (index, outcome) in report.touches.enumerated() {
                if away[index], let latency = outcome.firstInkLatency { awayLatencies.append(latency) }
                let total = strokes[index].count
                let delivered = outcome.inked.count + outcome.released.count
                lost += total - delivered
                if delivered * 2 < total { strokesLost += 1 }
                if outcome.verdict != truth[index] { wrong += 1 }
            }
            return StrategyResult(strategy: strategy, latency: latency, touches: report.touches.count, samples: report.samples,
                                  samplesLost: lost, strokesLost: strokesLost, firstInk: Percentiles(report.firstInkLatencies),
                                  firstInkAway: Percentiles(awayLatencies), wrongOwner: wrong, retractions: report.counters.retractions, roundTrips: report.bridge.roundTrips)
        }
    }

    /// The naive design: the touch-down blocks the input thread for the round trip; the
    /// platform drops what arrives meanwhile. The touch-down sample itself, and samples
    /// after the answer, reach the owner the page named.
    private func blocking(latency: Double, seed: UInt64) -> StrategyResult {
        var jitter = SplitMix64(seed: seed ^ 0x5EED)
        var samples = 0, lost = 0, strokesLost = 0, roundTrips = 0
        var firstInk: [Double] = [], awayLatencies: [Double] = []
        var blockedUntil = -Double.infinity
        for (index, stroke) in strokes.enumerated() {
            let down = stroke[0].timestamp
            samples += stroke.count
            // A touch-down while the thread is still blocked is lost whole.
            guard down >= blockedUntil else {
                lost += stroke.count
                strokesLost += 1
                continue
            }
            roundTrips += 1
            let answerAt = down + latency + (latency > 0 ? jitter.unit() * latency / 4 : 0)
            blockedUntil = answerAt
            let kept = 1 + stroke.dropFirst().filter { $0.timestamp >= answerAt }.count
            lost += stroke.count - kept
            if kept * 2 < stroke.count { strokesLost += 1 }
            if truth[index] == .ink {
                firstInk.append(answerAt - down)
                if away[index] { awayLatencies.append(answerAt - down) }
            }
        }
        return StrategyResult(strategy: .blocking, latency: latency, touches: strokes.count, samples: samples,
                              samplesLost: lost, strokesLost: strokesLost, firstInk: Percentiles(firstInk),
                              firstInkAway: Percentiles(awayLatencies), wrongOwner: 0, retractions: 0, roundTrips: roundTrips)
    }
}
