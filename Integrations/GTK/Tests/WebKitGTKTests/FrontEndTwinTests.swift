import CWebKitGTK
import Foundation
@_spi(Tooling) import GTKLogPlayer
@_spi(Tooling) import GTKScratchpad
@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkCore
@_spi(Tooling) import InkRecording
import Testing
@_spi(Tooling) import WebKitGTKOracle

extension WebKitGTK {
    /// The iPad front end's cases (issue 38), shown in its GTK twin on the real screen: a pen
    /// stroke beside a resting finger, a front end replaced mid-session, one-finger scrolling
    /// in pencil-only mode, a window resized mid-stroke. The real pointer (XTest) is the pen;
    /// fingers are GDK touch sequences played into the window the way the display server
    /// hands them over (``LogPlayer``: the observer first, then the widget under them).
    @Suite("The iPad front end's twin on the real screen", .serialized)
    struct FrontEndTwinTests {
        typealias Screen = RealScreenTests

        static func finger(_ id: UInt64, _ phase: TouchPhase, at point: CanvasPoint, time: Double) -> SessionEvent {
            .touch(TouchEvent(touch: PlatformTouchID(id), phase: phase, samples: [TouchSample(x: point.x, y: point.y, timestamp: time)]),
                   time: time)
        }

        static func log(_ events: [SessionEvent]) -> SessionLog {
            SessionLog(header: SessionHeader(canvas: CanvasSize(width: 1024, height: 768)), events: events)
        }

        static func pageNumber(_ window: ScratchpadWindow, _ script: String) -> Double {
            Double((try? window.page.evaluate(script, inPageWorld: true)).flatMap { $0 } ?? "") ?? .nan
        }

        @Test("a pen stroke (the real pointer) while a finger rests on a block: both reach the engine; the finger is the page's, natively, and the pen's stroke is inked in full and shows on the real screen")
        func penBesideRestingFinger() throws {
            try GTKThread.shared.run {
                guard scratchpad_xtest_available() != 0 else {
                    Issue.record("no XTest on this display")
                    return
                }
                let window = try Screen.open("blocks.html")
                var fingers = LogPlayer(settle: 0)
                _ = fingers.play(Self.log([Self.finger(1, .began, at: CanvasPoint(x: 168, y: 348), time: 0)]), into: window)
                #expect(fingers.eventsToPage == 1, "the resting finger went down in the block's hole")
                Screen.drag(window, from: CanvasPoint(x: 600, y: 470), to: CanvasPoint(x: 880, y: 560))
                GTK.spin(for: 0.3)
                let shown = try Screen.screen(window).inkBounds
                _ = fingers.play(Self.log([Self.finger(1, .ended, at: CanvasPoint(x: 168, y: 348), time: 1)]), into: window)
                let report = window.finish()
                #expect(report.isVerified, "\(report.verificationFailures)")
                #expect(report.ledger.releasedNatively == 2 && report.ledger.inked == report.ledger.received - 2
                        && report.ledger.inked >= 20 && report.strokes == 1, "\(report.ledger)")
                #expect(Set(report.outcomes.compactMap(\.verdict)) == [.ink, .page] && report.outcomes.count == 2)
                let ink = try #require(shown, "no ink on the real screen")
                #expect(ink.minX >= 590 && ink.maxX <= 890 && ink.minY >= 460 && ink.maxY <= 570, "ink at \(ink)")
            }
        }

        @Test("a front end replaced mid-session, a touch down: the old one stops (its touch cancelled and counted, its audit clean) and hears the page no more; the new one routes, inks and drags on the same page; dropping the old one later breaks nothing")
        func replacedMidSession() throws {
            try GTKThread.shared.run {
                guard scratchpad_xtest_available() != 0 else {
                    Issue.record("no XTest on this display")
                    return
                }
                var old: ScratchpadWindow? = try Screen.open("blocks.html")
                var fingers = LogPlayer(settle: 0)
                _ = fingers.play(Self.log([Self.finger(1, .began, at: CanvasPoint(x: 600, y: 600), time: 0),
                                           Self.finger(1, .moved, at: CanvasPoint(x: 640, y: 610), time: 0.02),
                                           Self.finger(1, .moved, at: CanvasPoint(x: 680, y: 620), time: 0.04)]), into: old!)
                let new = ScratchpadWindow(replacing: old!)
                let before = try #require(old)
                #expect(before.loop.isStopped && !before.ownsPage)
                let oldReport = before.report
                #expect(oldReport.isVerified, "\(oldReport.verificationFailures)")
                #expect(oldReport.ledger.received == 3 && oldReport.ledger.isBalanced && oldReport.ledger.pending == 0, "\(oldReport.ledger)")
                let oldSnapshots = before.engine.bridgeMetrics.snapshotsAccepted
                // The new front end asked the page for its regions: the blocks are holes again.
                #expect(GTK.spin(timeout: 3) { new.inputShapeHoles?.count ?? 0 >= 6 }, "\(new.inputShapeHoles ?? [])")
                #expect(before.engine.bridgeMetrics.snapshotsAccepted == oldSnapshots, "the old front end heard the page")
                old = nil   // dropped: nothing of the page is touched
                scratchpad_xtest_move(0, 0)
                GTK.spin(for: 0.5)
                Screen.drag(new, from: CanvasPoint(x: 168, y: 348), to: CanvasPoint(x: 420, y: 350))
                Screen.drag(new, from: CanvasPoint(x: 600, y: 470), to: CanvasPoint(x: 880, y: 560))
                GTK.spin(for: 0.5)
                let shown = try Screen.screen(new).inkBounds
                let report = new.finish()
                #expect(report.isVerified, "\(report.verificationFailures)")
                #expect(report.strokes == 1 && report.ledger.releasedNatively > 0 && report.ledger.inked > 0, "\(report.ledger)")
                #expect(try new.page.bodyData("drags") == "1")
                #expect(try new.page.bodyData("order") == "block-2,block-3,block-1,block-4")
                let ink = try #require(shown, "no ink on the real screen")
                #expect(ink.minX >= 590 && ink.maxX <= 890 && ink.minY >= 460 && ink.maxY <= 570, "ink at \(ink)")
            }
        }

        @Test("pencil-only: one finger on the scratch paper scrolls the page by its movement (the content follows it) and writes nothing; the pen still writes")
        func pencilOnlyFingerScrolls() throws {
            try GTKThread.shared.run {
                guard scratchpad_xtest_available() != 0 else {
                    Issue.record("no XTest on this display")
                    return
                }
                var configuration = InkEngineConfiguration(routing: .decideAtTouchDown)
                configuration.pencilOnly = true
                let window = try ScratchpadWindow(options: ScratchpadWindow.Options(configuration: configuration))
                try window.show(loading: fixturePage("long.html"))
                scratchpad_xtest_move(0, 0)
                GTK.spin(for: 1)
                var events: [SessionEvent] = []
                for i in 0...20 {
                    let phase: TouchPhase = i == 0 ? .began : i == 20 ? .ended : .moved
                    events.append(Self.finger(1, phase, at: CanvasPoint(x: 700, y: 600 - Double(i) * 15), time: Double(i) * 0.016))
                }
                var fingers = LogPlayer()
                _ = fingers.play(Self.log(events), into: window)
                #expect(fingers.eventsToOverlay == 21, "the finger went down on the paper")
                let scrolled = { Self.pageNumber(window, "window.scrollY") }
                #expect(GTK.spin(timeout: 3) { window.transform.offsetY == scrolled() && scrolled() > 0 })
                #expect(abs(scrolled() - 300) <= 1, "the page scrolled \(scrolled()) for a finger moved 300 up")
                Screen.drag(window, from: CanvasPoint(x: 150, y: 420), to: CanvasPoint(x: 400, y: 470))
                GTK.spin(for: 0.3)
                let shown = try Screen.screen(window).inkBounds
                let report = window.finish()
                #expect(report.isVerified, "\(report.verificationFailures)")
                #expect(report.strokes == 1 && report.outcomes.first?.reason == .toolPolicy && report.outcomes.first?.verdict == .page,
                        "\(report.outcomes.map(\.reason))")
                #expect(report.ledger.released >= 21, "\(report.ledger)")
                let ink = try #require(shown, "no ink on the real screen")
                #expect(ink.minX >= 140 && ink.maxX <= 410 && ink.minY >= 410 && ink.maxY <= 480, "ink at \(ink)")
            }
        }

        @Test("the window resized mid-stroke: the stroke is inked in full, the overlay keeps the web view's size, the old layout's snapshot stops routing at once, and the block that moved with the reflow is a hole where it now is (a press there drags it; where it was is paper)")
        func resizedMidStroke() throws {
            try GTKThread.shared.run {
                guard scratchpad_xtest_available() != 0 else {
                    Issue.record("no XTest on this display")
                    return
                }
                let window = try Screen.open("reflow.html")
                func blockRect() -> [Double] {
                    let json = (try? window.page.evaluate(
                        "(function(){var r=document.getElementById('edge-block').getBoundingClientRect();return [r.left,r.top,r.right,r.bottom];})()",
                        inPageWorld: true)).flatMap { $0 } ?? "[]"
                    return (try? JSONDecoder().decode([Double].self, from: Data(json.utf8))) ?? []
                }
                func isHole(_ rect: [Double]) -> Bool {
                    guard rect.count == 4 else { return false }
                    return window.inputShapeHoles?.contains { abs($0.minX - rect[0]) <= 1 && abs($0.maxX - rect[2]) <= 1
                        && abs($0.minY - rect[1]) <= 1 && abs($0.maxY - rect[3]) <= 1 } ?? false
                }
                let wide = blockRect()
                #expect(wide == [864, 300, 984, 420] && isHole(wide), "\(wide) \(window.inputShapeHoles ?? [])")
                // A pen stroke; the window shrinks under it.
                let (ox, oy) = Screen.origin(window)
                func move(_ x: Double, _ y: Double) { scratchpad_xtest_move(gint(ox + Int(x)), gint(oy + Int(y))) }
                move(200, 600)
                GTK.spin(for: 0.05)
                scratchpad_xtest_button(1, 1)
                for i in 1...10 {
                    move(200 + Double(i) * 20, 600)
                    GTK.spin(for: 0.016)
                }
                gtk_window_resize(UnsafeMutableRawPointer(window.window).assumingMemoryBound(to: GtkWindow.self), 900, 768)
                #expect(GTK.spin(timeout: 3) { gtk_widget_get_allocated_width(window.canvas) == 900 })
                #expect(gtk_widget_get_allocated_width(window.page.widget) == 900
                        && gtk_widget_get_allocated_height(window.canvas) == gtk_widget_get_allocated_height(window.page.widget))
                #expect(window.engine.bridgeMetrics.snapshotsDroppedByResize >= 1, "\(window.engine.bridgeMetrics)")
                for i in 11...20 {
                    move(200 + Double(i) * 20, 600)
                    GTK.spin(for: 0.016)
                }
                scratchpad_xtest_button(1, 0)
                GTK.spin(for: 0.1)
                scratchpad_xtest_move(0, 0)
                // The page's snapshot of the new layout: the block is a hole where it is now.
                let narrow = blockRect()
                #expect(narrow == [740, 300, 860, 420], "\(narrow)")
                #expect(GTK.spin(timeout: 3) { isHole(narrow) && !isHole(wide) }, "\(window.inputShapeHoles ?? [])")
                GTK.spin(for: 0.3)
                let stroke = try #require(window.outcomes.first)
                #expect(stroke.verdict == .ink && stroke.inked.count == stroke.samples && stroke.samples >= 20 && !stroke.cancelled,
                        "\(stroke.inked.count) of \(stroke.samples)")
                Screen.drag(window, from: CanvasPoint(x: 800, y: 360), to: CanvasPoint(x: 790, y: 380), steps: 6)  // the block, now
                Screen.drag(window, from: CanvasPoint(x: 880, y: 360), to: CanvasPoint(x: 870, y: 390), steps: 6)  // where it was: paper
                GTK.spin(for: 0.3)
                let shown = try Screen.screen(window).inkBounds
                let report = window.finish()
                #expect(report.isVerified, "\(report.verificationFailures)")
                #expect(try window.page.bodyData("drags") == "1" && window.page.bodyData("untrusted") == "0")
                #expect(report.strokes == 2 && report.outcomes.map(\.verdict) == [.ink, .page, .ink], "\(report.outcomes.map(\.reason))")
                let ink = try #require(shown, "no ink on the real screen")
                #expect(ink.minX >= 190 && ink.maxX <= 890 && ink.minY >= 350, "ink at \(ink)")
            }
        }
    }
}
