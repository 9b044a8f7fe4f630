import CWebKitGTK
import Foundation
import GTKScratchpad
import HitTestBridge
import InkCore
import InkRecording
import SessionReplay
import Testing
import WebKitGTKOracle

func fixtureSession(_ name: String) throws -> SessionLog {
    try SessionLog.read(contentsOf: repositoryRoot.appendingPathComponent("Fixtures/strokes/\(name)").path).get()
}

extension WebKitGTK {
    @Suite("The GTK front end: a session played into the real window", .serialized)
    struct ScratchpadWindowTests {
        @Test("drag a block, then write 3.5: the page's own handlers move the block, 3, . and 5 are three strokes, nothing is lost",
              arguments: [("blocks.html", true), ("blocks.html", false), ("hostile.html", false)])
        func dragThenDecimal(name: String, cache: Bool) throws {
            let log = try fixtureSession("blocks-then-3-5.jsonl")
            try GTKThread.shared.run {
                let window = try ScratchpadWindow(options: .init(bridge: BridgeConfiguration(useCache: cache)))
                try window.show(loading: fixturePage(name))
                var player = LogPlayer()
                let played = player.play(log, into: window)
                let report = window.finish()
                #expect(report.isVerified, "\(report.problems) \(report.ledger) \(report.auditLedger)")
                #expect(report.ledger.dropped == 0 && report.ledger.received == 241, "\(report.ledger)")
                #expect(played.samples == 241 && played.events == 241)
                #expect(report.refusals.isEmpty, "\(report.refusals)")
                #expect(try window.page.bodyData("order") == "block-1,block-3,block-4,block-2")
                #expect(try window.page.bodyData("drags") == "1")
                #expect(report.outcomes.map(\.verdict) == [.page, .ink, .ink, .ink])
                #expect(report.strokes == 3)
                let dot = report.outcomes[2]
                #expect(dot.samples == 4 && dot.firstInkLatency != nil)
                if cache {
                    #expect(report.bridge.cacheHits == 4 && report.roundTrips.isEmpty, "\(report.bridge)")
                } else {
                    #expect(report.bridge.cacheHits == 0 && report.roundTrips.count >= 4, "\(report.bridge) \(report.roundTrips)")
                }
                #expect(report.pageEventsDispatched == 44)  // the drag's 43 samples, and its end
                if name == "hostile.html" {
                    // Its scripts ran (forging on every channel, churning, flooding the console),
                    // nothing forged reached the bridge, and every verdict is the page's answer.
                    #expect(Int(try window.page.bodyData("forged") ?? "0") ?? 0 > 100)
                    #expect(report.bridge.unknownAnswers == 0 && report.refusedMessages == 0, "\(report.bridge)")
                    #expect(report.outcomes.map(\.reason) == [.answered, .answered, .answered, .answered])
                }
                #expect(window.framesDrawn > 0)
                if let png = window.screenshot(), cache, name == "blocks.html" {
                    let out = ProcessInfo.processInfo.environment["SCRATCHPAD_SCREENSHOT"] ?? NSTemporaryDirectory() + "scratchpad-gtk-blocks.png"
                    try OutputFile.write(bytes: png, to: out)
                }
            }
        }
    }
}
