import Foundation
import Testing
@_spi(Tooling) import InkCore
@_spi(Tooling) import HitTestBridge

/// `ink-replay verify` over a live recording in which the page's document was replaced.
@Suite("verify: a recording with a page load in it")
struct PageLifecycleVerifyTests {
    final class Sink: @unchecked Sendable {
        private let lock = NSLock()
        private var bytes: [UInt8] = []
        func offer(_ piece: [UInt8]) -> Bool { lock.withLock { bytes += piece }; return true }
        var data: Data { lock.withLock { Data(bytes) } }
    }

    @Test("a question abandoned by a new document, the old page's late answer, the new page's snapshots: verify replays it identically")
    func verifyNewDocument() throws {
        let old = try PageDocumentID("0a0a0a0a0a0a0a0a"), new = try PageDocumentID("0b0b0b0b0b0b0b0b")
        let field = [PageRegion(x: 300, y: 500, width: 200, height: 100, element: "field")]
        let sink = Sink()
        var recorder = SessionRecorder(canvasWidth: 800, canvasHeight: 600, sink: sink.offer)
        var engine = InkEngine(configuration: InkEngineConfiguration(routing: .decideAtTouchDown), seed: 3)
        recorder.begin(engine)
        var events: [EngineEvent] = []
        var sent: [HitTestRequest] = []
        func take(_ input: EngineInput, _ time: Double) {
            let start = events.count
            engine.take(input, now: time, into: &events)
            recorder.record(input, at: time, events: events[start...])
            for event in events[start...] { if case let .send(request, _) = event.kind { sent.append(request) } }
        }
        func pen(_ touch: UInt64, _ phase: TouchPhase, _ x: Double, _ y: Double, _ t: Double) -> EngineInput {
            .touch(TouchEvent(touch: PlatformTouchID(touch), phase: phase, samples: [TouchSample(x: x, y: y, timestamp: t, tool: .pencil)]))
        }
        take(.pageMessage(PageMessage.regions(RegionSnapshot(generation: 1, maxAge: 0.2, regions: field, document: old)).json), 0.5)
        take(.layout(.identity, generation: 250), 0.6)
        take(pen(1, .began, 100, 100, 1.0), 1.0)                     // no fresh snapshot: tentative ink, asked
        take(pen(1, .moved, 110, 100, 1.01), 1.01)
        take(.newDocument(.identity), 1.02)                           // the fallback decides it now
        take(pen(1, .ended, 120, 100, 1.03), 1.03)
        let question = try #require(sent.first)
        take(.pageMessage(PageMessage.answer(PageAnswer(token: question.token, verdict: .page, generation: question.generation,
                                                        document: old)).json), 1.1)
        take(.pageMessage(PageMessage.regions(RegionSnapshot(generation: 1, maxAge: 1, regions: field, document: new)).json), 1.2)
        #expect(engine.route(at: CanvasPoint(x: 400, y: 550), tool: .pencil, now: 1.3) == .page)
        take(.nativePageTouch(TouchEvent(touch: PlatformTouchID(2), phase: .began, samples: [TouchSample(x: 400, y: 550, timestamp: 1.3)])), 1.3)
        take(.nativePageTouch(TouchEvent(touch: PlatformTouchID(2), phase: .ended, samples: [])), 1.35)
        recorder.recordEnd(at: engine.now, ledger: engine.ledger)   // the recording is whole
        recorder.flush()
        #expect(engine.bridgeMetrics.oldDocumentAnswers == 1 && engine.bridgeMetrics.abandonedByNewDocument == 1)

        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("page-load.jsonl")
        try sink.data.write(to: file)
        let verify = try CLITests.run("verify", file.path)
        #expect(verify.status == 0 && verify.stdout.contains("identity: 1 of 1"), "\(verify.stdout)\(verify.stderr)")
    }
}
