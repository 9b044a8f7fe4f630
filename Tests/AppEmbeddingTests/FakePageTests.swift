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
}
