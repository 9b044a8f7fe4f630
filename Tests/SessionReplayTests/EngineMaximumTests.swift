import Foundation
import Testing
@_spi(Tooling) import InkCore
@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkRecording
@_spi(Tooling) import SessionReplay

/// Issue 40, class 1: a recording's header lifted the engine's own limits (2^31 - 1 active
/// touches: touches that never end took a replay time growing with their square). The engine
/// runs within stated maximums, writes what it runs with, and a header above them is refused.
@Suite("the engine's maximums: what it runs with, what it records, what a header may name")
struct EngineMaximumTests {
    /// Records `touches` pencil touches that begin and never end on an engine configured
    /// with `configuration`, then finishes and ends the recording.
    static func record(_ configuration: InkEngineConfiguration, touches: Int) -> (text: String, engine: InkEngine) {
        let lines = LinesSink()
        var recorder = SessionRecorder(canvasWidth: 1024, canvasHeight: 768, sink: lines.offer)
        var engine = InkEngine(configuration: configuration, seed: 9)
        recorder.begin(engine)
        var events: [EngineEvent] = []
        for i in 0..<touches {
            let t = 1 + Double(i) * 0.01
            let input = EngineInput.touch(TouchEvent(touch: PlatformTouchID(UInt64(i + 1)), phase: .began,
                                                     samples: [TouchSample(x: 100 + Double(i % 50), y: 100, timestamp: t, tool: .pencil)]))
            events.removeAll(keepingCapacity: true)
            engine.take(input, now: t, into: &events)
            recorder.record(input, at: t, events: events)
        }
        events.removeAll()
        engine.finish(into: &events)
        recorder.recordFinish(at: engine.now, events: events)
        recorder.recordEnd(at: engine.now, ledger: engine.ledger)
        recorder.flush()
        return (lines.text, engine)
    }

    @Test("an engine configured above its maximums runs with them, its header names them, and its recording verifies identically (failed before: the header named 2147483647)")
    func engineWritesWhatItRuns() throws {
        var lifted = InkEngineConfiguration(decisionTimeout: 1e300)
        lifted.limits = .init(queuedSamplesPerTouch: 1 << 30, activeTouches: Int(Int32.max), messageBytes: 1 << 40,
                              regions: 1 << 40, roundTripsInFlight: Int(Int32.max))
        let (text, engine) = Self.record(lifted, touches: 300)
        #expect(engine.configuration.limits.activeTouches == 64)
        #expect(engine.configuration.limits.queuedSamplesPerTouch == 8_192)
        #expect(engine.configuration.limits.roundTripsInFlight == 256)
        #expect(engine.configuration.limits.messageBytes == 4 << 20 && engine.configuration.limits.regions == 80_000)
        #expect(engine.configuration.decisionTimeout == 3_600)
        // 300 touches down, at most 64 at once: the oldest made room.
        #expect(engine.counters.touchesEvicted == 300 - 64, "\(engine.counters)")
        let header = try #require(text.split(separator: "\n").first)
        #expect(header.contains(#""active_touches":64"#) && header.contains(#""decision_timeout":3600"#), "\(header)")
        let log = SessionLog.parse(text, file: "lifted.jsonl")
        let report = SessionReplayer(configuration: ReplayConfiguration()).replay(log, file: "lifted.jsonl")
        #expect(report.isVerified && report.isProvenIdentical, "\(report.readFailure.map(String.init(describing:)) ?? "") \(report.divergence ?? "")")
        // Limits of 0 or less run as 1, which a header may name.
        var low = InkEngineConfiguration(decisionTimeout: -5)
        low.limits = .init(queuedSamplesPerTouch: 0, activeTouches: -3, messageBytes: 0, regions: 0, roundTripsInFlight: 0)
        let (lowText, lowEngine) = Self.record(low, touches: 3)
        #expect(lowEngine.configuration.limits == .init(queuedSamplesPerTouch: 1, activeTouches: 1, messageBytes: 1, regions: 1, roundTripsInFlight: 1))
        #expect(lowEngine.configuration.decisionTimeout == 0)
        let lowReport = SessionReplayer(configuration: ReplayConfiguration()).replay(SessionLog.parse(lowText, file: "low.jsonl"), file: "low.jsonl")
        #expect(lowReport.isVerified && lowReport.isProvenIdentical, "\(lowReport.readFailure.map(String.init(describing:)) ?? "") \(lowReport.divergence ?? "")")
    }

    @Test("a header naming limits above the engine's maximums is refused, naming line 1 and the field; at the maximums it is read (failed before: 2147483647 was taken)")
    func headerAboveMaximum() throws {
        func header(_ configuration: String) -> String {
            #"{"format":"scratchpad-ink-session","version":2,"canvas":{"width":10,"height":10},"recorder":{"engine":"1.0","configuration":{"#
                + configuration + "}}}\n"
        }
        let refused: [(String, String)] = [
            (#""limits":{"active_touches":65}"#, "limits.active_touches"),
            (#""limits":{"active_touches":2147483647}"#, "limits.active_touches"),
            (#""limits":{"queued_samples_per_touch":8193}"#, "limits.queued_samples_per_touch"),
            (#""limits":{"round_trips_in_flight":257}"#, "limits.round_trips_in_flight"),
            (#""limits":{"message_bytes":4194305}"#, "limits.message_bytes"),
            (#""limits":{"regions":80001}"#, "limits.regions"),
            (#""decision_timeout":3600.001"#, "decision_timeout"),
            (#""decision_timeout":1e300"#, "decision_timeout"),
        ]
        for (configuration, field) in refused {
            let failure = SessionLog.parse(header(configuration), file: "h.jsonl").failure
            #expect(failure?.line == 1, "\(configuration): \(String(describing: failure))")
            #expect(failure?.description.contains("h.jsonl:1: recorder.configuration.\(field): must be") == true, "\(String(describing: failure))")
            #expect(failure?.description.contains("(the engine's maximum)") == true, "\(String(describing: failure))")
        }
        let most = #""decision_timeout":3600,"limits":{"queued_samples_per_touch":8192,"active_touches":64,"message_bytes":4194304,"regions":80000,"round_trips_in_flight":256}"#
        let log = try SessionLog.parse(header(most)).get()
        #expect(log.header.engineConfiguration?.limits.activeTouches == 64)
        #expect(log.header.engineConfiguration?.decisionTimeout == 3_600)
    }

    @Test("the maximums are stated, at least the defaults, and bounded leaves a configuration within them unchanged")
    func maximums() {
        let top = InkEngineConfiguration.Limits.maximum
        let defaults = InkEngineConfiguration.Limits()
        #expect(top.activeTouches >= defaults.activeTouches && top.queuedSamplesPerTouch >= defaults.queuedSamplesPerTouch)
        #expect(top.roundTripsInFlight >= defaults.roundTripsInFlight && top.regions >= defaults.regions && top.messageBytes >= defaults.messageBytes)
        #expect(InkEngineConfiguration.maximumDecisionTimeout >= InkEngineConfiguration().decisionTimeout)
        var within = InkEngineConfiguration(decisionTimeout: 2, speculativeInk: true)
        within.limits = top
        #expect(within.bounded == within)
        #expect(InkEngineConfiguration().bounded == InkEngineConfiguration())
        #expect(InkEngineConfiguration(decisionTimeout: .nan).bounded.decisionTimeout == 0.25)
        #expect(InkEngineConfiguration(decisionTimeout: .infinity).bounded.decisionTimeout == 3_600)
    }
}
