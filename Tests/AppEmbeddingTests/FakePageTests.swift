import HitTestBridge
import InkCore
import InkTesting
import Testing

/// The shell an app's tests use: InkTesting's, which records what the loop asked of it.
private typealias Asking = RecordingShell

@Suite("FakePage: the page script's messages for an app's tests")
struct FakePageTests {
    private static func asked() throws -> (InkLoop, Asking, HitTestRequest) {
        let shell = Asking()
        let loop = InkLoop(clock: ManualClock(start: 1), seed: 1)
        loop.shell = shell
        loop.submit(.touch(TouchEvent(touch: PlatformTouchID(4), phase: .began,
                                      samples: [TouchSample(x: 30, y: 30, timestamp: 1, tool: .pencil)])))
        return (loop, shell, try #require(shell.sent.first))
    }

    private static func decisions(_ shell: Asking) -> [DecisionReason] {
        shell.events.compactMap { if case let .decided(_, _, reason)? = $0.action { reason } else { nil } }
    }

    @Test("an answer naming a document the page script can name is taken")
    func validDocument() throws {
        let (loop, shell, request) = try Self.asked()
        loop.submit(.pageMessage(FakePage.answer(to: request, verdict: .ink, document: "page-A")))
        #expect(Self.decisions(shell) == [.answered])
        #expect(loop.metrics.malformedMessages == 0)
    }

    @Test("an answer naming a document id the page script never writes reaches the engine as written, and is refused (failed before: the id was dropped and the answer taken)",
          arguments: ["", String(repeating: "x", count: 200), "p\u{7}"])
    func invalidDocument(document: String) throws {
        let (loop, shell, request) = try Self.asked()
        let message = FakePage.answer(to: request, verdict: .ink, document: document)
        #expect(message.contains(#""document":"#))
        loop.submit(.pageMessage(message))
        #expect(Self.decisions(shell).isEmpty)           // nothing decided by a refused message
        #expect(loop.metrics.malformedMessages == 1)
        let snapshot = FakePage.regions([FakePage.Region(x: 0, y: 0, width: 10, height: 10)], document: document)
        loop.submit(.pageMessage(snapshot))
        #expect(loop.metrics.malformedMessages == 2)
    }

    @Test("a page restored from the back/forward cache, written with FakePage (shown): after Next and Back its button routes to it again and its answer is taken")
    func restoredPage() throws {
        let clock = ManualClock(start: 1)
        let loop = InkLoop(configuration: InkEngineConfiguration(routing: .decideAtTouchDown), clock: clock, seed: 4)
        let shell = RecordingShell()
        loop.shell = shell
        let button = [FakePage.Region(x: 300, y: 500, width: 200, height: 100)]
        let a = "aaaaaaaaaaaaaaaa", b = "bbbbbbbbbbbbbbbb"
        #expect(FakePage.regions(button, document: a, shown: true).contains(#""shown":true"#))
        loop.submit(.pageMessage(FakePage.regions(button, document: a, shown: true)))
        clock.advance(to: 2)
        loop.submit(.newDocument(.identity))                                             // Next
        loop.submit(.pageMessage(FakePage.regions([], document: b, shown: true)))
        #expect(loop.route(at: CanvasPoint(x: 400, y: 550), tool: .finger) == .ink)
        clock.advance(to: 3)
        loop.submit(.newDocument(.identity))                                             // Back
        loop.submit(.pageMessage(FakePage.regions(button, generation: 2, document: a, shown: true)))
        #expect(loop.route(at: CanvasPoint(x: 400, y: 550), tool: .finger) == .page)
        loop.stop()
        #expect(loop.ledger.isBalanced)
    }
}
