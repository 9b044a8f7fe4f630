import CWebKitGTK
import Foundation
@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkCore
import Testing
@_spi(Tooling) import WebKitGTKOracle
@_spi(Tooling) import GTKLogPlayer

extension WebKitGTK {
    @Suite("WebKitGTKOracle: an InkSession asking a real WebKit page", .serialized)
    struct WebKitOracleTests {
        /// A finger on block 2 and a pencil on empty paper, through an InkSession whose
        /// transport is the oracle: both decided by the page's answers, not by the deadline,
        /// and every sample accounted for by the audit over the session's events.
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
            // Deadlines far beyond a round trip: the reasons say the page answered, however
            // busy the machine.
            let session = InkSession(configuration: InkEngineConfiguration(decisionTimeout: 5, useRegionCache: false)) {
                try await oracle.send($0)
            }
            let running = Task { await session.run() }
            defer { running.cancel() }
            let forwarding = Task { for await message in oracle.messages { session.submit(.pageMessage(message)) } }
            defer { forwarding.cancel() }
            // One task reads the events, in order, until the session stops.
            let reading = Task {
                var audit = DeliveryAudit()
                var decisions: [(touch: EngineTouch, verdict: HitTestVerdict, reason: DecisionReason)] = []
                for await batch in session.events {
                    for event in batch {
                        audit.observe(event)
                        if case let .decided(_, verdict, reason)? = event.action, let touch = event.engineTouch {
                            decisions.append((touch, verdict, reason))
                        }
                    }
                }
                // In the order the touches began (the engine numbers them so).
                return (audit, decisions.sorted { $0.touch.engine.rawValue < $1.touch.engine.rawValue })
            }

            // A finger on block 2, then a pencil on empty paper under the same platform id
            // (reused as soon as the finger lifted): the session tells them apart.
            let now = GTK.now
            session.submit([
                .touch(TouchEvent(touch: PlatformTouchID(1), phase: .began, samples: [TouchSample(x: 288, y: 348, timestamp: now, tool: .finger)])),
                .touch(TouchEvent(touch: PlatformTouchID(1), phase: .ended, samples: [TouchSample(x: 289, y: 349, timestamp: now + 0.001, tool: .finger)])),
                .touch(TouchEvent(touch: PlatformTouchID(1), phase: .began, samples: [TouchSample(x: 700, y: 500, timestamp: now + 0.002, tool: .pencil)])),
                .touch(TouchEvent(touch: PlatformTouchID(1), phase: .ended, samples: [TouchSample(x: 702, y: 501, timestamp: now + 0.003, tool: .pencil)])),
            ])
            await session.settled()
            let metrics = await session.metrics
            let ledger = await session.ledger
            running.cancel()  // the session stops; its events end
            let (finalAudit, decisions) = await reading.value
            var audit = finalAudit
            #expect(audit.close().isEmpty)  // every touch finished
            #expect(audit.verify(against: ledger).isEmpty, "\(audit.verify(against: ledger))")
            #expect(ledger.received == 4 && ledger.released == 2 && ledger.inked == 2 && ledger.refused == 0, "\(ledger)")

            #expect(decisions.map(\.touch.platform.rawValue) == [1, 1] && Set(decisions.map(\.touch.engine)).count == 2, "\(decisions)")
            #expect(decisions.map(\.verdict) == [.page, .ink] && decisions.map(\.reason) == [.answered, .answered], "\(decisions)")
            #expect(metrics.bridge.unknownAnswers == 0)  // nothing the hostile page forged got in
            #expect(metrics.auditFailures.isEmpty, "\(metrics.auditFailures)")
        }
    }
}
