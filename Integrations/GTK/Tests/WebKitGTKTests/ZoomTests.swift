import CWebKitGTK
import Foundation
@_spi(Tooling) import GTKScratchpad
@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkCore
import Testing
@_spi(Tooling) import WebKitGTKOracle
@_spi(Tooling) import GTKLogPlayer

extension WebKitGTK.RealScreenTests {
    /// Sets WebKitGTK's zoom and waits (at most 3 s) until the window's page transform follows
    /// it; then lets the page and the overlay repaint.
    static func zoom(_ window: ScratchpadWindow, to level: Double) {
        window.page.zoomLevel = level
        _ = GTK.spin(timeout: 3) { abs(window.transform.scale - 1 / level) < 1e-9 }
        GTK.spin(for: 0.6)
    }

    @Test("zoom reaches the page: ink written at zoom 1 is at the same page place on the real screen at zoom 3 (three times as far from the page's corner, three times as large) and back at zoom 1; the page transform follows WebKitGTK's zoom-level")
    func inkStaysOnThePageThroughZoom() throws {
        try GTKThread.shared.run {
            guard scratchpad_xtest_available() != 0 else {
                Issue.record("no XTest on this display")
                return
            }
            // The blocks page does not scroll (overflow hidden): zoomed, its top-left corner
            // stays at the view's, so page point p shows at p × zoom.
            let window = try Self.open("blocks.html")
            Self.stroke(window, along: Self.wave(from: CanvasPoint(x: 90, y: 200), to: CanvasPoint(x: 300, y: 230), amplitude: 10, waves: 1.5))
            GTK.spin(for: 0.5)
            let written = try #require(try Self.screen(window).inkBounds)
            Self.zoom(window, to: 3)
            #expect(abs(window.transform.scale - 1.0 / 3) < 1e-9, "the page transform at zoom 3: \(window.transform)")
            let zoomed = try #require(try Self.screen(window).inkBounds, "no ink on the screen at zoom 3")
            for (at1, at3, edge) in [(written.minX, zoomed.minX, "left"), (written.minY, zoomed.minY, "top"),
                                     (written.maxX + 1, zoomed.maxX + 1, "right"), (written.maxY + 1, zoomed.maxY + 1, "bottom")] {
                #expect(abs(Double(at3) - 3 * Double(at1)) <= 4, "\(edge) edge: \(at1) at zoom 1, \(at3) at zoom 3 (expected \(3 * at1))")
            }
            Self.zoom(window, to: 1)
            let back = try #require(try Self.screen(window).inkBounds, "no ink on the screen back at zoom 1")
            #expect(abs(back.minX - written.minX) <= 1 && abs(back.minY - written.minY) <= 1
                    && abs(back.maxX - written.maxX) <= 1 && abs(back.maxY - written.maxY) <= 1,
                    "ink at \(written) at zoom 1, \(back) back at zoom 1")
            let report = window.finish()
            #expect(report.isVerified, "\(report.verificationFailures)")
            #expect(report.strokes == 1)
        }
    }

    @Test("routing follows the zoomed page: at zoom 2 the real mouse pressed on a block (where it shows now) drags it natively, and a stroke on the paper is ink")
    func routingFollowsTheZoom() throws {
        try GTKThread.shared.run {
            guard scratchpad_xtest_available() != 0 else {
                Issue.record("no XTest on this display")
                return
            }
            let window = try Self.open("blocks.html")
            Self.zoom(window, to: 2)
            // The page pushes a snapshot of its zoomed layout; the overlay's holes follow it.
            _ = GTK.spin(timeout: 3) {
                window.inputShapeHoles?.contains { $0.minX <= 336 && $0.maxX >= 336 && $0.minY <= 660 && $0.maxY >= 660 } == true
            }
            // Block 1 is at page (120...216, 300...396): at zoom 2, canvas (240...432, 600...792).
            Self.drag(window, from: CanvasPoint(x: 336, y: 660), to: CanvasPoint(x: 840, y: 700))
            GTK.spin(for: 0.5)
            #expect(try window.page.bodyData("drags") == "1")
            #expect(try window.page.bodyData("order") == "block-2,block-3,block-1,block-4")
            // Paper at page (200...330, 200...250): canvas (400...660, 400...500).
            Self.stroke(window, along: Self.wave(from: CanvasPoint(x: 400, y: 420), to: CanvasPoint(x: 660, y: 480), amplitude: 12, waves: 1))
            GTK.spin(for: 0.5)
            let report = window.finish()
            #expect(report.isVerified, "\(report.verificationFailures)")
            #expect(report.strokes == 1, "the stroke on the paper is ink (\(report.strokes) strokes)")
            #expect(try window.page.bodyData("drags") == "1", "the stroke did not drag anything")
        }
    }

    @Test("Ctrl and the real wheel over the scratch paper zoom the page (WebKitGTK's zoom-level), and the page transform follows")
    func controlWheelZooms() throws {
        try GTKThread.shared.run {
            guard scratchpad_xtest_available() != 0 else {
                Issue.record("no XTest on this display")
                return
            }
            let window = try Self.open("blocks.html")
            let (ox, oy) = Self.origin(window)
            scratchpad_xtest_move(gint(ox + 700), gint(oy + 550))
            GTK.spin(for: 0.1)
            scratchpad_xtest_control(1)
            for _ in 0..<3 {
                scratchpad_xtest_button(4, 1)   // the wheel up: zoom in
                scratchpad_xtest_button(4, 0)
                GTK.spin(for: 0.05)
            }
            scratchpad_xtest_control(0)
            scratchpad_xtest_move(0, 0)
            let level = window.page.zoomLevel
            _ = GTK.spin(timeout: 3) { abs(window.transform.scale - 1 / window.page.zoomLevel) < 1e-9 }
            #expect(level > 1.2, "Ctrl and the wheel left the zoom at \(level)")
            #expect(abs(window.transform.scale - 1 / window.page.zoomLevel) < 1e-9,
                    "zoom \(window.page.zoomLevel), page transform \(window.transform)")
            let report = window.finish()
            #expect(report.strokes == 0 && report.ledger.received == 0, "the wheel wrote nothing: \(report.ledger)")
        }
    }
}

extension WebKitGTK.RealScreenTests {
    /// Scrolls the page so that page point (`x`, `y`) is at the view's top-left corner (as far
    /// as the page goes), and waits until the window follows.
    static func scroll(_ window: ScratchpadWindow, toPage x: Double, _ y: Double) {
        let view = window.transform
        window.scrollPage(dx: (x - view.offsetX) / view.scale, dy: (y - view.offsetY) / view.scale)
        let page = { (try? window.page.canvasToPage()) ?? view }
        _ = GTK.spin(timeout: 2) { let p = page(); return window.transform == p && (p.offsetX != view.offsetX || p.offsetY != view.offsetY) }
        GTK.spin(for: 0.3)
    }

    @Test("zoom as PencilKit does it, 500 strokes on the long worksheet: while the zoom changes (1 to 3 in eight steps) the tile pictures are painted scaled and none is filled again; once it has rested they are filled at the new resolution; at zoom 5, scrolled across all the ink, no picture is wider than the cap and the pixels held stay within the budget")
    func zoomPaintsPicturesAndBoundsMemory() throws {
        try GTKThread.shared.run {
            guard scratchpad_xtest_available() != 0 else {
                Issue.record("no XTest on this display")
                return
            }
            let window = try Self.open("long.html")
            // A second of rest, not 150 ms: a loaded machine must not settle the zoom between steps.
            window.zoomSettleDelay = 1
            var written = SyntheticInk.write(250, into: window, area: CanvasRect(minX: 30, minY: 160, maxX: 540, maxY: 640))
            written += SyntheticInk.write(250, into: window, area: CanvasRect(minX: 560, minY: 170, maxX: 1000, maxY: 640), seed: 7)
            #expect(written == 500)
            GTK.spin(for: 0.5)
            let before = window.inkTilesRendered, framesBefore = window.framesDrawn
            let tessellated = window.inkStrokesTessellated
            #expect(before > 0)
            #expect(tessellated >= 490 && tessellated <= 500, "\(tessellated) strokes tessellated for 500 on screen")
            for step in 1...8 {
                let level = 1 + Double(step) / 4
                window.page.zoomLevel = level
                _ = GTK.spin(timeout: 0.5) { abs(window.transform.scale - 1 / level) < 1e-9 }
                GTK.spin(for: 0.03)
            }
            let during = window.inkTilesRendered
            #expect(abs(window.transform.scale - 1.0 / 3) < 1e-9, "\(window.transform)")
            #expect(window.framesDrawn > framesBefore, "the zoom was drawn")
            #expect(during == before, "tiles filled during the zoom: \(during - before)")
            GTK.spin(for: 1.6)
            #expect(window.inkTilesRendered > during, "the pictures were filled again at the new resolution once the zoom rested")
            #expect(window.inkStrokesTessellated == tessellated, "filled again from the strokes' outlines, not tessellated anew")
            // Zoom 5: the pictures are capped and the pixels held bounded, wherever the view is.
            Self.zoom(window, to: 5)
            for y in stride(from: 0.0, through: 700, by: 150) {
                for x in stride(from: 0.0, through: 900, by: 200) { Self.scroll(window, toPage: x, y) }
            }
            GTK.spin(for: 1.2)
            #expect(window.inkTileLargestSide <= ScratchpadWindow.inkTileMaxSide, "a picture \(window.inkTileLargestSide) pixels wide")
            #expect(window.inkTilePeakPixels <= ScratchpadWindow.inkTilePixelBudget,
                    "\(window.inkTilePeakPixels) pixels of pictures held at once, budget \(ScratchpadWindow.inkTilePixelBudget)")
            #expect(window.inkTilesRendered > during + 4, "the view crossed the ink at zoom 5")
            let report = window.finish()
            #expect(report.isVerified, "\(report.verificationFailures)")
        }
    }
}

extension WebKitGTK.RealScreenTests {
    /// The real screen under the whole window (1024 × 768 from its top-left corner).
    static func windowScreen(_ window: ScratchpadWindow) throws -> Screen {
        var x: gint = 0, y: gint = 0
        if let gdkWindow = gtk_widget_get_window(window.window) { gdk_window_get_origin(gdkWindow, &x, &y) }
        return try screen(x: Int(x), y: Int(y), width: 1024, height: 768)
    }

    @Test("the overlay clips to the web view: with the web view 120 points below the window's top (a header band of the app), ink written with the real mouse near the web view's top and scrolled 140 points up out of it shows nowhere in the band on the real screen; written, it was where the mouse drew it")
    func inkIsClippedToTheWebView() throws {
        try GTKThread.shared.run {
            guard scratchpad_xtest_available() != 0 else {
                Issue.record("no XTest on this display")
                return
            }
            let window = try Self.open("long.html")
            let band = 120
            gtk_widget_set_margin_top(window.page.widget, gint(band))
            GTK.spin(for: 1)
            var wx: gint = 0, wy: gint = 0
            if let gdkWindow = gtk_widget_get_window(window.window) { gdk_window_get_origin(gdkWindow, &wx, &wy) }
            func move(_ x: Double, _ y: Double) { scratchpad_xtest_move(wx + gint(x.rounded()), wy + gint(y.rounded())) }
            // A stroke on the paper just below the band (window coordinates), clear of the fields.
            let path = Self.wave(from: CanvasPoint(x: 150, y: Double(band) + 70), to: CanvasPoint(x: 420, y: Double(band) + 100), amplitude: 10, waves: 1.5)
            move(path[0].x, path[0].y)
            GTK.spin(for: 0.05)
            scratchpad_xtest_button(1, 1)
            GTK.spin(for: 0.016)
            for point in path.dropFirst() {
                move(point.x, point.y)
                GTK.spin(for: 0.016)
            }
            scratchpad_xtest_button(1, 0)
            GTK.spin(for: 0.5)
            let written = try #require(try Self.windowScreen(window).inkBounds, "no ink on the screen")
            #expect(abs(written.minX - 140) <= 12 && written.minY >= band + 50 && written.maxY <= band + 125,
                    "the ink is under the mouse's path: \(written)")
            // The page scrolls 140 points: the stroke (70 to 110 points below the web view's
            // top) moves up out of the web view, to where the band is.
            window.scrollPage(dx: 0, dy: 140)
            _ = GTK.spin(timeout: 3) { window.transform.offsetY == 140 }
            GTK.spin(for: 0.5)
            #expect(window.transform.offsetY == 140, "the page scrolled: \(window.transform)")
            let after = try Self.windowScreen(window)
            var inBand = 0
            for y in 0..<band { for x in 0..<after.width where after.isInk(x, y) { inBand += 1 } }
            #expect(inBand == 0, "\(inBand) ink pixels outside the web view (in the band above it)")
            let report = window.finish()
            #expect(report.strokes == 1 && report.isVerified, "\(report.strokes) strokes, \(report.verificationFailures)")
        }
    }
}
