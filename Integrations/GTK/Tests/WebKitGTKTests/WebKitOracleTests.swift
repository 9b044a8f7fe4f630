import CWebKitGTK
import Foundation
import HitTestBridge
import InkCore
import Testing
import WebKitGTKOracle

extension WebKitGTK {
    @Suite("WebKitGTKOracle: an InkSession asking a real WebKit page", .serialized)
    struct WebKitOracleTests {
        /// A finger on block 2 and a pencil on empty paper, through an InkSession whose
        /// transport is the oracle: both decided by the page's answers, not by the deadline.
        @Test("an InkSession over the oracle: the page answers through the handler; the block is the page's, the paper is ink",
              arguments: ["blocks.html", "hostile.html"])
        func sessionAsksThePage(name: String) async throws {
            let (oracle, window) = try GTKThread.shared.run {
                let page = try WebKitGTKPage()
                let window = UInt(bitPattern: page.showInWindow())
                try page.load(fixturePage(name))
                return (WebKitGTKOracle(page: page), window)
            }
            defer { _ = try? GTKThread.shared.run { gtk_widget_destroy(UnsafeMutablePointer<GtkWidget>(bitPattern: window)) } }
            let (actions, sink) = AsyncStream.makeStream(of: RouterAction.self)
            // Deadlines far beyond a round trip: the reasons say the page answered, however
            // busy the machine.
            let session = InkSession(router: TouchRouterConfiguration(decisionTimeout: 5), bridge: BridgeConfiguration(timeout: 5, useCache: false),
                                     oracle: oracle, clock: GTKClock()) { batch in
                for action in batch { sink.yield(action) }
            }
            let forwarding = Task { for await message in oracle.messages { _ = await session.receive(message) } }
            defer { forwarding.cancel() }

            let now = GTK.now
            try await session.handle(TouchEvent(touch: TouchID(1), phase: .began, samples: [TouchSample(x: 288, y: 348, timestamp: now, tool: .finger)]))
            try await session.handle(TouchEvent(touch: TouchID(1), phase: .ended, samples: [TouchSample(x: 289, y: 349, timestamp: now + 0.001, tool: .finger)]))
            try await session.handle(TouchEvent(touch: TouchID(2), phase: .began, samples: [TouchSample(x: 700, y: 500, timestamp: now + 0.002, tool: .pencil)]))
            try await session.handle(TouchEvent(touch: TouchID(2), phase: .ended, samples: [TouchSample(x: 702, y: 501, timestamp: now + 0.003, tool: .pencil)]))

            var decisions: [TouchID: (HitTestVerdict, DecisionReason)] = [:]
            var finished = 0
            for await action in actions {
                if case let .decided(id, verdict, reason) = action { decisions[id] = (verdict, reason) }
                if case .touchFinished = action { finished += 1 }
                if finished == 2 { break }
            }
            #expect(decisions[TouchID(1)]?.0 == .page && decisions[TouchID(1)]?.1 == .answered, "\(decisions)")
            #expect(decisions[TouchID(2)]?.0 == .ink && decisions[TouchID(2)]?.1 == .answered, "\(decisions)")
            let metrics = await session.metrics
            #expect(metrics.bridge.unknownAnswers == 0)  // nothing the hostile page forged got in
            #expect(await session.ledger.isBalanced)
        }
    }
}
