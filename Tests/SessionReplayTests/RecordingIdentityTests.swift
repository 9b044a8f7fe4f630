import Foundation
import Testing
@_spi(Tooling) import InkCore
@_spi(Tooling) import HitTestBridge
import InkTesting
@_spi(Tooling) import InkRecording
@_spi(Tooling) import SessionReplay

/// A page the test answers by hand: each request waits until the test replies.
final class HandAnsweredPage: @unchecked Sendable {
    private let lock = NSLock()
    private var requests: [HitTestRequest] = []
    private var waiting: [(HitTestRequest, CheckedContinuation<String?, any Error>)] = []

    var sentCount: Int { lock.withLock { requests.count } }

    func send(_ request: HitTestRequest) async throws -> String? {
        try await withCheckedThrowingContinuation { continuation in
            lock.withLock {
                requests.append(request)
                waiting.append((request, continuation))
            }
            sent.append(request)
        }
    }

    /// Answers the oldest waiting request.
    func answer(interactive: Bool) {
        let (request, continuation) = lock.withLock { waiting.removeFirst() }
        continuation.resume(returning: #"{"type":"answer","id":"\#(request.token)","interactive":\#(interactive),"generation":\#(request.generation)}"#)
    }

    /// The requests as they are sent.
    private let sent = Arrivals<HitTestRequest>()

    /// Waits (suspended, no spin, no sleep) until `count` requests were sent.
    func waitForRequests(_ count: Int) async {
        await sent.wait(for: count)
    }
}

/// Lines a sink collects (the app's side of a recording).
final class CollectedLines: @unchecked Sendable {
    private let lock = NSLock()
    private var bytes: [UInt8] = []
    var isOpen = true

    func offer(_ piece: [UInt8]) -> Bool {
        lock.withLock {
            guard isOpen else { return false }
            bytes += piece
            return true
        }
    }

    var text: String { lock.withLock { String(decoding: bytes, as: UTF8.self) } }
}

@Suite("A live recording replays identically, and a changed configuration is caught")
struct RecordingIdentityTests {
    static func dot(_ touch: UInt64, at time: Double, x: Double, y: Double = 50) -> [EngineInput] {
        [.touch(TouchEvent(touch: PlatformTouchID(touch), phase: .began, samples: [TouchSample(x: x, y: y, timestamp: time, tool: .pencil)])),
         .touch(TouchEvent(touch: PlatformTouchID(touch), phase: .moved, samples: [TouchSample(x: x + 1, y: y, timestamp: time + 0.008, tool: .pencil)])),
         .touch(TouchEvent(touch: PlatformTouchID(touch), phase: .ended, samples: [TouchSample(x: x + 2, y: y + 1, timestamp: time + 0.016, tool: .pencil)]))]
    }

    /// A session on a manual clock: a cache decision each way, a layout change that makes the
    /// snapshot stale, a question the page answers, one it never answers (the deadline), and
    /// a touch the front end settles when it closes. Returns the recording's text.
    static func recordSession(lines: CollectedLines = CollectedLines(), closeSinkAfterFirstTouch: Bool = false) async -> String {
        let clock = ManualClock(start: 1), page = HandAnsweredPage()
        let recorder = SessionRecorder(canvasWidth: 400, canvasHeight: 300, exercise: "math/decimals/3.5", budgetBytes: 64 << 10,
                                       sink: lines.offer)
        let session = InkSession(configuration: InkEngineConfiguration(decisionTimeout: 0.25), clock: clock, seed: 11,
                                 recorder: recorder) { try await page.send($0) }
        let run = Task { await session.run() }
        let regions = #"{"type":"regions","generation":1,"maxAge":5000,"regions":[{"x":200,"y":0,"width":100,"height":100,"element":"check"}]}"#
        session.submit(.pageMessage(regions))
        session.submit(Self.dot(1, at: 1, x: 50))                    // ink: the cache
        await session.settled()
        if closeSinkAfterFirstTouch {
            await session.flushRecording()
            lines.isOpen = false
            // A long stroke while the sink is behind: more than the 64 KiB budget holds.
            var stroke: [EngineInput] = [.touch(TouchEvent(touch: PlatformTouchID(6), phase: .began, samples: [TouchSample(x: 20, y: 200, timestamp: 1.05)]))]
            for i in 1...2_000 {
                let sample = TouchSample(x: 20 + Double(i) * 0.01, y: 200, timestamp: 1.05 + Double(i) * 0.00005)
                stroke.append(.touch(TouchEvent(touch: PlatformTouchID(6), phase: i == 2_000 ? .ended : .moved, samples: [sample])))
            }
            session.submit(stroke)
            await session.settled()
        }
        clock.advance(to: 1.2)
        session.submit(Self.dot(2, at: 1.2, x: 250))                 // page: the cache
        await session.settled()
        clock.advance(to: 1.5)
        session.submit(.layout(PageTransform(scale: 1, offsetX: 0, offsetY: 40), generation: 2))
        session.submit(Self.dot(3, at: 1.5, x: 60))                  // the snapshot is stale: asks the page
        await page.waitForRequests(1)
        clock.advance(to: 1.53)
        page.answer(interactive: false)                              // answered: ink
        await session.settled()
        clock.advance(to: 2)
        session.submit(Self.dot(4, at: 2, x: 70))                    // never answered
        await page.waitForRequests(2)
        clock.advance(to: 2.3)                                       // the deadline decides: ink
        await session.settled()
        clock.advance(to: 3)
        session.submit(Self.dot(5, at: 3, x: 80))                    // lifted, undecided when the page goes away
        await page.waitForRequests(3)
        clock.advance(to: 3.2)
        session.submit(Array(Self.dot(7, at: 3.2, x: 150, y: 150).prefix(2)))   // still down when the page goes away
        await page.waitForRequests(4)
        await session.drained()
        lines.isOpen = true
        await session.flush()
        await session.flushRecording()
        run.cancel()
        await run.value
        return lines.text
    }

    @Test("an InkSession on a manual clock, recorded and replayed: every touch the same owner, reason, samples and ink")
    func inkSessionIdentity() async throws {
        let text = await Self.recordSession()
        let log = try SessionLog.parse(text, file: "live.jsonl").get()
        #expect(log.header.isRecording && log.header.version == 3 && log.header.exercise == "math/decimals/3.5")
        #expect(log.header.engineConfiguration?.decisionTimeout == 0.25 && log.header.engineConfiguration?.useRegionCache == true)
        let decided = log.events.compactMap { if case let .recorded(.decided(touch, owner, reason, _), _) = $0 { (touch.platform.rawValue, owner, reason) } else { nil } }
        #expect(decided.map(\.0) == [1, 2, 3, 4, 5])
        #expect(decided.map(\.2) == [.regionCache, .regionCache, .answered, .deadline, .flushed], "\(decided)")
        // The touch still down was cancelled when the session stopped: recorded as the input it was.
        let finished = log.events.compactMap { if case let .recorded(.finished(touch, ledger, _, _), _) = $0 { (touch.platform.rawValue, ledger) } else { nil } }
        #expect(finished.first { $0.0 == 7 }?.1.cancelled == 2, "\(finished)")
        let report = SessionReplayer().replay(log, file: "live.jsonl")
        #expect(report.isIdentical, "\(report.identity ?? "no identity")")
        #expect(report.divergence == nil && report.isVerified, "\(report.failures) \(report.issues)")
        // Written back through InkRecording's writer (the same encoder), it reads back equal.
        #expect(try SessionLog.parse(log.jsonLines()).get().events == log.events)
    }

    @Test("the recorded timeout edited in the header: the replay names the touch whose decision changed, and fails")
    func changedTimeout() async throws {
        let text = await Self.recordSession()
        #expect(text.contains(#""decision_timeout":0.25"#))
        // Unchained (version 2): the chain would refuse the edited header at line 2 already.
        let edited = unchained(text).replacingOccurrences(of: #""decision_timeout":0.25"#, with: #""decision_timeout":0.6"#)
        let report = SessionReplayer().replay(try SessionLog.parse(edited, file: "edited.jsonl").get(), file: "edited.jsonl")
        #expect(!report.isVerified && !report.isIdentical)
        let divergence = try #require(report.divergence)
        #expect(divergence.contains("touch 4") && divergence.contains("deadline"), "\(divergence)")
        #expect(report.divergenceLine != nil)
    }

    @Test("the region cache turned off for the replay (another configuration than recorded): caught at the first touch")
    func changedCache() async throws {
        let text = await Self.recordSession()
        var configuration = ReplayConfiguration()
        configuration.usesRecordedEngine = false   // the replay's own engine: region cache off
        let report = SessionReplayer(configuration: configuration).replay(try SessionLog.parse(text).get())
        let divergence = try #require(report.divergence)
        #expect(divergence.contains("touch 1") && divergence.contains("regionCache"), "\(divergence)")
    }

    @Test("a recording whose sink fell behind carries a dropped line, and no identity is claimed over it")
    func droppedRecording() async throws {
        let text = await Self.recordSession(closeSinkAfterFirstTouch: true)
        let log = try SessionLog.parse(text).get()
        #expect(log.events.contains { if case .recorded(.dropped, _) = $0 { true } else { false } })
        let report = SessionReplayer().replay(log)
        #expect(!report.isIdentical && report.identity?.contains("dropped") == true, "\(report.identity ?? "")")
    }
}
