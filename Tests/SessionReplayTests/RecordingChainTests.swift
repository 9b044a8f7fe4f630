import Foundation
import Testing
@_spi(Tooling) import InkCore
@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkRecording
@_spi(Tooling) import SessionReplay

/// A chained recording's text as a format-version-2 recording of the same lines: no chain,
/// no end line. What recordings were before the chain; tests edit such a text to show what
/// the identity check alone catches.
func unchained(_ text: String) -> String {
    text.split(separator: "\n").compactMap { line -> String? in
        var line = String(line)
        if line.hasPrefix(#"{"kind":"end""#) { return nil }
        if line.hasPrefix(#"{"format""#) { return line.replacingOccurrences(of: #""version":3"#, with: #""version":2"#) }
        if let range = line.range(of: #","chain":""#, options: .backwards) { line = String(line[..<range.lowerBound]) + "}" }
        return line
    }.joined(separator: "\n") + "\n"
}

@Suite("A recording proves itself: its chain names the line where an edit breaks it, and finish follows one rule")
struct RecordingChainTests {
    static func replay(_ text: String, file: String = "edited.jsonl", acceptsIncomplete: Bool = false) -> ReplayReport {
        var configuration = ReplayConfiguration()
        configuration.acceptsIncomplete = acceptsIncomplete
        return SessionReplayer(configuration: configuration).replay(SessionLog.parse(text, file: file), file: file)
    }

    @Test("one input: a touch whose deadline already passed when the front end finishes is decided by it, live and in the replay (failed before: live flushed, replayed deadline)")
    func finishRule() throws {
        let lines = LinesSink()
        var recorder = SessionRecorder(canvasWidth: 100, canvasHeight: 100, sink: lines.offer)
        var engine = InkEngine(configuration: InkEngineConfiguration(decisionTimeout: 0.25), seed: 3)
        recorder.begin(engine)
        var events: [EngineEvent] = []
        // Taken at 1 s, stamped 0.5 s by the platform: its deadline (0.75 s) has passed.
        let input = EngineInput.touch(TouchEvent(touch: PlatformTouchID(1), phase: .began, samples: [TouchSample(x: 10, y: 10, timestamp: 0.5)]))
        engine.take(input, now: 1, into: &events)
        recorder.record(input, at: 1, events: events)
        events.removeAll()
        engine.finish(into: &events)
        recorder.recordFinish(at: engine.now, events: events)
        recorder.recordEnd(at: engine.now, ledger: engine.ledger)
        recorder.flush()
        let decided = events.compactMap { if case let .action(.decided(_, _, reason)) = $0.kind { reason } else { nil } }
        #expect(decided == [.deadline], "\(decided)")
        let report = Self.replay(lines.text, file: "finish.jsonl")
        #expect(report.isProvenIdentical && report.isVerified, "\(report.identity ?? "") \(report.divergence ?? "")")
    }

    @Test("the whole recording verifies identically; five edits are each refused identity, naming the line")
    func fiveEdits() async throws {
        let text = await RecordingIdentityTests.recordSession()
        let whole = Self.replay(text, file: "live.jsonl")
        #expect(whole.isProvenIdentical && whole.isVerified && whole.integrity.isWhole, "\(whole.integrity) \(whole.divergence ?? "")")
        let lines = text.split(separator: "\n").map(String.init)
        func kept(_ keep: (Int, String) -> Bool) -> String {
            lines.enumerated().filter { keep($0.offset, $0.element) }.map(\.element).joined(separator: "\n") + "\n"
        }
        // Cut to 60 %, to the header and 3 lines, the last line removed: incomplete at the last line kept.
        for count in [lines.count * 6 / 10, 4, lines.count - 1] {
            let report = Self.replay(kept { index, _ in index < count })
            #expect(!report.isVerified && !report.isProvenIdentical)
            #expect(report.integrity == .incomplete(line: count, reason: "ends at line \(count) with no end: the session did not finish (a crash, a full disk or a cut)"),
                    "\(count): \(report.integrity)")
            // Accepted as a crashed session's prefix, it still replays identically as far as it goes.
            let accepted = Self.replay(kept { index, _ in index < count }, acceptsIncomplete: true)
            #expect(accepted.isVerified && accepted.isIdentical && !accepted.isProvenIdentical, "\(count): \(accepted.divergence ?? "")")
        }
        // Every `finished` line removed: the chain breaks at the line after the first.
        let firstFinished = try #require(lines.firstIndex { $0.hasPrefix(#"{"kind":"finished""#) })
        let noFinished = Self.replay(kept { _, line in !line.hasPrefix(#"{"kind":"finished""#) })
        #expect(noFinished.readFailure?.reason == .chainBroken && noFinished.readFailure?.line == firstFinished + 1)
        #expect(!noFinished.isVerified && !noFinished.isProvenIdentical)
        // One moved line removed.
        let moved = try #require(lines.firstIndex { $0.contains(#""phase":"moved""#) })
        let noMoved = Self.replay(kept { index, _ in index != moved })
        #expect(noMoved.readFailure?.reason == .chainBroken && noMoved.readFailure?.line == moved + 1, "\(String(describing: noMoved.readFailure))")
        #expect(noMoved.readFailure.map { $0.description.hasPrefix("edited.jsonl:\(moved + 1): the chain breaks here") } == true)
        // A sample moved 25 pt: the chain breaks at the line after it.
        let edited = lines[moved].replacingOccurrences(of: #""x":"#, with: #""x":25"#)
        #expect(edited != lines[moved])
        let shifted = Self.replay(kept { index, _ in index != moved }.replacingOccurrences(of: lines[moved + 1], with: edited + "\n" + lines[moved + 1]))
        #expect(shifted.readFailure?.reason == .chainBroken, "\(String(describing: shifted.readFailure))")
        // A line added after the end, and totals edited.
        #expect(Self.replay(text + lines[1] + "\n").readFailure?.reason == .afterEnd(endLine: lines.count))
    }

    @Test("what a recording says is compared: decision times, finishes both ways, the engine version, dropped lines (failed before)")
    func everythingCompared() async throws {
        let text = await RecordingIdentityTests.recordSession()
        // The header edited: the chain breaks at line 2.
        let timeout = text.replacingOccurrences(of: #""decision_timeout":0.25"#, with: #""decision_timeout":0"#)
        #expect(Self.replay(timeout).readFailure.map { ($0.line, $0.reason) } ?? (0, .empty) == (2, .chainBroken))
        // Unchained (version 2): read as it was, and the identity check alone still catches each edit.
        let old = unchained(text)
        let oldReport = Self.replay(old, file: "old.jsonl")
        #expect(oldReport.isVerified && oldReport.isIdentical && !oldReport.isProvenIdentical && oldReport.integrity == .unchained(version: 2))
        let zero = Self.replay(unchained(timeout))
        #expect(zero.divergence != nil && !zero.isVerified, "decision times are compared")
        let noFinished = old.split(separator: "\n").filter { !$0.hasPrefix(#"{"kind":"finished""#) }.joined(separator: "\n") + "\n"
        let unnamed = Self.replay(noFinished)
        #expect(unnamed.divergence?.contains("the recording never says it finished") == true, "\(unnamed.divergence ?? "")")
        let engine = Self.replay(old.replacingOccurrences(of: #""engine":"\#(InkEngine.version)""#, with: #""engine":"0.1""#))
        #expect(engine.divergence?.contains("recorded by engine 0.1") == true && engine.divergenceLine == 1, "\(engine.divergence ?? "")")
        // A dropped line claiming no lines is refused; one claiming lines makes the recording incomplete.
        var oldLines = old.split(separator: "\n").map(String.init)
        oldLines.insert(#"{"kind":"dropped","t":1,"lines":0,"samples":0,"from":1,"to":1}"#, at: 2)
        #expect(Self.replay(oldLines.joined(separator: "\n") + "\n").readFailure?.line == 3)
        oldLines[2] = #"{"kind":"dropped","t":1,"lines":1,"samples":0,"from":1,"to":1}"#
        let dropped = Self.replay(oldLines.joined(separator: "\n") + "\n")
        #expect(!dropped.isVerified && dropped.integrity.isIncomplete, "\(dropped.integrity)")
    }

    @Test("written back by the log writer, a chained recording is chained again and reads back equal")
    func writtenBack() async throws {
        let text = await RecordingIdentityTests.recordSession()
        let log = try SessionLog.parse(text).get()
        #expect(log.header.version == 3 && log.integrity.isWhole)
        #expect(log.jsonLines() == text)
    }
}
