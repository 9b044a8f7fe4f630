import CWebKitGTK
import Foundation
@_spi(Tooling) import GTKLogPlayer
@_spi(Tooling) import GTKScratchpad
@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkCore
import Testing
@_spi(Tooling) import WebKitGTKOracle

extension WebKitGTK {
    /// The palm rule (issue 52) in the GTK twin, on the real X screen: the real mouse (XTest)
    /// is the pen, and the hand beside it is a GDK touch sequence (synthesized: XTest cannot
    /// inject touches, and Xvfb has no `/dev/uinput`), delivered to the overlay as the display
    /// server would (the window's observer first), each event stamped with the display
    /// server's clock (GLib's monotonic milliseconds, the clock Xvfb stamps the mouse's events
    /// with), as a touchscreen's would be.
    ///
    /// The window's loop runs on GLib's clock (``GLibClock``, not injectable into a
    /// ``ScratchpadWindow``), and the palm rule reads the samples' own times, which the window
    /// maps from the events' times and never places after now. So "well after the pen lifted"
    /// is a real wait here, as the other real-screen tests wait for the page and the screen.
    ///
    /// A wide contact alone is not shown here: the twin cannot carry a contact's size. GDK 3
    /// names no touch-ellipse axis (its `GdkAxisUse` has pressure, tilt, wheel, distance,
    /// rotation and slider), the window reads only pressure and tilt
    /// (`scratchpad_read_input`), and a synthesized GDK touch has no device axes at all, so
    /// every GDK touch reaches the engine with `TouchSample.majorRadius` `nil`. The
    /// `palmRadius` rule is shown under the manual clock only (`HandsTests.wideContactIsAPalm`
    /// in the root package).
    @Suite("Palms beside the real mouse's pen, on the real screen", .serialized)
    struct PalmScreenTests {
        /// The engine's settings for one run: the palm rule as it ships (hold 0.3 s, radius
        /// 30), in `routing`, pencil-only or not.
        static func configuration(_ routing: TouchRouting, pencilOnly: Bool) -> InkEngineConfiguration {
            InkEngineConfiguration(pencilOnly: pencilOnly, routing: routing)
        }

        /// A rectangle of page-area points, to count ink in.
        struct Box {
            var minX: Int, minY: Int, maxX: Int, maxY: Int

            /// The ink-coloured pixels of `screen` (the page area's) inside the box.
            func ink(on screen: RealScreenTests.Screen) -> Int {
                var count = 0
                for y in max(minY, 0)...min(maxY, screen.height - 1) {
                    for x in max(minX, 0)...min(maxX, screen.width - 1) where screen.isInk(x, y) { count += 1 }
                }
                return count
            }

            /// The ink-coloured pixels of the real screen inside the box, read now.
            func inkNow(_ window: ScratchpadWindow) throws -> Int {
                let (ox, oy) = RealScreenTests.origin(window)
                let screen = try RealScreenTests.screen(x: ox + minX, y: oy + minY, width: maxX - minX + 1, height: maxY - minY + 1)
                return Box(minX: 0, minY: 0, maxX: maxX - minX, maxY: maxY - minY).ink(on: screen)
            }
        }

        /// A GDK touch event on the overlay, stamped now on the display server's clock,
        /// delivered as the display server would (the window's observer sees it first).
        static func touch(_ window: ScratchpadWindow, _ type: GdkEventType, _ point: CanvasPoint, sequence: UInt64) {
            guard let event = scratchpad_make_touch(window.canvas, type, point.x, point.y, sequence,
                                                    WebKitGTKPage.eventTime(for: GTK.now)) else { return }
            defer { gdk_event_free(event) }
            window.dispatchAsPlatform(event, to: window.canvas)
        }

        static func scrollY(_ window: ScratchpadWindow) -> Double? {
            (try? window.page.evaluate("window.scrollY", inPageWorld: true)).flatMap { $0 }.flatMap { Double($0) }
        }

        /// The resting palm (its sequence) and the sliding one, and the later finger.
        static let resting: UInt64 = 901, sliding: UInt64 = 902, later: UInt64 = 903
        /// The hand touching again just after the pen lifted (within the hold).
        static let justLifted: UInt64 = 904

        /// Where the pen writes, where the hand rests and slides and where the later finger
        /// goes, on the long worksheet's blank paper (clear of its answer fields and buttons,
        /// and of each other), page-area points.
        static let pen = RealScreenTests.wave(from: CanvasPoint(x: 120, y: 390), to: CanvasPoint(x: 420, y: 420),
                                              amplitude: 14, waves: 1.5, steps: 60)
        static let penBox = Box(minX: 100, minY: 360, maxX: 440, maxY: 450)
        static let restAt = CanvasPoint(x: 560, y: 450)
        static let restBox = Box(minX: 530, minY: 420, maxX: 590, maxY: 480)
        /// Upward: a finger given to the page scrolls it down from the top (content follows the finger).
        static let slideFrom = CanvasPoint(x: 620, y: 600), slideTo = CanvasPoint(x: 800, y: 500)
        static let slideBox = Box(minX: 595, minY: 475, maxX: 825, maxY: 625)
        static let liftedAt = CanvasPoint(x: 500, y: 520)
        static let liftedBox = Box(minX: 475, minY: 495, maxX: 525, maxY: 545)
        static let laterFrom = CanvasPoint(x: 150, y: 590), laterTo = CanvasPoint(x: 420, y: 540)
        static let laterBox = Box(minX: 130, minY: 520, maxX: 440, maxY: 610)

        @Test("the real mouse writes while a GDK touch rests beside the pen (a few small moves, then ends) and another slides across the paper, and a third touches just after the pen lifts (within the 0.3 s hold): the pen's stroke is ink where the mouse drew it, no ink ever shows under or along the hand, the page does not scroll and gets no event from it, the engine holds all three as palms (palmsHeld 3, their samples cancelled) and the ledger balances; a finger 0.5 s after the pen lifted is no palm: ink, or under pencil-only the page's by the tool policy",
              arguments: [TouchRouting.decideAtTouchDown, .handOverAfterDecision], [false, true])
        func palmBesideThePen(routing: TouchRouting, pencilOnly: Bool) throws {
            try GTKThread.shared.run {
                guard scratchpad_xtest_available() != 0 else {
                    Issue.record("no XTest on this display")
                    return
                }
                let run = "\(routing)\(pencilOnly ? ", pencil-only" : "")"
                let window = try ScratchpadWindow(options: .init(configuration: Self.configuration(routing, pencilOnly: pencilOnly)))
                try window.show(loading: fixturePage("long.html"))
                scratchpad_xtest_move(0, 0)
                GTK.spin(for: 1)  // the page painted, the snapshot of its loaded layout held
                #expect(try window.page.evaluate(TouchDownRoutingTests.countEvents, inPageWorld: true) == "true")
                let before = try RealScreenTests.screen(window)
                let scrolledBefore = Self.scrollY(window)
                let pageEventsBefore = try window.page.bodyData("events")
                #expect(Self.restBox.ink(on: before) == 0 && Self.slideBox.ink(on: before) == 0 && Self.penBox.ink(on: before) == 0,
                        "\(run): ink-coloured pixels before anything was written")

                // The pen goes down and writes; the hand lands beside it while it writes.
                let (ox, oy) = RealScreenTests.origin(window)
                func move(_ p: CanvasPoint) { scratchpad_xtest_move(gint(ox + Int(p.x.rounded())), gint(oy + Int(p.y.rounded()))) }
                move(Self.pen[0])
                GTK.spin(for: 0.05)
                scratchpad_xtest_button(1, 1)
                GTK.spin(for: 0.016)
                var inkUnderRestingPalm = 0, inkAlongSlidingPalm = 0
                for (step, point) in Self.pen.enumerated().dropFirst() {
                    move(point)
                    switch step {
                    case 8:
                        Self.touch(window, GDK_TOUCH_BEGIN, Self.restAt, sequence: Self.resting)
                    case 10, 13, 16, 19, 22, 25:
                        // Resting: a few small moves, as a hand settling on the glass.
                        let wobble = Double(step % 2 == 0 ? 2 : -2)
                        Self.touch(window, GDK_TOUCH_UPDATE, CanvasPoint(x: Self.restAt.x + wobble, y: Self.restAt.y - wobble / 2),
                                   sequence: Self.resting)
                    case 28:
                        // Still down: nothing is drawn under it (read from the X server now).
                        inkUnderRestingPalm = try Self.restBox.inkNow(window)
                        Self.touch(window, GDK_TOUCH_END, CanvasPoint(x: Self.restAt.x + 1, y: Self.restAt.y), sequence: Self.resting)
                    case 32:
                        Self.touch(window, GDK_TOUCH_BEGIN, Self.slideFrom, sequence: Self.sliding)
                    case 33...52:
                        let f = Double(step - 32) / 20
                        Self.touch(window, GDK_TOUCH_UPDATE,
                                   CanvasPoint(x: Self.slideFrom.x + (Self.slideTo.x - Self.slideFrom.x) * f,
                                               y: Self.slideFrom.y + (Self.slideTo.y - Self.slideFrom.y) * f),
                                   sequence: Self.sliding)
                    case 54:
                        inkAlongSlidingPalm = try Self.slideBox.inkNow(window)
                        Self.touch(window, GDK_TOUCH_END, Self.slideTo, sequence: Self.sliding)
                    default:
                        break
                    }
                    GTK.spin(for: 0.016)
                }
                scratchpad_xtest_button(1, 0)
                // The pen lifted (its touch finished): the hand touches the paper again at once,
                // within the hold after the lift.
                _ = GTK.spin(timeout: 1) { window.outcomes.contains { $0.touch == PlatformTouchID(0) } }
                let touchedAfterLift = GTK.now
                Self.touch(window, GDK_TOUCH_BEGIN, Self.liftedAt, sequence: Self.justLifted)
                Self.touch(window, GDK_TOUCH_UPDATE, CanvasPoint(x: Self.liftedAt.x + 2, y: Self.liftedAt.y + 1), sequence: Self.justLifted)
                Self.touch(window, GDK_TOUCH_UPDATE, CanvasPoint(x: Self.liftedAt.x + 3, y: Self.liftedAt.y + 2), sequence: Self.justLifted)
                GTK.spin(for: 0.016)
                Self.touch(window, GDK_TOUCH_END, CanvasPoint(x: Self.liftedAt.x + 3, y: Self.liftedAt.y + 3), sequence: Self.justLifted)
                scratchpad_xtest_move(0, 0)
                GTK.spin(for: 0.5)

                let written = try RealScreenTests.screen(window)
                let afterPalms = try TouchDownRoutingTests.seen(window)
                let scrolledAfterPalms = Self.scrollY(window)
                let pageEventsAfterPalms = try window.page.bodyData("events")
                let palmsHeld = window.engine.counters.palmsHeld
                let strokesAfterPalms = window.ink.strokes.count
                // The mouse is the pointer, platform touch 0: its stroke, whatever else was inked.
                let penTouch = try #require(window.outcomes.first { $0.touch == PlatformTouchID(0) }, "\(run): the pen's touch finished")
                let pen = try #require(window.ink.strokes.first { $0.touch == penTouch.engineID }?.builder.allSegments, "\(run): the pen's stroke")
                let penBounds = try #require(pen.map(\.bounds).reduce(nil as CanvasRect?) { sum, next in sum?.union(next) ?? next })

                // The pen's stroke is ink, where the mouse drew it.
                #expect(strokesAfterPalms == 1, "\(run): \(strokesAfterPalms) strokes: the pen's, and ink from the hand")
                #expect(Self.penBox.ink(on: written) > 200, "\(run): the pen's ink on the real screen: \(Self.penBox.ink(on: written)) pixels")
                #expect(penBounds.minX >= 110 && penBounds.maxX <= 430 && penBounds.minY >= 370 && penBounds.maxY <= 440,
                        "\(run): the pen's stroke lies along the mouse's path: \(penBounds)")
                // No ink under or along the hand, while it was down or after.
                #expect(inkUnderRestingPalm == 0, "\(run): \(inkUnderRestingPalm) ink pixels under the resting touch while it was down")
                #expect(inkAlongSlidingPalm == 0, "\(run): \(inkAlongSlidingPalm) ink pixels along the sliding touch while it was down")
                #expect(Self.restBox.ink(on: written) == 0 && Self.slideBox.ink(on: written) == 0 && Self.liftedBox.ink(on: written) == 0,
                        "\(run): ink under the hand after the pen lifted: \(Self.restBox.ink(on: written)) resting, \(Self.slideBox.ink(on: written)) sliding, \(Self.liftedBox.ink(on: written)) just after the lift")
                if let ink = written.inkBounds {
                    #expect(ink.minX >= Self.penBox.minX && ink.maxX <= Self.penBox.maxX && ink.minY >= Self.penBox.minY
                            && ink.maxY <= Self.penBox.maxY, "\(run): ink on the real screen away from the pen's path: \(ink)")
                }
                // The page neither scrolled nor saw the hand.
                #expect(scrolledBefore == 0 && scrolledAfterPalms == scrolledBefore,
                        "\(run): the page scrolled under the pen: scrollY \(String(describing: scrolledBefore)) then \(String(describing: scrolledAfterPalms))")
                #expect(afterPalms.all == 0, "\(run): the page saw \(afterPalms.all) pointer, touch, mouse or click events (\(afterPalms.trusted) trusted)")
                #expect(pageEventsAfterPalms == pageEventsBefore, "\(run): the page's handlers took events: \(String(describing: pageEventsAfterPalms))")
                // The engine held both touches as palms; nobody got their samples.
                #expect(palmsHeld == 3, "\(run): palmsHeld \(palmsHeld)")
                // The third touch came after the lift, within the hold (the samples' own times).
                let lifted = penTouch.inked.last?.timestamp ?? 0
                #expect(touchedAfterLift > lifted && touchedAfterLift - lifted < 0.25,
                        "\(run): the touch after the lift came \(touchedAfterLift - lifted) s after the pen's last sample")
                let outcomes = window.outcomes
                for sequence in [Self.resting, Self.sliding, Self.justLifted] {
                    let palm = try #require(outcomes.first { $0.touch == PlatformTouchID(sequence) }, "touch \(sequence) finished")
                    #expect(palm.cancelled && palm.inked.isEmpty && palm.released.isEmpty && palm.verdict == nil,
                            "\(run): touch \(sequence): verdict \(String(describing: palm.verdict)), \(palm.inked.count) inked, \(palm.released.count) released, cancelled \(palm.cancelled)")
                }

                // Well after the pen lifted (0.5 s, the hold is 0.3 s): a finger is no palm.
                GTK.spin(for: 0.5)
                Self.touch(window, GDK_TOUCH_BEGIN, Self.laterFrom, sequence: Self.later)
                GTK.spin(for: 0.016)
                for i in 1...20 {
                    let f = Double(i) / 20
                    Self.touch(window, i == 20 ? GDK_TOUCH_END : GDK_TOUCH_UPDATE,
                               CanvasPoint(x: Self.laterFrom.x + (Self.laterTo.x - Self.laterFrom.x) * f,
                                           y: Self.laterFrom.y + (Self.laterTo.y - Self.laterFrom.y) * f),
                               sequence: Self.later)
                    GTK.spin(for: 0.016)
                }
                _ = GTK.spin(timeout: 3) { window.engine.waitingQuestions == 0 }
                GTK.spin(for: 0.5)
                let afterFinger = try RealScreenTests.screen(window)
                let seenAfterFinger = try TouchDownRoutingTests.seen(window)
                let scrolledAfterFinger = Self.scrollY(window)
                let report = window.finish()
                let finger = try #require(report.outcomes.first { $0.touch == PlatformTouchID(Self.later) }, "the later finger finished")
                #expect(window.engine.counters.palmsHeld == 3, "\(run): palmsHeld \(window.engine.counters.palmsHeld) after the later finger (3: the hand's three, not the later finger)")
                if pencilOnly {
                    #expect(finger.verdict == .page && finger.reason == .toolPolicy && finger.released.count == 21,
                            "\(run): the later finger under pencil-only: \(String(describing: finger.verdict)) \(String(describing: finger.reason)), \(finger.released.count) released")
                    #expect(seenAfterFinger.all > afterPalms.all, "\(run): the page saw nothing of the later finger")
                    // Fingers scroll under pencil-only: the engine scrolls the view (touch-down
                    // routing), or WebKitGTK does, natively, for the handed-over touch.
                    #expect((scrolledAfterFinger ?? 0) > 20, "\(run): the later finger did not scroll the page: scrollY \(String(describing: scrolledAfterFinger))")
                    #expect(report.strokes == 1 && Self.laterBox.ink(on: afterFinger) == 0, "\(run): \(report.strokes) strokes")
                } else {
                    #expect(finger.verdict == .ink && finger.inked.count == 21,
                            "\(run): the later finger: \(String(describing: finger.verdict)) \(String(describing: finger.reason)), \(finger.inked.count) inked")
                    #expect(report.strokes == 2 && Self.laterBox.ink(on: afterFinger) > 200,
                            "\(run): \(report.strokes) strokes, \(Self.laterBox.ink(on: afterFinger)) ink pixels along the later finger")
                    #expect(seenAfterFinger.all == afterPalms.all && scrolledAfterFinger == scrolledBefore,
                            "\(run): the page saw \(seenAfterFinger.all - afterPalms.all) events of the later finger, scrollY \(String(describing: scrolledAfterFinger))")
                }
                // The ledger balances: every sample once, the palms' counted cancelled.
                let ledger = report.ledger
                #expect(report.isVerified, "\(run): \(report.verificationFailures)")
                #expect(ledger.received == ledger.inked + ledger.released + ledger.cancelled + ledger.refused
                        && ledger.refused == 0 && ledger.dropped == 0 && ledger.pending == 0, "\(run): \(ledger)")
                #expect(ledger.cancelled == 8 + 22 + 4, "\(run): the palms' samples (8 resting, 22 sliding, 4 just after the lift) are the cancelled ones: \(ledger)")
            }
        }
            /// A pen's proximity event (GDK's `proximity-in` or `-out`, which only a tablet's
        /// stylus or eraser sends) for the overlay, delivered as the display server would.
        static func proximity(_ window: ScratchpadWindow, in entering: Bool) {
            guard let event = gdk_event_new(entering ? GDK_PROXIMITY_IN : GDK_PROXIMITY_OUT),
                  let gdkWindow = gtk_widget_get_window(window.canvas) else { return }
            defer { gdk_event_free(event) }
            event.pointee.proximity.window = gdkWindow
            g_object_ref(UnsafeMutableRawPointer(gdkWindow))   // the event's own reference, which gdk_event_free drops
            event.pointee.proximity.send_event = 1
            event.pointee.proximity.time = WebKitGTKPage.eventTime(for: GTK.now)
            window.dispatchAsPlatform(event, to: window.canvas)
        }

        @Test("a pen in range over the window (GDK proximity-in, the twin of Apple Pencil hover) makes a finger that lands on the paper a palm: no ink on the real screen, nothing to the page; 0.5 s after the pen left (proximity-out), a finger inks again",
              arguments: [TouchRouting.decideAtTouchDown, .handOverAfterDecision])
        func palmWhileThePenHovers(routing: TouchRouting) throws {
            try GTKThread.shared.run {
                let window = try ScratchpadWindow(options: .init(configuration: Self.configuration(routing, pencilOnly: false)))
                try window.show(loading: fixturePage("long.html"))
                GTK.spin(for: 1)  // the page painted, the snapshot of its loaded layout held
                #expect(try window.page.evaluate(TouchDownRoutingTests.countEvents, inPageWorld: true) == "true")
                let before = try TouchDownRoutingTests.seen(window)
                Self.proximity(window, in: true)
                Self.touch(window, GDK_TOUCH_BEGIN, Self.restAt, sequence: Self.resting)
                for step in 1...5 {
                    GTK.spin(for: 0.016)
                    Self.touch(window, GDK_TOUCH_UPDATE, CanvasPoint(x: Self.restAt.x + Double(step) * 3, y: Self.restAt.y), sequence: Self.resting)
                }
                Self.touch(window, GDK_TOUCH_END, CanvasPoint(x: Self.restAt.x + 15, y: Self.restAt.y), sequence: Self.resting)
                _ = GTK.spin(timeout: 3) { window.engine.waitingQuestions == 0 }
                GTK.spin(for: 0.3)
                let held = try Self.restBox.inkNow(window)
                let seenWhileHovering = try TouchDownRoutingTests.seen(window)
                #expect(window.engine.counters.palmsHeld == 1, "\(routing): palmsHeld \(window.engine.counters.palmsHeld)")
                #expect(held == 0, "\(routing): \(held) ink pixels under the finger while the pen hovered")
                #expect(seenWhileHovering.all == before.all, "\(routing): the page saw \(seenWhileHovering.all - before.all) events of the hand")
                Self.proximity(window, in: false)
                GTK.spin(for: 0.5)
                Self.touch(window, GDK_TOUCH_BEGIN, Self.laterFrom, sequence: Self.later)
                for i in 1...20 {
                    GTK.spin(for: 0.016)
                    let f = Double(i) / 20
                    Self.touch(window, i == 20 ? GDK_TOUCH_END : GDK_TOUCH_UPDATE,
                               CanvasPoint(x: Self.laterFrom.x + (Self.laterTo.x - Self.laterFrom.x) * f,
                                           y: Self.laterFrom.y + (Self.laterTo.y - Self.laterFrom.y) * f),
                               sequence: Self.later)
                }
                _ = GTK.spin(timeout: 3) { window.engine.waitingQuestions == 0 }
                GTK.spin(for: 0.3)
                let inked = try Self.laterBox.inkNow(window)
                let report = window.finish()
                #expect(window.engine.counters.palmsHeld == 1, "\(routing): the finger after the pen left was held too")
                #expect(inked > 200 && report.strokes == 1, "\(routing): \(inked) ink pixels along the finger after the pen left, \(report.strokes) strokes")
                #expect(report.isVerified && report.ledger.dropped == 0 && report.ledger.cancelled == 7, "\(routing): \(report.ledger)")
            }
        }
}
}
