import CWebKitGTK
import Foundation
@_spi(Tooling) import GTKLogPlayer
@_spi(Tooling) import GTKScratchpad
@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkCore
@_spi(Tooling) import InkRecording
import Testing
@_spi(Tooling) import WebKitGTKOracle

/// A session log built in code, 16 ms between events.
func scripted(_ touches: [(id: UInt64, tool: ToolKind, phase: TouchPhase, x: Double, y: Double)]) -> SessionLog {
    var events: [SessionEvent] = []
    for (index, touch) in touches.enumerated() {
        let t = Double(index) * 0.016
        let samples = touch.phase == .cancelled ? [] : [TouchSample(x: touch.x, y: touch.y, timestamp: t, tool: touch.tool)]
        events.append(.touch(TouchEvent(touch: PlatformTouchID(touch.id), phase: touch.phase, samples: samples), time: t))
    }
    return SessionLog(header: SessionHeader(canvas: CanvasSize(width: 1024, height: 768)), events: events)
}

extension WebKitGTK {
    @Suite("Lifetimes, cancels and scrolling", .serialized)
    struct LifecycleTests {
        @Test("GTKThread runs every job on its own thread, the first one included")
        func jobsRunOnTheGTKThread() throws {
            #expect(!GTKThread.shared.isCurrent)
            #expect(try GTKThread.shared.run { GTKThread.shared.isCurrent && GTK.isGTKThread })
        }

        @Test("the page's message queue keeps the newest, up to its limit (at least 1), and counts what it dropped")
        func messageLimit() throws {
            try GTKThread.shared.run {
                let page = try WebKitGTKPage()
                let window = page.showInWindow()
                defer { gtk_widget_destroy(window) }
                page.messageLimit = 0
                #expect(page.messageLimit == 1)
                page.messageLimit = 3
                try page.load(fixturePage("hostile.html"))  // its churn makes the page script post a snapshot every 100 ms
                GTK.spin(timeout: 5) { page.droppedMessages > 0 }
                #expect(page.heldMessages == 3 && page.droppedMessages > 0)
                let held = page.takePostedMessages().compactMap { message -> UInt64? in
                    if case let .success(.regions(snapshot)) = message.decoded { snapshot.generation } else { nil }
                }
                #expect(held.count == 3 && held == held.sorted() && page.receivedMessages == 3 + page.droppedMessages)
            }
        }

        @Test("a page or a window freed with work in flight lets WebKit finish it first (no crash)")
        func freedWithWorkInFlight() throws {
            try GTKThread.shared.run {
                var page: WebKitGTKPage? = try WebKitGTKPage()
                let holder = page!.showInWindow()
                try page!.load(fixturePage("blocks.html"))
                page!.evaluate("1 + 1") { _ in }
                page = nil
                gtk_widget_destroy(holder)
                var window: ScratchpadWindow? = try ScratchpadWindow(options: .init(configuration: InkEngineConfiguration(useRegionCache: false)))
                try window!.show(loading: fixturePage("blocks.html"))
                window!.deliver(.touch(TouchEvent(touch: PlatformTouchID(5), phase: .began,
                                                  samples: [TouchSample(x: 288, y: 348, timestamp: GTK.now, tool: .finger)])))
                #expect(window!.engine.waitingQuestions == 1)  // a question is out
                window = nil
                GTK.spin(for: 0.5)  // its answer and the evaluation's completion arrive to nobody
            }
        }

        @Test("a pencil touch cancelled, and a pointer whose release was lost: cancelled, not inked, nothing refused or dropped")
        func cancels() throws {
            try GTKThread.shared.run {
                let window = try ScratchpadWindow()
                try window.show(loading: fixturePage("blocks.html"))
                var player = LogPlayer(settle: 0.1)
                // A pencil stroke the system cancels (played as the pointer's grab taken away).
                _ = player.play(scripted([(1, .pencil, .began, 700, 500), (1, .pencil, .moved, 710, 505), (1, .pencil, .cancelled, 0, 0)]), into: window)
                // A press whose release never came, then another press: the first is cancelled.
                window.platformPointer(GDK_BUTTON_PRESS, 650, 600)
                window.platformPointer(GDK_BUTTON_PRESS, 660, 610)
                window.platformPointer(GDK_BUTTON_RELEASE, 661, 611)
                GTK.spin(timeout: 2) { window.engine.waitingQuestions == 0 }
                let report = window.finish()
                #expect(report.isVerified, "\(report.refusals) \(report.problems)")
                #expect(report.outcomes.map(\.cancelled) == [true, true, false], "\(report.outcomes)")
                #expect(report.strokes == 1 && report.refusedSamples == 0 && report.ledger.dropped == 0)
            }
        }

        @Test("GDK reuses a touch sequence: the engine names two touches; a move for a sequence not down is refused and counted")
        func reusedSequenceAndRefusal() throws {
            try GTKThread.shared.run {
                let window = try ScratchpadWindow()
                try window.show(loading: fixturePage("blocks.html"))
                for x in [700.0, 760] {  // on empty paper, one finger after the other, the same sequence
                    window.platformTouch(GDK_TOUCH_BEGIN, x, 500, 77)
                    window.platformTouch(GDK_TOUCH_UPDATE, x + 10, 505, 77)
                    window.platformTouch(GDK_TOUCH_END, x + 12, 506, 77)
                    GTK.spin(timeout: 2) { window.engine.waitingQuestions == 0 }
                    GTK.spin(for: 0.2)  // past the gesture window
                }
                var report = window.report
                #expect(report.isVerified, "\(report.verificationFailures)")
                // A move for a sequence that is not down: refused, and its sample counted.
                window.platformTouch(GDK_TOUCH_UPDATE, 300, 600, 78)
                report = window.finish()
                #expect(report.outcomes.map(\.touch) == [PlatformTouchID(77), PlatformTouchID(77)], "\(report.outcomes)")
                #expect(Set(report.outcomes.map(\.engineID)).count == 2 && report.outcomes.map(\.verdict) == [.ink, .ink])
                #expect(report.strokes == 2)
                #expect(report.refusedInputs == 1 && report.refusals.count == 1 && report.refusedSamples == 1, "\(report.refusals)")
                #expect(report.ledger.received == 7 && report.ledger.inked == 6 && report.ledger.refused == 1 && report.ledger.dropped == 0,
                        "\(report.ledger)")
                #expect(!report.isVerified && report.verificationFailures.contains { $0.contains("refused") }, "\(report.verificationFailures)")
            }
        }

        @Test("a touch still down when the window finishes is settled: nothing pending, nothing dropped")
        func finishWithATouchDown() throws {
            try GTKThread.shared.run {
                let window = try ScratchpadWindow()
                try window.show(loading: fixturePage("blocks.html"))
                window.platformPointer(GDK_BUTTON_PRESS, 700, 500)
                window.platformPointer(GDK_MOTION_NOTIFY, 720, 510)
                let report = window.finish()
                #expect(report.isVerified && report.ledger.received == 2 && report.ledger.dropped == 0, "\(report.ledger)")
            }
        }

        @Test("a wheel scroll over the overlay scrolls the page, and the bridge follows it once the scroll has landed")
        func wheelScroll() throws {
            try GTKThread.shared.run {
                let window = try ScratchpadWindow()
                try window.show(loading: fixturePage("long.html"))
                // A wheel event that reaches the web process before its first frame is composited
                // can be dropped by WebKit itself (seen in a fresh-clone CI run under Xvfb),
                // so a wheel that scrolled nothing after two seconds is sent again, up to three
                // times; the page must still scroll, and the bridge must still follow it.
                var scrolled = 0.0
                attempts: for _ in 0..<3 {
                    _ = scratchpad_send_scroll(window.canvas, 500, 400, 0, 3, 0)
                    for _ in 0..<10 {
                        GTK.spin(for: 0.2)
                        scrolled = Double(try window.page.evaluate("window.scrollY", inPageWorld: true) ?? "") ?? 0
                        if scrolled > 0, abs(window.transform.offsetY - scrolled) < 0.5 { break attempts }
                    }
                    if scrolled > 0 { break }
                }
                #expect(scrolled > 0, "the wheel did not scroll the page")
                #expect(abs(window.transform.offsetY - scrolled) < 0.5, "bridge \(window.transform.offsetY), page \(scrolled)")
                // And it stays with the page once the scroll is over.
                GTK.spin(for: 1)
                let final = Double(try window.page.evaluate("window.scrollY", inPageWorld: true) ?? "") ?? 0
                #expect(abs(window.transform.offsetY - final) < 0.5, "bridge \(window.transform.offsetY), page \(final)")
            }
        }

        @Test("closing the window stops a replay; a destroyed window draws nothing and frees cleanly")
        func closing() throws {
            try GTKThread.shared.run {
                let window = try ScratchpadWindow()
                try window.show(loading: fixturePage("blocks.html"))
                gtk_window_close(UnsafeMutableRawPointer(window.window).assumingMemoryBound(to: GtkWindow.self))
                GTK.spin(timeout: 2) { window.closeRequested }
                #expect(window.closeRequested && !window.isDestroyed)
                var player = LogPlayer(settle: 0)
                let played = player.play(try fixtureSession("decimal-point.jsonl"), into: window)
                #expect(played.stoppedByClose && played.events == 0)
                #expect(window.screenshot() != nil)  // still there until freed
                gtk_widget_destroy(window.window)
                #expect(window.isDestroyed && window.screenshot() == nil)
                #expect(window.finish().isVerified)
            }
        }
    }
}

extension ScratchpadWindow {
    /// A synthesized touch event on the overlay, delivered as the display server would
    /// (the window's observer sees it first).
    func platformTouch(_ type: GdkEventType, _ x: Double, _ y: Double, _ sequence: UInt64) {
        guard let event = scratchpad_make_touch(canvas, type, x, y, sequence, 0) else { return }
        defer { gdk_event_free(event) }
        dispatchAsPlatform(event, to: canvas)
    }

    /// A synthesized primary-button event on the overlay, delivered as the display server would.
    func platformPointer(_ type: GdkEventType, _ x: Double, _ y: Double) {
        guard let event = scratchpad_make_pointer(canvas, type, x, y, 0) else { return }
        defer { gdk_event_free(event) }
        dispatchAsPlatform(event, to: canvas)
    }
}
