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
    @Suite("Two fingers pinching on the scratch paper zoom the page (the web view cannot see them)", .serialized)
    struct PinchTests {
        /// Two GDK touch sequences (`first` and `first + 1`) on the long worksheet's paper,
        /// `from` points apart about (640, 650), then moved symmetrically to `to` points apart
        /// in ten frames.
        static func pinch(from: Double, to: Double, first: Int) throws -> SessionLog {
            var lines = [#"{"format":"scratchpad-ink-session","version":1,"canvas":{"width":1024,"height":768},"page_transform":{"scale":1,"offset_x":0,"offset_y":0},"source":"PinchTests"}"#]
            func sample(_ x: Double, _ t: Double) -> String { #"{"t":\#(t),"x":\#(x),"y":650}"# }
            let a = first, b = first + 1
            lines.append(#"{"kind":"touch","t":1,"touch":\#(a),"phase":"began","tool":"finger","samples":[\#(sample(640 - from / 2, 1))]}"#)
            lines.append(#"{"kind":"touch","t":1.03,"touch":\#(b),"phase":"began","tool":"finger","samples":[\#(sample(640 + from / 2, 1.03))]}"#)
            var t = 1.1
            for step in 1...10 {
                let half = (from + (to - from) * Double(step) / 10) / 2
                t = 1.1 + Double(step) / 60
                lines.append(#"{"kind":"touch","t":\#(t),"touch":\#(a),"phase":"moved","samples":[\#(sample(640 - half, t))]}"#)
                lines.append(#"{"kind":"touch","t":\#(t),"touch":\#(b),"phase":"moved","samples":[\#(sample(640 + half, t))]}"#)
            }
            lines.append(#"{"kind":"touch","t":\#(t + 0.05),"touch":\#(a),"phase":"ended","samples":[]}"#)
            lines.append(#"{"kind":"touch","t":\#(t + 0.05),"touch":\#(b),"phase":"ended","samples":[]}"#)
            return try SessionLog.parse(lines.joined(separator: "\n"), file: "pinch.jsonl").get()
        }

        @Test("fingers moving apart from 160 to 280 points zoom WebKitGTK's zoom-level by 1.75 and the page transform follows; the content under their midpoint stays under it vertically; nothing is ink or lost; moving together again zooms back")
        func pinchZooms() throws {
            try GTKThread.shared.run {
                let window = try ScratchpadWindow()
                try window.show(loading: fixturePage("long.html"))
                let middle = CanvasPoint(x: 640, y: 650)
                let before = window.transform.pagePoint(for: middle)
                var player = LogPlayer()
                _ = player.play(try Self.pinch(from: 160, to: 280, first: 1), into: window)
                _ = GTK.spin(timeout: 3) { abs(window.transform.scale - 1 / window.page.zoomLevel) < 1e-9 }
                #expect(abs(window.page.zoomLevel - 1.75) < 0.02, "zoom-level \(window.page.zoomLevel)")
                #expect(abs(window.transform.scale - 1 / window.page.zoomLevel) < 1e-9, "transform \(window.transform)")
                let after = window.transform.pagePoint(for: middle)
                #expect(abs(after.y - before.y) < 12, "the midpoint showed page y \(before.y), now \(after.y); transform \(window.transform), scrollY \(String(describing: try? window.page.evaluate("window.scrollY", inPageWorld: true)))")
                #expect(window.side.gestureZooms >= 1)
                // Together again, from 280 to 160: back to zoom 1.
                _ = player.play(try Self.pinch(from: 280, to: 160, first: 3), into: window)
                _ = GTK.spin(timeout: 3) { abs(window.page.zoomLevel - 1) < 0.02 }
                #expect(abs(window.page.zoomLevel - 1) < 0.02, "zoom-level \(window.page.zoomLevel)")
                let report = window.finish()
                #expect(report.isVerified, "\(report.problems)")
                #expect(report.strokes == 0 && window.loop.ledger.inked == 0)
                #expect(report.outcomes.allSatisfy { $0.verdict == .page }, "\(report.outcomes.map(\.verdict))")
            }
        }
    }
}
