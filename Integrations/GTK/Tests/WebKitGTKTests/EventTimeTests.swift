import CWebKitGTK
import Foundation
@_spi(Tooling) @testable import GTKScratchpad
@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkCore
import Testing
@_spi(Tooling) import WebKitGTKOracle
@_spi(Tooling) import GTKLogPlayer

extension WebKitGTK {
    /// Samples carry the GDK event's own time, mapped to the engine's clock, not the time the
    /// window happened to see the event.
    @Suite("GDK event times in the window", .serialized)
    struct EventTimeTests {
        /// Delivers one synthesized pointer event to the overlay the way the display server
        /// would (the window's observer first, then the canvas).
        static func send(_ window: ScratchpadWindow, _ type: GdkEventType, _ point: CanvasPoint, time: UInt32, button: Bool = true) {
            guard let event = scratchpad_make_pointer(window.canvas, type, point.x, point.y, time) else { return }
            defer { gdk_event_free(event) }
            if type == GDK_MOTION_NOTIFY && !button { event.pointee.motion.state = 0 }
            window.dispatchAsPlatform(event, to: window.canvas)
        }

        @Test("a stroke's motion events arriving in bursts of four (one 16 ms frame each), delivered together with their own times 4 ms apart: the samples carry those times on the engine's clock, and the predicted tail stays within the pen's travel over the prediction horizon of the real path")
        func burstsKeepTheirTimes() throws {
            try GTKThread.shared.run {
                let window = try ScratchpadWindow()
                try window.show(loading: fixturePage("blocks.html"))
                // The pointer hovering over the paper: a fresh event, from which the window
                // learns how the display server's clock maps to its own.
                let hoverTime = GTK.eventTime
                let notBefore = GTK.now
                Self.send(window, GDK_MOTION_NOTIFY, CanvasPoint(x: 90, y: 515), time: hoverTime, button: false)
                let notAfter = GTK.now
                // A straight stroke over the blank paper, pressed 160 ms before the hover's event
                // and moved every 4 ms since (a 250 Hz pen): the main loop was busy, and the
                // events arrive in bursts, with no time passing between them here.
                let start = hoverTime &- 160
                func point(_ k: Int) -> CanvasPoint { CanvasPoint(x: 100 + 6 * Double(k), y: 520 + 2 * Double(k)) }
                Self.send(window, GDK_BUTTON_PRESS, point(0), time: start)
                var worstOvershoot = 0.0
                for burst in 0..<10 {
                    for i in 1...4 {
                        let k = burst * 4 + i
                        Self.send(window, GDK_MOTION_NOTIFY, point(k), time: start &+ UInt32(4 * k))
                    }
                    // How far the ink drawn so far (the settled part, the tentative tail and its
                    // prediction) reaches beyond the real path's box.
                    let last = point(burst * 4 + 4)
                    let segments = window.ink.strokes.last?.builder.allSegments ?? []
                    for segment in segments {
                        let b = segment.bounds
                        worstOvershoot = max(worstOvershoot, 100 - b.minX, b.maxX - last.x, 520 - b.minY, b.maxY - last.y)
                    }
                }
                Self.send(window, GDK_BUTTON_RELEASE, point(40), time: start &+ 160)
                let report = window.finish()
                #expect(report.isVerified && report.strokes == 1, "\(report.verificationFailures)")
                let samples = try #require(report.outcomes.last?.inked)
                #expect(samples.count == 42, "\(samples.count) samples")
                let times = samples.map(\.timestamp)
                // The press's event, 160 ms before the hover's: 160 ms before the hover was seen.
                let first = try #require(times.first)
                #expect(first >= notBefore - 0.161 && first <= notAfter - 0.159,
                        "the press at \(first), the hover seen between \(notBefore) and \(notAfter)")
                let gaps = zip(times.dropFirst(), times).map { ($0 - $1) * 1000 }
                let moves = gaps.prefix(40)
                #expect(moves.allSatisfy { abs($0 - 4) < 0.01 }, "gaps between the samples, ms: \(gaps.map { ($0 * 1000).rounded() / 1000 })")
                // The pen's real speed carried over the predictor's horizon, plus the ink's width.
                let style = StrokeStyle()
                let reach = (6.0 * 6 + 2 * 2).squareRoot() / 0.004 * style.predictionHorizon + 2 * style.size + 2
                #expect(worstOvershoot < reach, "the drawn stroke reached \(worstOvershoot) points beyond the real path (at most \(reach))")
            }
        }
    }
}
