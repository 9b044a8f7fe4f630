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
    /// The iPad app's route, in its GTK twin: touches routed by the overlay's input shape at
    /// touch-down, every touch seen by the observer, late page verdicts replayed by the page
    /// script. The page's own listeners (installed by the test in the page's world) count
    /// every pointer, touch and mouse event its handlers could see, and whether it was trusted.
    @Suite("Routing at touch-down in the real window", .serialized)
    struct TouchDownRoutingTests {
        /// Counts, in the page's own world, every input event that reaches the document, and
        /// where the first and last pointer events were.
        static let countEvents = """
            (function () {
              var seen = { all: 0, trusted: 0, untrusted: 0, replayed: 0, first: null, last: null, order: [] };
              // The page script announces each replayed event to other worlds (its own
              // properties on the event are not visible here): the detail is the sample's time.
              var announced = null;
              window.addEventListener('scratchpadinkreplaystart', function (e) { announced = e.detail; }, true);
              window.addEventListener('scratchpadinkreplayend', function () { announced = null; }, true);
              ['pointerdown', 'pointermove', 'pointerup', 'pointercancel', 'touchstart', 'touchmove', 'touchend',
               'touchcancel', 'mousedown', 'mousemove', 'mouseup', 'click'].forEach(function (type) {
                window.addEventListener(type, function (e) {
                  seen.all += 1;
                  if (e.isTrusted) { seen.trusted += 1; } else { seen.untrusted += 1; }
                  if (!e.isTrusted && typeof announced === 'number' && type.indexOf('pointer') === 0) {
                    seen.replayed += 1;
                    seen.order.push(announced);
                  }
                  if (type.indexOf('pointer') === 0) {
                    var at = [Math.round(e.clientX), Math.round(e.clientY)];
                    if (seen.first === null) { seen.first = at; }
                    seen.last = at;
                  }
                }, true);
              });
              window.__seen = seen;
              return true;
            })()
            """

        struct Seen: Decodable {
            var all: Int
            var trusted: Int
            var untrusted: Int
            var replayed: Int
            var first: [Double]?
            var last: [Double]?
            var order: [Double]
        }

        static func seen(_ window: ScratchpadWindow) throws -> Seen {
            let json = try window.page.evaluate("window.__seen", inPageWorld: true) ?? "null"
            return try JSONDecoder().decode(Seen.self, from: Data(json.utf8))
        }

        /// A straight stroke as a session log: `count` samples from `from` to `to`, 16 ms apart.
        static func stroke(_ id: UInt64 = 1, from: CanvasPoint, to: CanvasPoint, count: Int = 24, tool: ToolKind = .finger,
                           start: Double = 0) -> [SessionEvent] {
            var events: [SessionEvent] = []
            for i in 0..<count {
                let f = Double(i) / Double(count - 1), t = start + Double(i) * 0.016
                let sample = TouchSample(x: from.x + (to.x - from.x) * f, y: from.y + (to.y - from.y) * f, timestamp: t, tool: tool)
                let phase: TouchPhase = i == 0 ? .began : i == count - 1 ? .ended : .moved
                events.append(.touch(TouchEvent(touch: PlatformTouchID(id), phase: phase, samples: [sample]), time: t))
            }
            return events
        }

        static func log(_ events: [SessionEvent]) -> SessionLog {
            SessionLog(header: SessionHeader(canvas: CanvasSize(width: 1024, height: 768)),
                       events: events.sorted { $0.time < $1.time })
        }

        static func open(_ page: String) throws -> ScratchpadWindow {
            let window = try ScratchpadWindow()
            try window.show(loading: fixturePage(page))
            #expect(try window.page.evaluate(countEvents, inPageWorld: true) == "true")
            return window
        }

        @Test("an ink stroke written across the draggable blocks: no pointer, touch or mouse event reaches the page; no block moves",
              arguments: [ToolKind.finger, .pencil])
        func inkAcrossBlocks(tool: ToolKind) throws {
            try GTKThread.shared.run {
                let window = try Self.open("blocks.html")
                #expect(window.inputShapeHoles?.count ?? 0 >= 6, "the blocks, the field and the button are holes")
                let order = try window.page.bodyData("order")
                var player = LogPlayer()
                _ = player.play(Self.log(Self.stroke(from: CanvasPoint(x: 60, y: 348), to: CanvasPoint(x: 650, y: 350), tool: tool)),
                                into: window)
                let report = window.finish()
                #expect(report.isVerified, "\(report.verificationFailures)")
                #expect(report.ledger.inked == 24 && report.ledger.released == 0 && report.strokes == 1, "\(report.ledger)")
                #expect(player.eventsToPage == 0)
                let seen = try Self.seen(window)
                #expect(seen.all == 0, "the page saw \(seen.all) events")
                #expect(try window.page.bodyData("drags") == "0" && window.page.bodyData("order") == order)
            }
        }

        @Test("a touch that starts on a block with a fresh snapshot: the web view has it natively, trusted, every sample; the block moves",
              arguments: [ToolKind.finger, .pencil])
        func nativeDrag(tool: ToolKind) throws {
            try GTKThread.shared.run {
                let window = try Self.open("blocks.html")
                var player = LogPlayer()
                _ = player.play(Self.log(Self.stroke(from: CanvasPoint(x: 168, y: 348), to: CanvasPoint(x: 420, y: 350), tool: tool)),
                                into: window)
                let report = window.finish()
                #expect(report.isVerified, "\(report.verificationFailures)")
                #expect(report.ledger.releasedNatively == 24 && report.ledger.received == 24 && report.ledger.replayed == 0,
                        "\(report.ledger)")
                #expect(report.outcomes.map(\.reason) == [.routedAtTouchDown] && report.pageEventsDispatched == 0)
                #expect(player.eventsToPage == 24 && player.eventsToOverlay == 0)
                let seen = try Self.seen(window)
                #expect(seen.untrusted == 0 && seen.trusted >= 24, "trusted \(seen.trusted), untrusted \(seen.untrusted)")
                #expect(try window.page.bodyData("drags") == "1")
                #expect(try window.page.bodyData("order") == "block-2,block-3,block-1,block-4")
                #expect(report.strokes == 0)
            }
        }

        @Test("the same touch with a stale snapshot: drawn at once, retracted on the page's answer, replayed untrusted, in order, at its positions; the block moves",
              arguments: [ToolKind.finger, .pencil])
        func lateVerdictReplayed(tool: ToolKind) throws {
            try GTKThread.shared.run {
                let window = try Self.open("blocks.html")
                // Snapshots the page pushes from now on are never fresh: no hole, every touch
                // is unknown at touch-down.
                #expect(try window.page.evaluate("scratchpadInk.configure({maxAge: 0}); scratchpadInk.pushRegions(); true") == "true")
                #expect(GTK.spin(timeout: 2) { window.inputShapeHoles == nil })
                var player = LogPlayer()
                let events = Self.stroke(from: CanvasPoint(x: 168, y: 348), to: CanvasPoint(x: 420, y: 350), tool: tool)
                _ = player.play(Self.log(events), into: window)
                GTK.spin(for: 0.3)
                let report = window.finish()
                #expect(report.isVerified, "\(report.verificationFailures)")
                #expect(report.ledger.replayed == 24 && report.ledger.released == 24 && report.ledger.inked == 0, "\(report.ledger)")
                #expect(report.outcomes.first?.retracted == true && report.outcomes.first?.reason == .answered)
                #expect(player.eventsToOverlay == 24 && player.eventsToPage == 0)
                #expect(report.replays > 0 && report.replayedEvents == 25)  // every sample, then the lift
                let seen = try Self.seen(window)
                #expect(seen.trusted == 0 && seen.untrusted > 0, "trusted \(seen.trusted), untrusted \(seen.untrusted)")
                // Every sample, in order, with its original time; down where the touch began,
                // up where it lifted.
                let times = report.outcomes.first?.released.map(\.timestamp) ?? []
                let pointerTimes = seen.order.reduce(into: [Double]()) { if $0.last != $1 { $0.append($1) } }
                #expect(pointerTimes == times, "\(pointerTimes.count) replayed times for \(times.count) samples")
                #expect(seen.first == [168, 348] && seen.last == [420, 350], "\(String(describing: seen.first)) \(String(describing: seen.last))")
                #expect(try window.page.bodyData("drags") == "1")
                #expect(try window.page.bodyData("order") == "block-2,block-3,block-1,block-4")
            }
        }

        @Test("a pencil stroke while a finger rests on a block: the finger is the page's, the pencil's stroke is inked in full")
        func pencilBesideRestingFinger() throws {
            try GTKThread.shared.run {
                let window = try Self.open("blocks.html")
                let down = TouchSample(x: 168, y: 348, timestamp: 0, tool: .finger)
                let up = TouchSample(x: 168, y: 348, timestamp: 0.6, tool: .finger)
                var events: [SessionEvent] = [
                    .touch(TouchEvent(touch: PlatformTouchID(1), phase: .began, samples: [down]), time: 0),
                    .touch(TouchEvent(touch: PlatformTouchID(1), phase: .ended, samples: [up]), time: 0.6),
                ]
                events += Self.stroke(2, from: CanvasPoint(x: 620, y: 480), to: CanvasPoint(x: 820, y: 560), count: 30, tool: .pencil,
                                      start: 0.05)
                var player = LogPlayer()
                _ = player.play(Self.log(events), into: window)
                let report = window.finish()
                #expect(report.isVerified, "\(report.verificationFailures)")
                #expect(report.ledger.inked == 30 && report.ledger.releasedNatively == 2 && report.strokes == 1, "\(report.ledger)")
                #expect(Set(report.outcomes.compactMap(\.verdict)) == [.ink, .page] && report.outcomes.count == 2)
            }
        }

        @Test("a second page mid-session: the long worksheet scrolled far (its generation climbs), then blocks.html loads in the same window; the new page's regions decide at touch-down, a drag on a block moves it natively, and the session verifies")
        func secondPageMidSession() throws {
            try GTKThread.shared.run {
                let window = try Self.open("long.html")
                // Scroll the worksheet down and back, step by step: each scroll is a new layout generation.
                for step in 0..<30 {
                    _ = try window.page.evaluate("window.scrollTo(0, \(step % 2 == 0 ? 40 * step : 0)); true", inPageWorld: true)
                    GTK.spin(for: 0.03)
                }
                let oldGeneration = try #require(window.page.evaluate("window.scratchpadInk.generation").flatMap { UInt64($0) })
                GTK.spin(timeout: 2) { (window.engine.snapshotGeneration ?? 0) >= oldGeneration }
                #expect(oldGeneration > 12, "the first page's generation climbed to \(oldGeneration)")
                var player = LogPlayer()
                _ = player.play(Self.log(Self.stroke(1, from: CanvasPoint(x: 100, y: 500), to: CanvasPoint(x: 300, y: 520))), into: window)
                // "Next exercise": the same window loads another page; its generations start over at 1.
                try window.page.load(fixturePage("blocks.html"))
                let newGeneration = try #require(window.page.evaluate("window.scratchpadInk.generation").flatMap { UInt64($0) })
                #expect(newGeneration < oldGeneration)
                // The snapshot of the new page as laid out (its stylesheet moved the blocks), as a user would see it.
                #expect(GTK.spin(timeout: 3) { (window.engine.snapshotGeneration ?? 0) >= newGeneration && window.inputShapeHoles?.count ?? 0 >= 6 },
                        "the new page's blocks are holes: \(window.engine.snapshotGeneration ?? 0) of \(newGeneration)")
                #expect(window.engine.bridgeMetrics.newDocuments >= 1, "\(window.engine.bridgeMetrics)")
                #expect(try window.page.evaluate(Self.countEvents, inPageWorld: true) == "true")
                var second = LogPlayer()
                _ = second.play(Self.log(Self.stroke(2, from: CanvasPoint(x: 168, y: 348), to: CanvasPoint(x: 420, y: 350), start: 0)),
                                into: window)
                let report = window.finish()
                #expect(report.isVerified, "\(report.verificationFailures)")
                #expect(report.outcomes.last?.reason == .routedAtTouchDown && report.ledger.releasedNatively == 24, "\(report.ledger)")
                #expect(report.bridge.snapshotRefusals.olderGeneration == 0, "\(report.bridge)")
                #expect(try window.page.bodyData("drags") == "1")
                #expect(try window.page.bodyData("order") == "block-2,block-3,block-1,block-4")
            }
        }

        @Test("undo and clear, by API and by Ctrl+Alt+Z and Ctrl+Alt+C: the ink goes, the ledger stays")
        func undoAndClear() throws {
            try GTKThread.shared.run {
                let window = try Self.open("blocks.html")
                var events = Self.stroke(1, from: CanvasPoint(x: 600, y: 450), to: CanvasPoint(x: 700, y: 470))
                events += Self.stroke(2, from: CanvasPoint(x: 600, y: 520), to: CanvasPoint(x: 700, y: 540), start: 0.5)
                events += Self.stroke(3, from: CanvasPoint(x: 600, y: 590), to: CanvasPoint(x: 700, y: 610), start: 1)
                var player = LogPlayer()
                _ = player.play(Self.log(events), into: window)
                let ledger = window.engine.ledger
                #expect(window.ink.strokes.count == 3 && ledger.inked == 72)
                #expect(window.undo() && window.ink.strokes.map(\.touch.rawValue).count == 2)
                func key(_ keyval: Int32, _ state: UInt32) {
                    guard let event = scratchpad_make_key_press(window.window, guint(keyval), guint(state)) else { return }
                    defer { gdk_event_free(event) }
                    _ = gtk_widget_event(window.window, event)
                }
                key(GDK_KEY_z, GDK_CONTROL_MASK.rawValue | GDK_MOD1_MASK.rawValue)
                #expect(window.ink.strokes.count == 1)
                key(GDK_KEY_z, GDK_CONTROL_MASK.rawValue)   // the page's own Ctrl+Z: not ours
                #expect(window.ink.strokes.count == 1)
                key(GDK_KEY_c, GDK_CONTROL_MASK.rawValue | GDK_MOD1_MASK.rawValue)
                #expect(window.ink.strokes.isEmpty && !window.undo())
                let report = window.finish()
                #expect(report.isVerified && report.ledger == ledger, "\(report.ledger) \(ledger)")
            }
        }

        @Test("the hostile page (forgeries, layout churn every millisecond): a stroke across the blocks stays ink and no trusted event reaches the page; a drag on a block reaches the page, natively or replayed, and moves it")
        func hostilePage() throws {
            try GTKThread.shared.run {
                let window = try Self.open("hostile.html")
                var player = LogPlayer()
                var events = Self.stroke(1, from: CanvasPoint(x: 60, y: 348), to: CanvasPoint(x: 650, y: 350))
                events += Self.stroke(2, from: CanvasPoint(x: 168, y: 348), to: CanvasPoint(x: 420, y: 350), start: 0.6)
                _ = player.play(Self.log(events), into: window)
                GTK.spin(for: 0.3)
                let report = window.finish()
                #expect(report.isVerified, "\(report.verificationFailures)")
                #expect(report.outcomes.map(\.verdict) == [.ink, .page], "\(report.outcomes.map(\.reason))")
                #expect(report.ledger.inked == 24 && report.ledger.released == 24
                        && report.ledger.releasedNatively + report.ledger.replayed == 24, "\(report.ledger)")
                #expect(report.bridge.unknownAnswers == 0 && report.refusedMessages == 0, "\(report.bridge)")
                #expect(try window.page.bodyData("drags") == "1")
                #expect(try window.page.bodyData("order") == "block-2,block-3,block-1,block-4")
            }
        }
    }
}
