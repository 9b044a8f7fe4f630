@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkRecording
@_spi(Tooling) @testable import SessionReplay
@_spi(Tooling) import InkCore
import Testing

@Suite("Soak run and sample-flow audit")
struct SoakTests {
    @Test("a 40-minute soak balances its ledger, audits every touch and holds only live state")
    func shortSoak() {
        var soak = SoakRun(configuration: SoakConfiguration(duration: 2_400, seed: 3, checkpointInterval: 300))
        let report = soak.run()
        #expect(report.passed, "\(report.problems)")
        #expect(report.ledger.received > 50_000)
        #expect(report.touchesChecked == report.touches)
        #expect(report.checkpoints.allSatisfy { $0.heldState < 1_000 }, "\(report.checkpoints.map(\.heldState))")
        // The generated page and student did every hostile thing at least once.
        for behaviour in ["answers on time", "late answers", "never answered", "malformed messages", "duplicate answers",
                          "answers for an old layout", "forged answers", "snapshots"] {
            #expect(report.pageBehaviour[behaviour, default: 0] > 0, "\(behaviour) \(report.pageBehaviour)")
        }
        #expect(report.counters.touchesCancelled > 0 && report.counters.touchesEvicted > 0 && report.counters.retractions > 0)
        #expect(report.bridge.cacheHits > 0 && report.bridge.roundTrips > 0 && report.bridge.refusedMessages > 0)
        // Events refused are only those of touches evicted at the active-touch bound.
        #expect(report.pageBehaviour.keys.filter { $0.hasPrefix("events refused") && $0 != "events refused: touch evicted" }.isEmpty)
    }

    @Test("the same seed gives the same run")
    func deterministic() {
        var a = SoakRun(configuration: SoakConfiguration(duration: 300, seed: 9))
        var b = SoakRun(configuration: SoakConfiguration(duration: 300, seed: 9))
        let (ra, rb) = (a.run(), b.run())
        #expect(ra.ledger == rb.ledger && ra.counters == rb.counters && ra.pageBehaviour == rb.pageBehaviour)
    }

    @Test("the audit finds a reordered, a lost, an invented and a miscounted sample")
    func auditFails() {
        let id = TouchID(1)
        let samples = (0..<3).map { TouchSample(x: Double($0), y: 0, timestamp: Double($0) * 0.01) }
        func audit(_ actions: [RouterAction]) -> [String] {
            var audit = DeliveryAudit()
            audit.accepted(TouchEvent(touch: PlatformTouchID(id.rawValue), phase: .began, samples: samples), as: id)
            for action in actions { audit.record(action, now: 0) }
            return audit.problems
        }
        let ledger = SampleLedger(received: 3, inked: 3)
        #expect(audit(samples.map { .ink(id, $0) } + [.touchFinished(id, ledger)]).isEmpty)
        #expect(!audit([samples[0], samples[2], samples[1]].map { .ink(id, $0) } + [.touchFinished(id, ledger)]).isEmpty)
        #expect(!audit(samples.dropLast().map { .ink(id, $0) } + [.touchFinished(id, ledger)]).isEmpty)
        #expect(!audit(samples.map { .ink(id, $0) } + [.ink(TouchID(2), samples[0]), .touchFinished(id, ledger)]).isEmpty)
        #expect(!audit(samples.map { .ink(id, $0) } + [.touchFinished(id, SampleLedger(received: 3, inked: 2, released: 1))]).isEmpty)
        #expect(!audit([.ink(id, samples[0])] + samples.map { .release(id, $0) } + [.touchFinished(id, SampleLedger(received: 3, released: 3))]).isEmpty)
        // A retraction takes the ink back: releasing everything after it is right.
        #expect(audit([.ink(id, samples[0]), .retractInk(id)] + samples.map { .release(id, $0) }
                      + [.touchFinished(id, SampleLedger(received: 3, released: 3))]).isEmpty)
        // A cancelled touch may show a prefix only, and counts every sample cancelled.
        #expect(audit([.ink(id, samples[0]), .cancel(id, previously: .ink), .touchFinished(id, SampleLedger(received: 3, cancelled: 3))]).isEmpty)
        #expect(!audit([.ink(id, samples[1]), .cancel(id, previously: .ink), .touchFinished(id, SampleLedger(received: 3, cancelled: 3))]).isEmpty)
    }
}
