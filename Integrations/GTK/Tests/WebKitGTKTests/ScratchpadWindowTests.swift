import CWebKitGTK
import Foundation
@_spi(Tooling) import GTKLogPlayer
@_spi(Tooling) import GTKScratchpad
@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkCore
@_spi(Tooling) import InkRecording
import Testing
@_spi(Tooling) import WebKitGTKOracle

func fixtureSession(_ name: String) throws -> SessionLog {
    try SessionLog.read(contentsOf: repositoryRoot.appendingPathComponent("Fixtures/strokes/\(name)").path).get()
}

extension WebKitGTK {
    @Suite("The GTK front end: a session played into the real window", .serialized)
    struct ScratchpadWindowTests {
        @Test("hand-over routing (the Android-like mode): drag a block, then write 3.5: the page's own handlers move the block, 3, . and 5 are three strokes, nothing is lost",
              arguments: [("blocks.html", true), ("blocks.html", false), ("hostile.html", false)])
        func dragThenDecimal(name: String, cache: Bool) throws {
            let log = try fixtureSession("blocks-then-3-5.jsonl")
            try GTKThread.shared.run {
                let window = try ScratchpadWindow(options: .init(configuration: InkEngineConfiguration(useRegionCache: cache,
                                                                                                       routing: .handOverAfterDecision)))
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
                    try OutputFile.write(bytes: png, to: out, inputs: [])
                }
            }
        }

        /// A tap, as a session log: down and up 60 ms later, by `tool`.
        func tap(x: Double, y: Double, tool: ToolKind) -> SessionLog {
            let down = TouchSample(x: x, y: y, timestamp: 0, tool: tool), up = TouchSample(x: x, y: y, timestamp: 0.06, tool: tool)
            return SessionLog(header: SessionHeader(canvas: CanvasSize(width: 1024, height: 768)), events: [
                .touch(TouchEvent(touch: PlatformTouchID(1), phase: .began, samples: [down]), time: 0),
                .touch(TouchEvent(touch: PlatformTouchID(1), phase: .ended, samples: [up]), time: 0.06),
            ])
        }

        @Test("a tap on the answer field with a fresh snapshot, by finger (touch events) or by mouse (button events): routed to the page at touch-down, it gives the field focus natively",
              arguments: [ToolKind.finger, .pencil])
        func tapFocusesTheField(tool: ToolKind) throws {
            try GTKThread.shared.run {
                let window = try ScratchpadWindow()
                try window.show(loading: fixturePage("blocks.html"))
                #expect(try window.page.evaluate("document.activeElement ? document.activeElement.id : ''", inPageWorld: true) == "\"\"")
                var player = LogPlayer()
                _ = player.play(tap(x: 720, y: 116, tool: tool), into: window)
                let report = window.finish()
                #expect(report.isVerified && report.outcomes.map(\.verdict) == [.page], "\(report.verificationFailures)")
                #expect(report.outcomes.map(\.reason) == [.routedAtTouchDown] && report.outcomes.first?.releasedNatively == true)
                #expect(report.ledger.releasedNatively == 2 && report.ledger.received == 2)
                #expect(report.pageEventsDispatched == 0 && report.replays == 0)  // the web view had the touch itself
                #expect(try window.page.evaluate("document.activeElement ? document.activeElement.id : ''", inPageWorld: true) == "\"answer-field\"")
            }
        }

        @Test("dragging the number line's handle: the page's handler places it at 0.75; the tick is ink")
        func numberLine() throws {
            let log = try fixtureSession("number-line-0-75.jsonl")
            try GTKThread.shared.run {
                let window = try ScratchpadWindow()
                try window.show(loading: fixturePage("number-line.html"))
                var player = LogPlayer()
                _ = player.play(log, into: window)
                let report = window.finish()
                #expect(report.isVerified, "\(report.problems)")
                #expect(try window.page.bodyData("value") == "0.75")
                #expect(try window.page.bodyData("drags") == "1")
                #expect(report.outcomes.map(\.verdict) == [.page, .ink])
            }
        }

        @Test("ink redraws only what changed: each frame repaints the new piece of stroke, not the canvas, played as written or three times faster",
              arguments: [1.0, 3.0])
        func redrawsOnlyTheChangedBounds(speed: Double) throws {
            let log = try fixtureSession("long-stroke.jsonl")
            try GTKThread.shared.run {
                let window = try ScratchpadWindow()
                try window.show(loading: fixturePage("blocks.html"))
                // Played faster, several GDK events reach the window in one go. When samples
                // were stamped with the time the window took them (GTK.now), the samples of one
                // burst looked almost simultaneous, their speed and prediction exploded, and so
                // did the changed bounds: at 3x an average frame repainted 27-37 % of the
                // canvas. They carry their events' own times now (2.0 % at 3x, 0.7 % at 1x).
                var player = LogPlayer(speed: speed)
                _ = player.play(log, into: window)
                let report = window.finish()
                #expect(report.isVerified && report.strokes == 1)
                #expect(window.framesDrawn > 10)
                let average = window.redrawnArea / Double(window.framesDrawn)
                #expect(average < 0.05 * 1024 * 768, "\(average) square points a frame over \(window.framesDrawn) frames")
            }
        }

        @Test("two fingers on the scratch paper scroll the long worksheet (the window scrolls the page by the lead finger); the bridge follows; the writing after them is ink")
        func scrollThenWrite() throws {
            let log = try fixtureSession("scroll-then-write.jsonl")
            try GTKThread.shared.run {
                let window = try ScratchpadWindow()
                try window.show(loading: fixturePage("long.html"))
                var player = LogPlayer()
                _ = player.play(log, into: window)
                let report = window.finish()
                #expect(report.isVerified, "\(report.problems)")
                #expect(report.outcomes.map(\.verdict) == [.page, .page, .ink, .ink, .ink, .ink])
                #expect(report.outcomes[0].reason == .multiTouchGesture || report.outcomes[1].reason == .multiTouchGesture)
                #expect(report.strokes == 4)
                // The window scrolled the page by the gesture, and the bridge followed it.
                let scrolled = Double(try window.page.evaluate("window.scrollY", inPageWorld: true) ?? "") ?? 0
                #expect(scrolled > 200 && scrolled <= 420, "scrolled \(scrolled)")
                #expect(abs(window.transform.offsetY - scrolled) < 16, "bridge \(window.transform.offsetY), page \(scrolled)")
            }
        }
    }
}
