import Foundation
@_spi(Tooling) import InkCore
import Testing
@_spi(Tooling) @testable import HitTestBridge
@_spi(Tooling) import InkRecording
@_spi(Tooling) @testable import SessionReplay

@Suite("Replaying through the bridge")
struct BridgeReplayTests {
    /// Fixtures whose page pushed region snapshots with a freshness bound: the synthetic
    /// exercise pages and every real-ink conversion (their pages push like the page
    /// script's heartbeat).
    static let regionFixtures: [String] = FixturePaths.allSessionLogs.filter { path in
        guard let log = SessionLog.read(contentsOf: path).log else { return false }
        return log.events.contains { if case let .regions(snapshot, _) = $0 { snapshot.maxAge != nil } else { false } }
    }

    static func replay(_ path: String, cache: Bool, latency: Double = 0.030, jitter: Double = 0, seed: UInt64 = 1) -> ReplayReport {
        let configuration = ReplayConfiguration(engine: InkEngineConfiguration(useRegionCache: cache), oracle: .regions(latency: latency), latencyJitter: jitter, seed: seed)
        return SessionReplayer(configuration: configuration).replay(SessionLog.read(contentsOf: path), file: path)
    }

    @Test("there are fixtures with page regions")
    func haveRegionFixtures() { #expect(Self.regionFixtures.count >= 56) }

    @Test("a warm cache decides touch-downs with no round trip and at once; verdicts equal asking the page",
          arguments: regionFixtures)
    func cacheAgreesWithPage(path: String) {
        let asked = Self.replay(path, cache: false)
        let cached = Self.replay(path, cache: true)
        #expect(asked.isVerified && cached.isVerified)
        #expect(asked.bridge.cacheHits == 0 && asked.bridge.roundTrips == asked.bridge.queries)
        #expect(cached.bridge.queries > 0)
        #expect(Double(cached.bridge.cacheHits) >= 0.95 * Double(cached.bridge.queries))
        #expect(cached.bridge.roundTrips == cached.bridge.queries - cached.bridge.cacheHits)
        try? #require(asked.touches.count == cached.touches.count)
        for (a, c) in zip(asked.touches, cached.touches) {
            // A touch the system cancelled before the page's answer has no verdict without
            // the cache; every decided touch got the same owner both ways.
            if let verdict = a.verdict, let other = c.verdict {
                #expect(verdict == other, "touch \(a.touch)")
            }
            if c.reason == .regionCache, c.verdict == .ink, !c.retracted, !c.cancelled {
                #expect(c.firstInkLatency == 0, "touch \(c.touch)")
            }
            if a.reason == .answered, a.verdict == .ink, !a.retracted, !a.cancelled {
                #expect(abs((a.firstInkLatency ?? 0) - 0.030) < 1e-9, "touch \(a.touch)")
            }
        }
    }

    @Test("jitter is seeded: the same seed replays the same, another seed differs, all within the bound")
    func jitter() throws {
        let path = FixturePaths.stroke("decimal-point.jsonl")
        let a = Self.replay(path, cache: false, latency: 0.030, jitter: 0.020, seed: 7)
        let b = Self.replay(path, cache: false, latency: 0.030, jitter: 0.020, seed: 7)
        let c = Self.replay(path, cache: false, latency: 0.030, jitter: 0.020, seed: 8)
        #expect(a.firstInkLatencies == b.firstInkLatencies)
        #expect(a.firstInkLatencies != c.firstInkLatencies)
        for latency in a.firstInkLatencies + c.firstInkLatencies { #expect(latency >= 0.030 && latency < 0.050) }
    }

    @Test("with no snapshot before the question, the regions oracle never answers and the timeout decides")
    func noRegions() throws {
        var builder = SessionBuilder(header: SessionHeader(canvas: CanvasSize(width: 100, height: 100)))
        builder.stroke(PlatformTouchID(1), [TouchSample(x: 10, y: 10, timestamp: 1), TouchSample(x: 12, y: 10, timestamp: 1.01)],
                       answerAfter: nil)
        let report = SessionReplayer(configuration: ReplayConfiguration(engine: InkEngineConfiguration(useRegionCache: true), oracle: .regions(latency: 0.03)))
            .replay(builder.log)
        #expect(report.isVerified)
        #expect(report.touches.first?.reason == .deadline)
        #expect(report.bridge.roundTrips == 1 && report.bridge.cacheHits == 0)
    }
}

@Suite("Speculative ink in replays")
struct SpeculativeReplayTests {
    /// A touch-down where an old snapshot shows nothing, and the page then pushes a new
    /// layout with a button right there: the tentative ink must be taken back.
    static var wrongGuess: SessionLog {
        var builder = SessionBuilder(header: SessionHeader(canvas: CanvasSize(width: 400, height: 400)))
        builder.regions(RegionSnapshot(generation: 1, maxAge: 0.1, regions: []), at: 0)
        let samples = (0..<6).map { TouchSample(x: 50 + Double($0), y: 50, timestamp: 1 + Double($0) * 0.008, tool: .pencil) }
        builder.stroke(PlatformTouchID(1), samples, answerAfter: nil)
        builder.regions(RegionSnapshot(generation: 2, maxAge: 5, regions: [PageRegion(x: 0, y: 0, width: 100, height: 100)]), at: 1.01)
        var log = builder.log
        log.sortEventsByTime()
        return log
    }

    @Test("a wrong guess is retracted and every sample reaches the page in order")
    func wrongGuessRetracted() throws {
        let configuration = ReplayConfiguration(engine: InkEngineConfiguration(useRegionCache: true, speculativeInk: true), oracle: .regions(latency: 0.030))
        let report = SessionReplayer(configuration: configuration).replay(Self.wrongGuess)
        #expect(report.isVerified, "\(report.problems)")
        let touch = try #require(report.touches.first)
        #expect(touch.verdict == .page && touch.retracted)
        #expect(touch.released == Self.wrongGuess.samplesByTouch[0].samples)
        #expect(report.counters.speculations == 1 && report.counters.retractions == 1)
        // The new layout's fresh snapshot decided the question still out, with no second round trip.
        #expect(touch.reason == .regionCache && report.bridge.roundTrips == 1 && report.bridge.cacheHits == 1, "\(report.bridge)")
    }

    @Test("speculation changes no verdict on the fixtures and never loses a sample", arguments: FixturePaths.allSessionLogs)
    func sameVerdicts(path: String) {
        let read = SessionLog.read(contentsOf: path)
        let plain = SessionReplayer(configuration: ReplayConfiguration(engine: InkEngineConfiguration(useRegionCache: true), oracle: .regions(latency: 0.030))).replay(read)
        let speculative = SessionReplayer(configuration: ReplayConfiguration(engine: InkEngineConfiguration(useRegionCache: true, speculativeInk: true),
                                                                             oracle: .regions(latency: 0.030))).replay(read)
        #expect(plain.isVerified && speculative.isVerified)
        for (a, b) in zip(plain.touches, speculative.touches) {
            if let verdict = a.verdict, let other = b.verdict { #expect(verdict == other) }
        }
    }
}
