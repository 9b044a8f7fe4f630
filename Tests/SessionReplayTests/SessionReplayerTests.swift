import Foundation
@_spi(Tooling) import InkCore
import Testing
@_spi(Tooling) @testable import HitTestBridge
@_spi(Tooling) import InkRecording
@_spi(Tooling) @testable import SessionReplay

@Suite("Replaying sessions")
struct SessionReplayerTests {
    let replayer = SessionReplayer()

    @Test("every fixture replays with every sample accounted for", arguments: FixturePaths.allSessionLogs)
    func fixtureVerifies(path: String) {
        let report = replayer.replay(SessionLog.read(contentsOf: path), file: path)
        #expect(report.readFailure == nil)
        #expect(report.issues.isEmpty)
        #expect(report.problems.isEmpty)
        #expect(report.dropped == 0)
        #expect(report.audit.received == report.samples)
        #expect(report.audit.inked + report.audit.released + report.audit.cancelled == report.samples)
        #expect(report.isVerified)
    }

    @Test("the fixture set is large enough for CI")
    func fixtureCount() {
        #expect(FixturePaths.allSessionLogs.count >= 20)
    }

    @Test("a decimal point becomes ink whatever the answer latency", arguments: [0.0, 0.030, 0.200])
    func decimalPointLatency(latency: Double) throws {
        let log = SyntheticSessions.decimalPoint
        let report = SessionReplayer(configuration: ReplayConfiguration(oracle: .recordedWithLatency(latency))).replay(log)
        #expect(report.isVerified)
        let dot = try #require(report.touches.last)
        #expect(dot.verdict == .ink)
        #expect(dot.inked.count == 4)
        #expect(dot.released.isEmpty)
        let firstInk = try #require(dot.firstInkLatency)
        #expect(abs(firstInk - latency) < 1e-9)
    }

    @Test("a decimal point decided by its deadline is inked at the deadline, not at the next event (a 1 s answer, deadlines 100 and 250 ms)",
          arguments: [0.100, 0.250])
    func deadlineTimedWhenItFires(timeout: Double) throws {
        var configuration = ReplayConfiguration(oracle: .recordedWithLatency(1.0))
        configuration.engine.decisionTimeout = timeout
        let report = SessionReplayer(configuration: configuration).replay(SyntheticSessions.decimalPoint)
        #expect(report.isVerified)
        // Both touches wait for answers that come after their deadlines; the dot lifts long
        // before its deadline and nothing else happens until the late answer.
        for touch in report.touches {
            let firstInk = try #require(touch.firstInkLatency)
            #expect(abs(firstInk - timeout) < 1e-9, "touch \(touch.touch): \(firstInk)")
        }
    }

    @Test("a tap that lifts before its answer still reaches the page, with its original timestamps")
    func tapAfterLift() throws {
        let log = SyntheticSessions.endsBeforeVerdict
        let report = replayer.replay(log)
        #expect(report.isVerified)
        let tap = try #require(report.touches.last)
        #expect(tap.verdict == .page)
        let logged = log.samplesByTouch.last!.samples
        #expect(tap.released == logged)
        // The page answered twice: the bridge counts the second and the engine never sees it.
        #expect(report.bridge.duplicateAnswers == 1 && report.counters.duplicateAnswers == 0)
    }

    @Test("an unanswered touch is decided by the timeout fallback", arguments: [HitTestVerdict.ink, .page])
    func neverAnswered(fallback: HitTestVerdict) throws {
        let report = SessionReplayer(configuration: ReplayConfiguration(engine: InkEngineConfiguration(fallback: fallback, useRegionCache: false)))
            .replay(SyntheticSessions.neverAnswered)
        #expect(report.isVerified)
        let touch = try #require(report.touches.first)
        #expect(touch.verdict == fallback)
        #expect(touch.reason == .deadline)
        #expect(report.counters.deadlinesPassed == 1)
        if fallback == .ink {
            let firstInk = try #require(touch.firstInkLatency)
            #expect(abs(firstInk - 0.25) < 1e-9)
        } else {
            #expect(touch.released.count == report.samples)
        }
    }

    @Test("two fingers within the window, both answered on the paper, go to the page, and their early ink is retracted")
    func twoFingerScroll() {
        let report = replayer.replay(SyntheticSessions.twoFingerScroll)
        #expect(report.isVerified)
        #expect(report.touches.allSatisfy { $0.verdict == .page && $0.inked.isEmpty })
        #expect(report.audit.released == report.samples)
        #expect(report.counters.gestures == 1)
        #expect(report.counters.retractions == 2)   // each finger inked until the page said both were on the paper
    }

    @Test("cancelled touches count as cancelled, whether undecided or inking")
    func cancelled() {
        let report = replayer.replay(SyntheticSessions.cancelledTouch)
        #expect(report.isVerified)
        #expect(report.audit.cancelled == report.samples)
        #expect(report.touches.allSatisfy { $0.cancelled })
    }

    @Test("a truncated log replays its valid prefix and fails verification naming the line")
    func truncatedLog() throws {
        let text = SyntheticSessions.dragBlock.jsonLines()
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines[10] = String(lines[10].prefix(lines[10].count / 2))
        let result = SessionLog.parse(lines.joined(separator: "\n"), file: "drag.jsonl")
        let report = replayer.replay(result)
        let failure = try #require(report.readFailure)
        #expect(failure.line == 11)
        #expect(failure.file == "drag.jsonl")
        #expect(!report.isVerified)
        // Events on lines 2…10 were replayed; the touch never ended, yet nothing was lost.
        #expect(report.samples > 0)
        #expect(report.dropped == 0)
    }

    @Test("an event the engine refuses is reported with its line, and verification fails")
    func refusedEvent() throws {
        let text = """
            {"format":"scratchpad-ink-session","version":1,"canvas":{"width":100,"height":100}}
            {"kind":"touch","t":1,"touch":1,"phase":"began","samples":[{"t":1,"x":1,"y":1}]}
            {"kind":"touch","t":1.1,"touch":1,"phase":"moved","samples":[{"t":0.5,"x":2,"y":2}]}
            {"kind":"touch","t":1.2,"touch":9,"phase":"moved","samples":[{"t":1.2,"x":2,"y":2}]}
            {"kind":"touch","t":1.3,"touch":1,"phase":"ended","samples":[{"t":1.3,"x":3,"y":3}]}
            """
        let report = replayer.replay(SessionLog.parse(text, file: "bad.jsonl"))
        #expect(report.issues.map(\.line) == [3, 4])
        #expect(report.issues[0].error == .timestampWentBackwards(PlatformTouchID(1), previous: 1, got: 0.5))
        #expect(report.issues[1].error == .touchNotDown(PlatformTouchID(9)))
        #expect(report.refusedSamples == 2)
        #expect(report.dropped == 0)
        #expect(!report.isVerified)
    }

    @Test("answers for touches that never began are delivered and ignored")
    func orphanAnswer() {
        let text = """
            {"format":"scratchpad-ink-session","version":1,"canvas":{"width":100,"height":100}}
            {"kind":"answer","t":0.5,"touch":4,"verdict":"page"}
            {"kind":"touch","t":1,"touch":1,"phase":"began","samples":[{"t":1,"x":1,"y":1}]}
            {"kind":"touch","t":1.01,"touch":1,"phase":"ended","samples":[]}
            {"kind":"answer","t":1.02,"touch":1,"verdict":"ink"}
            """
        let report = replayer.replay(SessionLog.parse(text))
        #expect(report.isVerified)
        #expect(report.orphanAnswers == 1)
        #expect(report.bridge.unknownAnswers == 1)
        #expect(report.touches.first?.verdict == .ink)
    }

    @Test("reused touch ids after an end replay as separate touches")
    func reusedTouchID() {
        let text = """
            {"format":"scratchpad-ink-session","version":1,"canvas":{"width":100,"height":100}}
            {"kind":"touch","t":1,"touch":1,"phase":"began","samples":[{"t":1,"x":1,"y":1}]}
            {"kind":"touch","t":1.01,"touch":1,"phase":"ended","samples":[]}
            {"kind":"touch","t":1.02,"touch":1,"phase":"began","samples":[{"t":1.02,"x":50,"y":50}]}
            {"kind":"answer","t":1.03,"touch":1,"verdict":"page"}
            {"kind":"touch","t":1.04,"touch":1,"phase":"ended","samples":[{"t":1.04,"x":51,"y":51}]}
            {"kind":"answer","t":1.05,"touch":1,"verdict":"ink"}
            """
        // The first touch's answer never came (the page answered the second one first),
        // so only the second answer for the reused id applies to the second touch.
        let report = replayer.replay(SessionLog.parse(text))
        #expect(report.isVerified)
        #expect(report.touches.count == 2)
        #expect(report.touches[0].verdict == .ink)
        #expect(report.touches[0].reason == .deadline)
        #expect(report.touches[1].verdict == .page)
        #expect(report.touches[1].released.count == 2)
    }

    @Test("a touch id that begins again while down is refused, with the sentence the host uses")
    func beganTwice() {
        let text = """
            {"format":"scratchpad-ink-session","version":1,"canvas":{"width":100,"height":100}}
            {"kind":"touch","t":1,"touch":1,"phase":"began","samples":[{"t":1,"x":1,"y":1}]}
            {"kind":"touch","t":1.01,"touch":1,"phase":"began","samples":[{"t":1.01,"x":50,"y":50}]}
            {"kind":"touch","t":1.02,"touch":1,"phase":"ended","samples":[{"t":1.02,"x":2,"y":2}]}
            """
        let report = replayer.replay(SessionLog.parse(text, file: "twice.jsonl"))
        #expect(!report.isVerified)
        #expect(report.issues.map(\.line) == [3])
        #expect(report.issues.first?.description == "line 3: touch 1: began while a touch with this id is down (end or cancel it first)")
        #expect(report.refusedSamples == 1)
        #expect(report.dropped == 0)
        #expect(report.touchCount == 1)
    }

    @Test("at one instant the deadline fires before the answer: an answer exactly at the deadline is late")
    func tieBreak() throws {
        // The engine's deadline is 250 ms after touch-down; the recorded answer arrives at
        // exactly that moment. The same rule holds in the host and the live session
        // (HostTests, InkSessionTests).
        let text = """
            {"format":"scratchpad-ink-session","version":1,"canvas":{"width":100,"height":100}}
            {"kind":"touch","t":1,"touch":1,"phase":"began","samples":[{"t":1,"x":1,"y":1}]}
            {"kind":"answer","t":1.25,"touch":1,"verdict":"page"}
            {"kind":"touch","t":1.3,"touch":1,"phase":"ended","samples":[{"t":1.3,"x":2,"y":2}]}
            """
        let report = replayer.replay(SessionLog.parse(text))
        #expect(report.isVerified)
        let touch = try #require(report.touches.first)
        #expect(touch.verdict == .ink)
        #expect(touch.reason == .deadline)
        // A microsecond earlier, the page's answer decides.
        let earlier = replayer.replay(SessionLog.parse(text.replacingOccurrences(of: #""t":1.25"#, with: #""t":1.249999"#)))
        #expect(earlier.touches.first?.verdict == .page)
        #expect(earlier.touches.first?.reason == .answered)
    }

    @Test("the re-timing oracle looks ahead for a touch's recorded answer within its bounds, and no further")
    func lookaheadBounds() throws {
        func log(answerAt: Double) -> SessionLog {
            SessionLog.parse("""
                {"format":"scratchpad-ink-session","version":1,"canvas":{"width":100,"height":100}}
                {"kind":"touch","t":1,"touch":1,"phase":"began","samples":[{"t":1,"x":1,"y":1}]}
                {"kind":"touch","t":1.01,"touch":1,"phase":"ended","samples":[{"t":1.01,"x":2,"y":2}]}
                {"kind":"touch","t":2,"touch":2,"phase":"began","samples":[{"t":2,"x":50,"y":50}]}
                {"kind":"touch","t":2.01,"touch":2,"phase":"ended","samples":[{"t":2.01,"x":51,"y":51}]}
                {"kind":"answer","t":\(answerAt),"touch":1,"verdict":"page"}
                """).log!
        }
        var configuration = ReplayConfiguration(oracle: .recordedWithLatency(0.03))
        // Recorded 9 s after the question: found, and re-timed to 30 ms.
        let near = SessionReplayer(configuration: configuration).replay(log(answerAt: 10))
        #expect(near.isVerified && near.touches.first?.verdict == .page && near.touches.first?.reason == .answered)
        // Recorded 11 s after it: past the 10 s lookahead; the deadline decides.
        let far = SessionReplayer(configuration: configuration).replay(log(answerAt: 12))
        #expect(far.isVerified && far.touches.first?.reason == .deadline)
        // Within the time, but past the event limit (two events ahead): the deadline decides.
        configuration.lookaheadLimit = 2
        let capped = SessionReplayer(configuration: configuration).replay(log(answerAt: 10))
        #expect(capped.isVerified && capped.touches.first?.reason == .deadline)
    }

    @Test("the audit notices a sample that went missing, and does not count it")
    func auditCatchesLoss() {
        var audit = DeliveryAudit()
        let id = TouchID(1)
        let samples = (0..<3).map { TouchSample(x: Double($0), y: 0, timestamp: Double($0) / 100) }
        audit.accepted(TouchEvent(touch: PlatformTouchID(id.rawValue), phase: .began, samples: samples), as: id)
        audit.record(.decided(id, .ink, .answered), now: 0)
        audit.record(.ink(id, samples[0]), now: 0)
        audit.record(.ink(id, samples[2]), now: 0)
        audit.record(.touchFinished(id, SampleLedger(received: 3, inked: 3)), now: 0)
        #expect(audit.ledger.inked == 1)
        #expect(audit.ledger.dropped == 2)
        #expect(audit.problemCount == 2)   // the samples, and the engine's ledger disagreeing
    }

    @Test("a touch that never finished is checked when the audit closes")
    func auditClosesOpenTouches() {
        var audit = DeliveryAudit()
        let samples = (0..<2).map { TouchSample(x: Double($0), y: 0, timestamp: Double($0) / 100) }
        audit.accepted(TouchEvent(touch: PlatformTouchID(1), phase: .began, samples: samples), as: TouchID(1))
        audit.accepted(TouchEvent(touch: PlatformTouchID(2), phase: .began, samples: samples), as: TouchID(2))
        audit.record(.decided(TouchID(1), .ink, .answered), now: 0)
        for sample in samples { audit.record(.ink(TouchID(1), sample), now: 0) }
        let outcomes = audit.close()
        #expect(outcomes.map(\.engineID) == [TouchID(1), TouchID(2)])
        #expect(audit.problems == ["touch 2: never decided", "touch 2: 2 samples accepted, 0 delivered"])
        #expect(audit.ledger.inked == 2)
    }

    @Test("percentiles use the nearest rank")
    func percentiles() throws {
        let p = try #require(Percentiles((1...100).map(Double.init)))
        #expect(p.p50 == 50)
        #expect(p.p95 == 95)
        #expect(p.p99 == 99)
        #expect(p.max == 100)
        #expect(Percentiles([]) == nil)
    }

    @Test("latencies counted to the microsecond give the same percentiles as the list")
    func latencyCounts() throws {
        var random = SplitMix64(seed: 4)
        let values = (0..<1_000).map { _ in (random.unit() * 250).rounded() / 1000 }   // whole ms, many repeated
        var counts = LatencyCounts()
        for value in values { counts.record(value) }
        let fromCounts = try #require(counts.percentiles), fromList = try #require(Percentiles(values))
        #expect(fromCounts == fromList)
        var half = LatencyCounts(), other = LatencyCounts()
        for (i, value) in values.enumerated() { if i % 2 == 0 { half.record(value) } else { other.record(value) } }
        half.merge(other)
        #expect(half.percentiles == fromList)
        #expect(LatencyCounts().percentiles == nil)
    }
}

@Suite("docs/session-format.md")
struct SessionFormatDocumentTests {
    @Test("the example in the format document reads and replays as the document says")
    func documentExample() throws {
        let path = FixturePaths.root.appendingPathComponent("docs/session-format.md").path
        let document = try String(contentsOfFile: path, encoding: .utf8)
        let start = try #require(document.range(of: "```json\n"))
        let end = try #require(document.range(of: "\n```", range: start.upperBound..<document.endIndex))
        let example = String(document[start.upperBound..<end.lowerBound])
        let report = SessionReplayer().replay(SessionLog.parse(example, file: "example"))
        #expect(report.isVerified)
        #expect(report.samples == 3)
        #expect(report.audit.inked == 3)
        let firstInk = try #require(report.firstInkLatencies.first)
        #expect(abs(firstInk - 0.030) < 1e-9)
    }
}
