import CWebKitGTK
import Foundation
@_spi(Tooling) import GTKScratchpad
@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkCore
@_spi(Tooling) import WebKitGTKOracle

/// Many strokes written into a window at once, for measurements and tests that need a page
/// full of ink: each stroke a small looped scribble (a handwritten letter's size) with pencil
/// force, handed to the window's loop as the platform's touches (``ScratchpadWindow/deliver(_:)``),
/// one after another, at places drawn from a seeded generator.
public enum SyntheticInk {
    /// Writes `count` strokes whose starting points lie in `area` (canvas points of the window
    /// as the page is scrolled now; keep the area clear of the page's interactive regions, or
    /// those strokes go to the page). Returns how many strokes the window's ink gained.
    @discardableResult
    @_spi(Tooling) public static func write(_ count: Int, into window: ScratchpadWindow, area: CanvasRect, seed: UInt64 = 1) -> Int {
        var state = seed == 0 ? 0x9E37_79B9_7F4A_7C15 : seed
        func random() -> Double {  // xorshift64*, 0..<1
            state ^= state >> 12; state ^= state << 25; state ^= state >> 27
            return Double((state &* 0x2545_F491_4F6C_DD1D) >> 11) / Double(1 << 53)
        }
        let before = window.ink.finished.count
        var clock = GTK.now
        for index in 0..<max(0, count) {
            let x = area.minX + random() * max(0, area.width - 60), y = area.minY + random() * max(0, area.height - 30)
            let turns = 1 + random() * 1.5, id = PlatformTouchID(UInt64(100_000 + index))
            clock = max(clock + 0.002, GTK.now)
            let samples = (0..<24).map { i -> TouchSample in
                let t = Double(i) / 23 * turns * 2 * .pi
                return TouchSample(x: x + 40 * Double(i) / 23 + 10 * sin(t), y: y + 15 - 12 * cos(t) + 3 * sin(2 * t),
                                   timestamp: clock + Double(i) / 240, force: 0.9, tool: .pencil)
            }
            clock += 24.0 / 240
            window.deliver(.touch(TouchEvent(touch: id, phase: .began, samples: [samples[0]])))
            for chunk in stride(from: 1, to: samples.count, by: 4) {
                window.deliver(.touch(TouchEvent(touch: id, phase: .moved, samples: Array(samples[chunk..<min(chunk + 4, samples.count)]))))
            }
            window.deliver(.touch(TouchEvent(touch: id, phase: .ended, samples: [])))
        }
        return window.ink.finished.count - before
    }
}
