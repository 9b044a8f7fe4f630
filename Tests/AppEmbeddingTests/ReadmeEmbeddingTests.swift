import Foundation
import HitTestBridge
import InkTesting
import InkCore
import Testing

// The two minimal embeddings, compiled and run here exactly as docs/embedding.md shows them (and README.md the first):
// `readmeBlocksAreThisCode` checks that each shown block is the text between its markers.

// readme: touch-down
/// An iPad app's whole page side: UIKit's callbacks in; JavaScript, scrolling and drawing out.
final class Scratchpad {
    let side: PageSide                                     // the loop, the ink on the page, the page's deliveries
    init(view: PageTransform, clock: (any InkLoopClock)? = nil,
         evaluate: @escaping (String, @escaping (Bool) -> Void) -> Void,  // evaluateJavaScript in the script's world: true?
         scroll: @escaping (Double, Double) -> Void,                      // scrollView.contentOffset += (dx, dy)
         redraw: @escaping (CanvasRect?) -> Void) {                       // overlay.setNeedsDisplay(_:)
        side = PageSide(configuration: InkEngineConfiguration(routing: .decideAtTouchDown), transform: view, clock: clock,
                        page: PageSide.Page(evaluate: evaluate, scroll: scroll, redraw: redraw))
    }
    // UIKit calls these, on the main thread:
    func overlayTakes(_ point: CanvasPoint) -> Bool { side.takesTouch(at: point, tool: nil) }   // the overlay's hitTest(_:with:)
    func touched(_ events: [TouchEvent], onOverlay: Bool) { side.touched(events, onOverlay: onOverlay) }  // every touch
    func refined(_ updates: [EstimatedPropertyUpdate]) { side.refined(updates) }   // touchesEstimatedPropertiesUpdated(_:)
    func pageSaid(_ body: String) { side.pageSaid(body) }                          // the script message handler
    func scrolled(_ view: PageTransform) { side.viewMoved(view) }                  // scrollViewDidScroll(_:), didZoom
    func resized(_ view: PageTransform) { side.viewResized(view) }                 // the web view's size changed
    func navigated(_ view: PageTransform) { side.navigated(view) }                 // webView(_:didCommit:)
    func closing() { side.close() }                                                // the controller goes away
    func draw(_ fill: ([CanvasPoint]) -> Void) { side.ink.forEachPolygon(through: side.transform, fill) }  // draw(_:)
}
// readme: end

// readme: hand-over
/// A scratchpad over a page the host can hand touches to after the decision (Android, Chromium).
final class HandOverScratchpad {
    let side: PageSide
    init(view: PageTransform = .identity, clock: (any InkLoopClock)? = nil,
         evaluate: @escaping (String, @escaping (Bool) -> Void) -> Void,  // runs JavaScript in the page script's world
         scroll: @escaping (Double, Double) -> Void = { _, _ in },
         toPage: @escaping (PageTouch) -> Void) {                         // injects the page's pointer: down, move, up, cancel
        side = PageSide(transform: view, clock: clock, page: PageSide.Page(evaluate: evaluate, scroll: scroll, inject: toPage))
    }
    func touched(_ events: [TouchEvent]) { side.touched(events, onOverlay: true) }
    func refined(_ updates: [EstimatedPropertyUpdate]) { side.refined(updates) }
    func pageSaid(_ body: String) { side.pageSaid(body) }
    func scrolled(_ view: PageTransform) { side.viewMoved(view) }
    func resized(_ view: PageTransform) { side.viewResized(view) }
    func navigated(_ view: PageTransform) { side.navigated(view) }
    func closing() { side.close() }                        // the page's pointers still down are cancelled
    func draw(_ fill: ([CanvasPoint]) -> Void) { side.ink.forEachPolygon(through: side.transform, fill) }
}
// readme: end

@Suite("The README's minimal embeddings, as written")
struct ReadmeEmbeddingTests {
    /// The page's side: the requests it was asked and the scripts it ran.
    final class Page {
        var scripts: [String] = []
        func run(_ script: String) { scripts.append(script) }
        /// Evaluates a script: the page script is there.
        func evaluate(_ script: String, _ done: (Bool) -> Void) {
            run(script)
            done(true)
        }
        /// The id of the last hit-test request evaluated.
        var lastRequestID: String? {
            scripts.last { $0.contains("hitTest") }.flatMap { script in
                script.range(of: #"[0-9a-f]{32}"#, options: .regularExpression).map { String(script[$0]) }
            }
        }
    }

    static func event(_ id: UInt64, _ phase: TouchPhase, _ x: Double, _ y: Double, _ t: Double, _ tool: ToolKind = .pencil) -> TouchEvent {
        TouchEvent(touch: PlatformTouchID(id), phase: phase, samples: [TouchSample(x: x, y: y, timestamp: t, tool: tool)])
    }

    static let regions = #"{"type":"regions","generation":1,"maxAge":5000,"regions":[{"x":100,"y":100,"width":100,"height":50}]}"#

    @Test("touch-down: the regions decide at touch-down, the rest is inked, a late claim is replayed; a new page's regions decide too")
    func touchDown() throws {
        let clock = ManualClock(start: 1), page = Page()
        let pad = Scratchpad(view: .identity, clock: clock, evaluate: page.evaluate, scroll: { _, _ in }, redraw: { _ in })
        pad.pageSaid(Self.regions)
        #expect(!pad.overlayTakes(CanvasPoint(x: 150, y: 120)))   // the answer field: the web view's
        #expect(pad.overlayTakes(CanvasPoint(x: 400, y: 400)))
        // The field's touch reaches the page natively; a stroke beside it is ink.
        pad.touched([Self.event(1, .began, 150, 120, 1, .finger)], onOverlay: false)
        pad.touched([Self.event(1, .ended, 151, 121, 1.05, .finger)], onOverlay: false)
        for (i, phase) in [TouchPhase.began, .moved, .moved, .ended].enumerated() {
            pad.touched([Self.event(2, phase, 400 + Double(i) * 5, 400, 1.1 + Double(i) * 0.008)], onOverlay: true)
        }
        #expect(pad.side.ink.finished.count == 1 && pad.side.loop.ledger.releasedNatively == 2 && pad.side.loop.ledger.inked == 4)
        // "Next exercise": the old page's regions go; the new page (its generations start at 1 again) pushes its own.
        pad.navigated(.identity)
        #expect(pad.side.loop.route(at: CanvasPoint(x: 150, y: 120), tool: .finger) == nil)
        pad.pageSaid(#"{"type":"regions","generation":1,"maxAge":5000,"regions":[{"x":300,"y":300,"width":50,"height":50}]}"#)
        #expect(!pad.overlayTakes(CanvasPoint(x: 320, y: 320)) && pad.overlayTakes(CanvasPoint(x: 150, y: 120)))
        // The snapshot goes stale: a touch on the new field is inked tentatively, asked, claimed, replayed.
        clock.advance(to: 7)
        pad.touched([Self.event(3, .began, 320, 320, 7, .finger)], onOverlay: true)
        pad.touched([Self.event(3, .ended, 321, 321, 7.02, .finger)], onOverlay: true)
        let id = try #require(page.lastRequestID)
        pad.pageSaid(#"{"type":"answer","id":"\#(id)","interactive":1,"generation":1}"#)
        #expect(page.scripts.last?.contains("replay") == true, "\(page.scripts.last ?? "")")
        pad.closing()
        #expect(pad.side.loop.ledger.received == 8 && pad.side.loop.ledger.isBalanced && pad.side.loop.ledger.replayed == 2, "\(pad.side.loop.ledger)")
        #expect(pad.side.loop.metrics.auditFailures.isEmpty)
    }

    @Test("hand-over: a touch on the field is asked about, queued, then handed to the page in order; a dot the page never answers becomes ink at its deadline")
    func handOver() throws {
        let clock = ManualClock(start: 1), page = Page()
        var handed: [PageTouch] = []
        let pad = HandOverScratchpad(clock: clock, evaluate: page.evaluate, toPage: { handed.append($0) })
        pad.touched([Self.event(7, .began, 150, 120, 1, .finger)])
        pad.touched([Self.event(7, .moved, 152, 121, 1.01, .finger)])
        let id = try #require(page.lastRequestID)
        clock.advance(to: 1.03)
        pad.pageSaid(#"{"type":"answer","id":"\#(id)","interactive":1,"generation":1}"#)
        pad.touched([Self.event(7, .ended, 153, 122, 1.04, .finger)])
        #expect(handed.map(\.pointer) == [1, 1, 1, 1] && handed.map(\.phase) == [.began, .moved, .moved, .ended])
        #expect(handed.map(\.time) == [1, 1.01, 1.04, 1.04] && handed.map(\.point.x) == [150, 152, 153, 153])
        clock.advance(to: 2)
        pad.touched([Self.event(8, .began, 400, 400, 2)])
        pad.touched([Self.event(8, .ended, 401, 400, 2.012)])
        #expect(pad.side.ink.finished.isEmpty)
        clock.advance(to: 2.3)                                  // the one wake-up: the deadline decides
        #expect(pad.side.ink.finished.count == 1 && pad.side.loop.ledger.inked == 2 && pad.side.loop.ledger.released == 3)
        #expect(pad.side.loop.metrics.auditFailures.isEmpty && pad.side.loop.ledger.isBalanced)
    }

    @Test("hand-over, issue 39's shortest reproduction: a tap decided late and a two-finger scroll reusing its platform id never share a page pointer")
    func handOverPagePointersNeverCollide() throws {
        // `InkEngine()` hand-over, no snapshot: began(5) on the button at 1.000, ended(5) at
        // 1.025; began(5) and began(6) on the paper at 1.160 (a gesture: the page's at once);
        // moved both at 1.180; the page answers the tap at 1.200; moved(5), ended(5) at 1.210.
        let clock = ManualClock(start: 1), page = Page()
        var handed: [PageTouch] = []
        let pad = HandOverScratchpad(clock: clock, evaluate: page.evaluate, toPage: { handed.append($0) })
        pad.touched([Self.event(5, .began, 150, 120, 1.000, .finger)])
        pad.touched([Self.event(5, .ended, 150, 121, 1.025, .finger)])
        let tap = try #require(page.lastRequestID)
        clock.advance(to: 1.160)
        pad.touched([Self.event(5, .began, 400, 400, 1.160, .finger)])
        // The page says each scroll finger is on the paper (issue 52: a gesture is made once
        // both are known to be): the second answer makes the gesture.
        pad.pageSaid(#"{"type":"answer","id":"\#(try #require(page.lastRequestID))","interactive":0,"generation":1}"#)
        pad.touched([Self.event(6, .began, 480, 400, 1.160, .finger)])
        pad.pageSaid(#"{"type":"answer","id":"\#(try #require(page.lastRequestID))","interactive":0,"generation":1}"#)
        clock.advance(to: 1.180)
        pad.touched([Self.event(5, .moved, 400, 380, 1.180, .finger)])
        pad.touched([Self.event(6, .moved, 480, 380, 1.180, .finger)])
        clock.advance(to: 1.200)
        pad.pageSaid(#"{"type":"answer","id":"\#(tap)","interactive":1,"generation":1}"#)
        clock.advance(to: 1.210)
        pad.touched([Self.event(5, .moved, 400, 360, 1.210, .finger)])
        pad.touched([Self.event(5, .ended, 400, 350, 1.210, .finger)])
        // The page's view: a pointer goes down on its first sample, moves, lifts on `nil`; a
        // pointer's samples are one touch's, in time order, and nothing comes for it once it is up.
        var down: [UInt64: Double] = [:], pointers: [[Double]] = [], current: [UInt64: Int] = [:]
        for touch in handed {
            let pointer = touch.pointer
            if touch.phase == .began || touch.phase == .moved {
                if let last = down[pointer] {
                    #expect(touch.phase == .moved && touch.time >= last, "pointer \(pointer): a sample at \(touch.time) after one at \(last)")
                    pointers[current[pointer]!].append(touch.time)
                } else {
                    #expect(touch.phase == .began, "pointer \(pointer) moved before it went down")
                    current[pointer] = pointers.count
                    pointers.append([touch.time])
                }
                down[pointer] = touch.time
            } else {
                #expect(down.removeValue(forKey: pointer) != nil, "pointer \(pointer) lifted while up")
            }
        }
        #expect(down.count == 1, "finger 6 is still down, and only it: \(down)")
        // Three page pointers, each a whole touch: the tap, and the two scroll fingers.
        #expect(pointers.map(\.count).sorted() == [2, 2, 4] && pointers.contains([1.000, 1.025]), "\(pointers)")
        #expect(pad.side.loop.ledger.released == 8 && pad.side.loop.ledger.isBalanced, "\(pad.side.loop.ledger)")
        #expect(pad.side.loop.metrics.auditFailures.isEmpty)
    }

    @Test("hand-over: a drag the page has is cancelled there when the scratchpad closes or the system cancels it, so a new tap never continues it")
    func handOverCancelsThePagesPointers() throws {
        let clock = ManualClock(start: 1), page = Page()
        var handed: [PageTouch] = []
        var pad: HandOverScratchpad? = HandOverScratchpad(clock: clock, evaluate: page.evaluate, toPage: { handed.append($0) })
        // A block drag the page claims, then the controller is replaced mid-drag.
        pad?.touched([Self.event(3, .began, 150, 120, 1, .finger)])
        pad?.pageSaid(#"{"type":"answer","id":"\#(try #require(page.lastRequestID))","interactive":1,"generation":1}"#)
        pad?.touched([Self.event(3, .moved, 170, 120, 1.02, .finger)])
        pad?.closing()
        #expect(handed.map(\.phase) == [.began, .moved, .cancelled], "\(handed.map(\.phase))")
        #expect(handed.last?.pointer == handed.first?.pointer && handed.last?.point == CanvasPoint(x: 170, y: 120))
        #expect(pad?.side.loop.ledger.isBalanced == true && pad?.side.loop.metrics.auditFailures.isEmpty == true)
        // A new scratchpad: the system cancels a drag the page has; the page gets the cancel too.
        handed.removeAll()
        pad = HandOverScratchpad(clock: clock, evaluate: page.evaluate, toPage: { handed.append($0) })
        clock.advance(to: 2)
        pad?.touched([Self.event(3, .began, 150, 120, 2, .finger)])
        pad?.pageSaid(#"{"type":"answer","id":"\#(try #require(page.lastRequestID))","interactive":1,"generation":1}"#)
        pad?.touched([TouchEvent(touch: PlatformTouchID(3), phase: .cancelled, samples: [])])
        #expect(handed.map(\.phase) == [.began, .cancelled], "\(handed.map(\.phase))")
        #expect(pad?.side.loop.ledger.isBalanced == true && pad?.side.loop.metrics.auditFailures.isEmpty == true)
    }

    @Test("README.md shows the touch-down embedding and docs/embedding.md both, exactly as here, each at most 30 lines")
    func readmeBlocksAreThisCode() throws {
        let here = URL(fileURLWithPath: #filePath)
        let source = try String(contentsOf: here, encoding: .utf8)
        let root = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let article = try String(contentsOf: root.appendingPathComponent("docs/embedding.md"), encoding: .utf8)
        for name in ["touch-down", "hand-over"] {
            let start = try #require(source.range(of: "// readme: \(name)\n"))
            let end = try #require(source.range(of: "// readme: end\n", range: start.upperBound..<source.endIndex))
            let code = String(source[start.upperBound..<end.lowerBound])
            #expect(code.split(separator: "\n").count <= 30, "\(name): \(code.split(separator: "\n").count) lines")
            #expect(article.contains("```swift\n" + code + "```\n"), "docs/embedding.md does not show the \(name) embedding as written here")
            if name == "touch-down" {
                #expect(readme.contains("```swift\n" + code + "```\n"), "README.md does not show the \(name) embedding as written here")
            }
        }
    }
}
