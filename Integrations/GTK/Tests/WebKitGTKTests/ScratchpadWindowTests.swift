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

@Suite("The GTK front end: a session played into the real window", .enabled(if: displayPresent, "no display (run under xvfb-run -a)"), .serialized)
struct ScratchpadWindowTests {
    @Test("drag a block, then write 3.5: the page's own handlers move the block, 3, . and 5 are three strokes, nothing is lost",
          arguments: [true, false])
    func dragThenDecimal(cache: Bool) throws {
        let log = try fixtureSession("blocks-then-3-5.jsonl")
        try GTKThread.shared.run {
            let window = try ScratchpadWindow(options: .init(bridge: BridgeConfiguration(useCache: cache)))
            try window.show(loading: fixturePage("blocks.html"))
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
            #expect(window.framesDrawn > 0)
            if let png = window.screenshot(), cache {
                let out = ProcessInfo.processInfo.environment["SCRATCHPAD_SCREENSHOT"] ?? NSTemporaryDirectory() + "scratchpad-gtk-blocks.png"
                try OutputFile.write(bytes: png, to: out)
            }
        }
    }
}
