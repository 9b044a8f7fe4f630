import CWebKitGTK
import Foundation
import Testing
@_spi(Tooling) import WebKitGTKOracle
@_spi(Tooling) import GTKLogPlayer

/// The call the native side evaluates in the page script's world for one replayed batch
/// (`scratchpadInk.replay`, see the page script's header).
private func replayCall(touch: Int, pointerType: String, _ samples: [(phase: String, x: Double, y: Double, t: Double)]) -> String {
    let events = samples.map { "{\"phase\":\"\($0.phase)\",\"x\":\($0.x),\"y\":\($0.y),\"t\":\($0.t)}" }.joined(separator: ",")
    let batch = "{\"type\":\"replay\",\"touch\":\(touch),\"pointerType\":\"\(pointerType)\",\"events\":[\(events)]}"
    return "(window.scratchpadInk ? (window.scratchpadInk.replay(\(batch)), true) : false);"
}

extension WebKitGTK {
    @Suite("WebKitGTK: a claimed touch replayed into the real page (the iPad's route)", .serialized)
    struct WebKitReplayTests {
        @Test("a replayed drag, evaluated in the script world, moves a block by the drag's distance; the page counts untrusted replays with the original times",
              arguments: ["touch", "pen", "mouse"])
        func replayedDrag(pointerType: String) throws {
            try GTKThread.shared.run {
                let page = try WebKitGTKPage()
                let window = page.showInWindow()
                defer { gtk_widget_destroy(window) }
                try page.load(fixturePage("blocks.html"))
                _ = try page.evaluate("""
                    window.replayLog = [];
                    ['pointerdown', 'pointermove', 'pointerup', 'touchstart', 'touchmove', 'touchend', 'mousedown', 'mouseup', 'click'].forEach(function (type) {
                      document.addEventListener(type, function (e) { window.replayLog.push(e.type + (e.isTrusted ? '!' : '')); }, true);
                    });
                    true
                    """, inPageWorld: true)
                var first = [(phase: "down", x: 168.0, y: 348.0, t: 5.25)]
                for i in 1...10 { first.append(("move", 168 + 25 * Double(i), 348, 5.25 + 0.0625 * Double(i))) }
                #expect(try page.evaluate(replayCall(touch: 1, pointerType: pointerType, first)) == "true")
                // The page script paces the samples (each within 100 ms of the hand-over).
                let drained = { GTK.spin(timeout: 2) { (try? page.evaluate("scratchpadInk.replayPending")) == "0" } }
                #expect(drained())
                #expect(try page.evaluate("document.getElementById('block-1').offsetLeft", inPageWorld: true) == "370")
                #expect(try page.bodyData("lastReplayTime") == "5.875")
                #expect(try page.evaluate(replayCall(touch: 1, pointerType: pointerType, [("up", 418, 348, 5.9375)])) == "true")
                #expect(drained())
                #expect(try page.bodyData("order") == "block-2,block-3,block-1,block-4")
                #expect(try page.bodyData("drags") == "1")
                #expect(try page.bodyData("events") == "12")
                #expect(try page.bodyData("untrusted") == "12" && page.bodyData("trusted") == "0")
                #expect(try page.bodyData("replayed") == "12")
                #expect(try page.bodyData("lastReplayTime") == "5.9375")
                // Pointer events in order, each followed by its touch event for a touch.
                let log = try page.evaluate("window.replayLog.join(' ')", inPageWorld: true) ?? ""
                let pointers = ["pointerdown"] + Array(repeating: "pointermove", count: 10) + ["pointerup"]
                let withTouches = ["pointerdown", "touchstart"] + Array(repeating: ["pointermove", "touchmove"], count: 10).flatMap { $0 } + ["pointerup", "touchend"]
                // WebKit's Touch constructor is illegal: the page script makes the touches with
                // document.createTouch and the lists with document.createTouchList. The page
                // handles each touch once (its touch events follow its pointer events).
                #expect(log == "\"\((pointerType == "touch" ? withTouches : pointers).joined(separator: " "))\"")
            }
        }
    }
}
