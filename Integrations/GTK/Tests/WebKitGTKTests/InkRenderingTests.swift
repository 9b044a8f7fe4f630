import CWebKitGTK
import Foundation
@_spi(Tooling) import GTKLogPlayer
@_spi(Tooling) import GTKScratchpad
@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkCore
import Testing
@_spi(Tooling) import WebKitGTKOracle

extension WebKitGTK.RealScreenTests {
    /// Pixels that differ by more than `threshold` in a channel between two captures, and the
    /// box around them.
    static func differences(_ a: Screen, _ b: Screen, threshold: Int = 24) -> (count: Int, box: String) {
        var count = 0
        var box: (minX: Int, minY: Int, maxX: Int, maxY: Int)?
        for y in 0..<min(a.height, b.height) {
            for x in 0..<min(a.width, b.width) {
                let (r0, g0, b0) = a.rgb(x, y), (r1, g1, b1) = b.rgb(x, y)
                guard abs(r0 - r1) > threshold || abs(g0 - g1) > threshold || abs(b0 - b1) > threshold else { continue }
                count += 1
                box = (min(box?.minX ?? x, x), min(box?.minY ?? y, y), max(box?.maxX ?? x, x), max(box?.maxY ?? y, y))
            }
        }
        return (count, box.map { "\($0)" } ?? "-")
    }

    /// The real wheel over the scratch paper, `notches` notches down; waits until the window
    /// follows the page's scroll. Returns the page's scroll offset.
    static func wheel(_ window: ScratchpadWindow, notches: Int) -> Double {
        let (ox, oy) = origin(window)
        scratchpad_xtest_move(gint(ox + 700), gint(oy + 400))
        for _ in 0..<notches {
            scratchpad_xtest_button(5, 1)
            scratchpad_xtest_button(5, 0)
            GTK.spin(for: 0.05)
        }
        scratchpad_xtest_move(0, 0)
        let scrolled = { Double((try? window.page.evaluate("window.scrollY", inPageWorld: true)).flatMap { $0 } ?? "") ?? 0 }
        GTK.spin(for: 1.5)
        _ = GTK.spin(timeout: 3) { window.transform.offsetY == scrolled() && scrolled() > 0 }
        GTK.spin(for: 0.3)
        return scrolled()
    }

    @Test("300 strokes on the long worksheet, the real wheel scrolls it: the ink painted from its tiles' pictures is where filling every stroke puts it, pixel for pixel, after the scroll and after undoing 40 strokes and writing one more")
    func cachedInkStaysInPlace() throws {
        try GTKThread.shared.run {
            guard scratchpad_xtest_available() != 0 else {
                Issue.record("no XTest on this display")
                return
            }
            let window = try Self.open("long.html")
            let written = SyntheticInk.write(300, into: window, area: CanvasRect(minX: 30, minY: 140, maxX: 540, maxY: 740))
            #expect(written == 300)
            GTK.spin(for: 0.5)
            let before = try Self.screen(window)
            let offset = Self.wheel(window, notches: 5)
            #expect(offset > 40 && window.transform.offsetY == offset, "the page scrolled by \(offset)")
            #expect(window.usesInkCache && window.inkTilesRendered > 0)
            let cached = try Self.screen(window)
            // Every ink pixel of the first screen moved up by exactly the scroll.
            var moved = 0, inkAbove = 0
            for y in 0..<(before.height - Int(offset)) {
                for x in 0..<before.width where before.isInk(x, y + Int(offset)) {
                    inkAbove += 1
                    if cached.isInk(x, y) { moved += 1 }
                }
            }
            #expect(inkAbove > 5_000 && Double(moved) >= 0.98 * Double(inkAbove), "\(moved) of \(inkAbove) ink pixels moved with the page")
            window.usesInkCache = false
            GTK.spin(for: 0.5)
            let filled = try Self.screen(window)
            let scrolledDiff = Self.differences(cached, filled)
            #expect(scrolledDiff.count == 0, "after the scroll: \(scrolledDiff.count) pixels differ between the pictures and filling, within \(scrolledDiff.box)")
            // Undo 40 strokes and write one more, with the pictures: nothing stale stays.
            window.usesInkCache = true
            GTK.spin(for: 0.3)
            for _ in 0..<40 { window.undo() }
            SyntheticInk.write(1, into: window, area: CanvasRect(minX: 100, minY: 300, maxX: 300, maxY: 400), seed: 99)
            GTK.spin(for: 0.5)
            let afterUndo = try Self.screen(window)
            window.usesInkCache = false
            GTK.spin(for: 0.5)
            let undoDiff = Self.differences(afterUndo, try Self.screen(window))
            #expect(undoDiff.count == 0, "after undo: \(undoDiff.count) pixels differ between the pictures and filling, within \(undoDiff.box)")
            #expect(Self.differences(filled, afterUndo).count > 100, "the undo changed the screen")
            // Clear: no ink stays on the screen.
            window.usesInkCache = true
            window.clearInk()
            GTK.spin(for: 0.5)
            let cleared = try Self.screen(window)
            #expect(cleared.inkBounds == nil, "ink left after clear within \(cleared.inkBounds.map { "\($0)" } ?? "-")")
            let report = window.finish()
            #expect(report.isVerified, "\(report.verificationFailures)")
        }
    }

    @Test("on a dark page the ink shows: the window reads the page's background, draws light ink, and a real-mouse stroke leaves hundreds of pixels contrasting 3:1 or more with the page")
    func inkShowsOnADarkPage() throws {
        try GTKThread.shared.run {
            guard scratchpad_xtest_available() != 0 else {
                Issue.record("no XTest on this display")
                return
            }
            let window = try Self.open("dark.html")
            let before = try Self.screen(window)
            Self.stroke(window, along: Self.wave(from: CanvasPoint(x: 90, y: 420), to: CanvasPoint(x: 700, y: 460), amplitude: 40, waves: 3))
            GTK.spin(for: 0.5)
            let after = try Self.screen(window)
            let report = window.finish()
            #expect(report.isVerified && report.strokes == 1 && report.ledger.inked > 30, "\(report.ledger)")
            let background = try #require(window.pageBackground, "the window read the page's background")
            #expect(background.isDark, "\(background)")
            #expect(window.effectiveInkColor.withAlpha(1) == InkColor.lightInk)
            var contrasting = 0, changed = 0
            for y in 0..<after.height {
                for x in 0..<after.width {
                    let (r0, g0, b0) = before.rgb(x, y), (r1, g1, b1) = after.rgb(x, y)
                    guard (r0, g0, b0) != (r1, g1, b1) else { continue }
                    changed += 1
                    let page = InkColor(red: Double(r0) / 255, green: Double(g0) / 255, blue: Double(b0) / 255)
                    let now = InkColor(red: Double(r1) / 255, green: Double(g1) / 255, blue: Double(b1) / 255)
                    if now.contrastRatio(with: page) >= 3 { contrasting += 1 }
                }
            }
            #expect(contrasting > 400, "\(contrasting) of \(changed) changed pixels contrast 3:1 or more with the dark page")
        }
    }
}
