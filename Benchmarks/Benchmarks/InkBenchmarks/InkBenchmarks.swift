import Benchmark
import Foundation
@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkCore
@_spi(Tooling) import InkRecording
@_spi(Tooling) import SessionReplay

/// Engine plus geometry per sample by stroke length, the recorder's cost per sample, region
/// lookups, session log parsing and a 1-million-sample replay. BENCHMARKS.md explains each and quotes a run.
let benchmarks: @Sendable () -> Void = {
    let metrics: [BenchmarkMetric] = [.wallClock, .mallocCountTotal]
    Benchmark.defaultConfiguration = .init(metrics: metrics, warmupIterations: 3, maxDuration: .seconds(2))

    // Engine + geometry: one decided pencil stroke per iteration, every sample through
    // InkEngine (the app's engine: the platform's touch id mapped, every event enriched) and
    // StrokeBuilder (what a front end does per sample). Divide by the length for the cost
    // per sample; the malloc count includes the one array per event the front end builds.
    for length in [100, 1_000, 10_000] {
        let stroke = Workload.scribble(length: length)
        let inputs = [EngineInput.touch(TouchEvent(touch: PlatformTouchID(1), phase: .began, samples: [stroke[0]]))]
            + stroke.dropFirst().map { EngineInput.touch(TouchEvent(touch: PlatformTouchID(1), phase: .moved, samples: [$0])) }
        // With `audits`, the live audit (DeliveryAudit) is folded over every event, as an app
        // that audits live does: the difference between the two rows is the audit's cost.
        for audits in [false, true] {
            Benchmark("engine+geometry\(audits ? "+audit" : ""), one \(length)-sample stroke") { benchmark in
                var engine = InkEngine(configuration: InkEngineConfiguration(pencilOnly: true), seed: 1)
                var builder = StrokeBuilder()
                var audit = DeliveryAudit()
                var events: [EngineEvent] = []
                events.reserveCapacity(8)
                benchmark.startMeasurement()
                for (input, sample) in zip(inputs, stroke) {
                    events.removeAll(keepingCapacity: true)
                    engine.take(input, now: sample.timestamp, into: &events)
                    for event in events {
                        if audits { audit.observe(event) }
                        if case let .ink(_, inked)? = event.action { _ = try? builder.append(inked) }
                    }
                }
                _ = builder.finish()
                benchmark.stopMeasurement()
                precondition(audit.problemCount == 0)
                blackHole(builder.stableSegments.count)
            }
        }
    }

    // The recorder's cost per sample: one 1,000-sample pencil stroke through InkEngine, with
    // and without a SessionRecorder beside it (every input encoded as a session-log line,
    // decisions and the ink digest folded in, pieces handed to a sink that takes them). The
    // difference between the two rows, divided by 1,000, is what recording adds per sample.
    do {
        let stroke = Workload.scribble(length: 1_000)
        let inputs = [EngineInput.touch(TouchEvent(touch: PlatformTouchID(1), phase: .began, samples: [stroke[0]]))]
            + stroke.dropFirst().map { EngineInput.touch(TouchEvent(touch: PlatformTouchID(1), phase: .moved, samples: [$0])) }
        for records in [false, true] {
            Benchmark("engine\(records ? "+recorder" : ""), one 1000-sample stroke") { benchmark in
                var engine = InkEngine(configuration: InkEngineConfiguration(pencilOnly: true), seed: 1)
                var recorder = SessionRecorder(canvasWidth: 1024, canvasHeight: 768) { bytes in
                    blackHole(bytes.count)
                    return true
                }
                recorder.begin(engine)
                var events: [EngineEvent] = []
                events.reserveCapacity(8)
                benchmark.startMeasurement()
                for (input, sample) in zip(inputs, stroke) {
                    events.removeAll(keepingCapacity: true)
                    engine.take(input, now: sample.timestamp, into: &events)
                    if records { recorder.record(input, at: sample.timestamp, events: events) }
                }
                recorder.flush()
                benchmark.stopMeasurement()
                precondition(recorder.isComplete)
                blackHole(recorder.linesWritten)
            }
        }
    }

    // The same, geometry only, measured per sample in the middle of a long stroke.
    Benchmark("geometry append, steady state (per sample)", configuration: .init(scalingFactor: .kilo)) { benchmark in
        let stroke = Workload.scribble(length: 3_000)
        var builder = StrokeBuilder()
        for sample in stroke.prefix(2_000) { _ = try? builder.append(sample) }
        benchmark.startMeasurement()
        for sample in stroke.suffix(1_000) { blackHole(try? builder.append(sample)) }
        benchmark.stopMeasurement()
    }

    // The same plus the outline polygon of each segment as it becomes stable (what a
    // renderer adds for the ink that no longer changes), written into one reused buffer:
    // no allocation per sample.
    Benchmark("geometry append + outline, steady state (per sample)", configuration: .init(scalingFactor: .kilo)) { benchmark in
        let stroke = Workload.scribble(length: 3_000)
        var builder = StrokeBuilder()
        for sample in stroke.prefix(2_000) { _ = try? builder.append(sample) }
        var polygon: [CanvasPoint] = []
        polygon.reserveCapacity(128)
        benchmark.startMeasurement()
        for sample in stroke.suffix(1_000) {
            if let update = try? builder.append(sample) {
                for i in update.newlyStable {
                    polygon.removeAll(keepingCapacity: true)
                    StrokeOutline.appendPolygon(for: builder.stableSegments[i], to: &polygon)
                    blackHole(polygon.count)
                }
            }
        }
        benchmark.stopMeasurement()
    }

    // Reading the volatile tail, once per frame, in the middle of a long stroke.
    Benchmark("volatile tail read (per frame)", configuration: .init(scalingFactor: .kilo)) { benchmark in
        let stroke = Workload.scribble(length: 3_000)
        var builder = StrokeBuilder()
        for sample in stroke.prefix(2_000) { _ = try? builder.append(sample) }
        var tail: [StrokeSegment] = []
        tail.reserveCapacity(64)
        benchmark.startMeasurement()
        for _ in 0..<1_000 {
            tail.removeAll(keepingCapacity: true)
            builder.appendVolatileSegments(to: &tail)
            blackHole(tail.count)
        }
        benchmark.stopMeasurement()
    }

    // Short strokes (a decimal point to a dash): 10 samples each, per sample, whole strokes.
    Benchmark("geometry, 10-sample strokes (per sample)", configuration: .init(scalingFactor: .kilo)) { benchmark in
        var random = Workload.Random(seed: 3)
        let strokes = (0..<100).map { _ in Workload.scribble(length: 10, seed: UInt64(random.unit() * 1e6)) }
        benchmark.startMeasurement()
        for stroke in strokes {
            var builder = StrokeBuilder()
            for sample in stroke { blackHole(try? builder.append(sample)) }
            blackHole(builder.finish())
        }
        benchmark.stopMeasurement()
    }

    // Region cache lookups among 5,000 regions.
    Benchmark("region lookup among 5,000 regions", configuration: .init(scalingFactor: .kilo)) { benchmark in
        let index = RegionIndex(regions: Workload.regions(count: 5_000))
        let points = Workload.points(count: 1_000)
        benchmark.startMeasurement()
        for point in points { blackHole(index.contains(point)) }
        benchmark.stopMeasurement()
    }

    // Session log parse throughput: a generated log, parsed from memory.
    Benchmark("session log parse, \(Workload.sessionText.utf8.count) bytes", configuration: .init(metrics: metrics + [.throughput])) { benchmark in
        let text = Workload.sessionText
        benchmark.startMeasurement()
        let result = SessionLog.parse(text)
        benchmark.stopMeasurement()
        blackHole(result.log?.events.count)
    }

    // Replay of a generated session of 1,000,000 samples (about an hour of writing).
    Benchmark("replay 1,000,000 samples", configuration: .init(maxDuration: .seconds(20), maxIterations: 3)) { benchmark in
        let log = Workload.hourLog
        benchmark.startMeasurement()
        let report = SessionReplayer(configuration: ReplayConfiguration(engine: InkEngineConfiguration(useRegionCache: true), oracle: .regions(latency: 0.03))).replay(log)
        benchmark.stopMeasurement()
        precondition(report.isVerified && report.samples >= 1_000_000)
    }
}

enum Workload {
    /// A small seeded generator (xorshift64), so every run measures the same inputs.
    struct Random {
        var state: UInt64
        init(seed: UInt64) { state = seed &* 0x2545_F491_4F6C_DD1D | 1 }
        mutating func next() -> UInt64 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return state
        }
        mutating func unit() -> Double { Double(next() >> 11) / Double(UInt64(1) << 53) }
    }

    /// A 240 Hz pencil scribble with jitter and force.
    static func scribble(length: Int, seed: UInt64 = 1) -> [TouchSample] {
        var random = Workload.Random(seed: seed)
        return (0..<length).map { i in
            let t = Double(i) / 240
            return TouchSample(x: 100 + 40 * t + 20 * cos(9 * t) + random.unit() - 0.5, y: 100 + 25 * sin(13 * t) + random.unit() - 0.5,
                               timestamp: t, force: 0.3 + 0.4 * random.unit(), tool: .pencil)
        }
    }

    static func regions(count: Int) -> [PageRegion] {
        var random = Workload.Random(seed: 5)
        return (0..<count).map { _ in
            PageRegion(x: random.unit() * 4_000, y: random.unit() * 20_000, width: 10 + random.unit() * 80, height: 10 + random.unit() * 40)
        }
    }

    static func points(count: Int) -> [PagePoint] {
        var random = Workload.Random(seed: 6)
        return (0..<count).map { _ in PagePoint(x: random.unit() * 4_000, y: random.unit() * 20_000) }
    }

    /// Strokes of 30 samples every 0.4 s over the synthetic exercise page.
    static func session(samples total: Int) -> SessionLog {
        var builder = SessionBuilder(header: SessionHeader(canvas: CanvasSize(width: 1024, height: 768), pageTransform: .identity))
        builder.regions(SyntheticSessions.page, at: 0)
        var random = Workload.Random(seed: 7)
        var time = 0.1, touch: UInt64 = 0, count = 0
        while count < total {
            touch += 1
            let x = 40 + random.unit() * 900, y = 40 + random.unit() * 650
            let samples = (0..<30).map { i in
                TouchSample(x: x + Double(i), y: y + random.unit(), timestamp: time + Double(i) / 240, tool: .pencil)
            }
            builder.stroke(PlatformTouchID(touch % 1_000 + 1), samples, answerAfter: 0.03)
            count += samples.count
            time += 0.4
            if touch % 1_000 == 0 {
                var snapshot = SyntheticSessions.page
                snapshot.maxAge = 1e6
                builder.regions(snapshot, at: time)
            }
        }
        var log = builder.log
        log.sortEventsByTime()
        return log
    }

    static let sessionText: String = {
        session(samples: 6_000).jsonLines()
    }()

    static let hourLog = session(samples: 1_000_000)
}
