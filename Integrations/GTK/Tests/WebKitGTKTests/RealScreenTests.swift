import CWebKitGTK
import Foundation
@_spi(Tooling) import GTKScratchpad
@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkCore
import Testing
@_spi(Tooling) import WebKitGTKOracle
@_spi(Tooling) import GTKLogPlayer

extension WebKitGTK {
    /// The window as a user sees it and drives it: the real pointer moved and pressed through
    /// XTest (the X server and GDK route it, the overlay's input shape included), the real
    /// screen read back from the X server (not the window's own off-screen picture).
    @Suite("The real screen, driven by the real pointer", .serialized)
    struct RealScreenTests {
        /// A rectangle of the real screen, RGB.
        struct Screen {
            var width: Int
            var height: Int
            var pixels: [UInt8]

            func rgb(_ x: Int, _ y: Int) -> (Int, Int, Int) {
                let i = (y * width + x) * 3
                return (Int(pixels[i]), Int(pixels[i + 1]), Int(pixels[i + 2]))
            }

            /// Whether a pixel has the ink's colour (a dark blue over the page).
            func isInk(_ x: Int, _ y: Int) -> Bool {
                let (r, g, b) = rgb(x, y)
                return b > 110 && r < 90 && g < 110 && b - r > 60
            }

            /// The bounding box of the ink-coloured pixels, or nil.
            var inkBounds: (minX: Int, minY: Int, maxX: Int, maxY: Int)? {
                var box: (minX: Int, minY: Int, maxX: Int, maxY: Int)?
                for y in 0..<height {
                    for x in 0..<width where isInk(x, y) {
                        box = (min(box?.minX ?? x, x), min(box?.minY ?? y, y), max(box?.maxX ?? x, x), max(box?.maxY ?? y, y))
                    }
                }
                return box
            }
        }

        /// Where the overlay's top-left corner is on the screen.
        static func origin(_ window: ScratchpadWindow) -> (x: Int, y: Int) {
            var x: gint = 0, y: gint = 0
            if let gdkWindow = gtk_widget_get_window(window.canvas) { gdk_window_get_origin(gdkWindow, &x, &y) }
            return (Int(x), Int(y))
        }

        /// The part of the real screen the page covers (1024 × 768 from the overlay's corner).
        static func screen(_ window: ScratchpadWindow) throws -> Screen {
            let (x, y) = origin(window)
            return try screen(x: x, y: y, width: 1024, height: 768)
        }

        /// A `width` × `height` rectangle of the real screen at (x, y), read from the X server.
        static func screen(x: Int, y: Int, width: Int, height: Int) throws -> Screen {
            let pixbuf = try #require(scratchpad_screen(gint(x), gint(y), gint(width), gint(height)))
            defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
            let width = Int(gdk_pixbuf_get_width(pixbuf)), height = Int(gdk_pixbuf_get_height(pixbuf))
            let stride = Int(gdk_pixbuf_get_rowstride(pixbuf)), channels = Int(gdk_pixbuf_get_n_channels(pixbuf))
            let data = try #require(gdk_pixbuf_get_pixels(pixbuf))
            var pixels = [UInt8](repeating: 0, count: width * height * 3)
            for row in 0..<height {
                for column in 0..<width {
                    for c in 0..<3 { pixels[(row * width + column) * 3 + c] = data[row * stride + column * channels + c] }
                }
            }
            return Screen(width: width, height: height, pixels: pixels)
        }

        /// Moves the real pointer to a point of the page area, pressing the primary button on
        /// the way as a user drawing or dragging would, in `steps` moves 16 ms apart.
        static func drag(_ window: ScratchpadWindow, from start: CanvasPoint, to end: CanvasPoint, steps: Int = 24) {
            let (ox, oy) = origin(window)
            func move(_ p: CanvasPoint) { scratchpad_xtest_move(gint(ox + Int(p.x.rounded())), gint(oy + Int(p.y.rounded()))) }
            move(start)
            GTK.spin(for: 0.05)
            scratchpad_xtest_button(1, 1)
            GTK.spin(for: 0.016)
            for i in 1...steps {
                let f = Double(i) / Double(steps)
                move(CanvasPoint(x: start.x + (end.x - start.x) * f, y: start.y + (end.y - start.y) * f))
                GTK.spin(for: 0.016)
            }
            scratchpad_xtest_button(1, 0)
            GTK.spin(for: 0.05)
            // Park the pointer off the page so no hover effect changes what is compared.
            scratchpad_xtest_move(0, 0)
        }

        /// Moves the real pointer along `path` (page-area points) with the primary button held,
        /// one move every 16 ms, as a user writing would; then parks it off the page.
        static func stroke(_ window: ScratchpadWindow, along path: [CanvasPoint]) {
            let (ox, oy) = origin(window)
            func move(_ p: CanvasPoint) { scratchpad_xtest_move(gint(ox + Int(p.x.rounded())), gint(oy + Int(p.y.rounded()))) }
            guard let first = path.first else { return }
            move(first)
            GTK.spin(for: 0.05)
            scratchpad_xtest_button(1, 1)
            GTK.spin(for: 0.016)
            for point in path.dropFirst() {
                move(point)
                GTK.spin(for: 0.016)
            }
            scratchpad_xtest_button(1, 0)
            GTK.spin(for: 0.05)
            scratchpad_xtest_move(0, 0)
        }

        /// A wavy line from `start` to `end`: `waves` periods of a sine `amplitude` points high,
        /// in `steps` moves.
        static func wave(from start: CanvasPoint, to end: CanvasPoint, amplitude: Double, waves: Double, steps: Int = 60) -> [CanvasPoint] {
            (0...steps).map { i in
                let f = Double(i) / Double(steps)
                return CanvasPoint(x: start.x + (end.x - start.x) * f,
                                   y: start.y + (end.y - start.y) * f + amplitude * sin(f * waves * 2 * .pi))
            }
        }

        static func open(_ page: String) throws -> ScratchpadWindow {
            let window = try ScratchpadWindow()
            try window.show(loading: fixturePage(page))
            scratchpad_xtest_move(0, 0)
            GTK.spin(for: 1)  // the page painted, the snapshot of its loaded layout held
            return window
        }

        @Test("a stroke with the real mouse draws ink, and nothing but ink changes on the real screen: no grey or stale area over the page")
        func onlyInkChanges() throws {
            try GTKThread.shared.run {
                guard scratchpad_xtest_available() != 0 else {
                    Issue.record("no XTest on this display")
                    return
                }
                let window = try Self.open("blocks.html")
                let before = try Self.screen(window)
                Self.drag(window, from: CanvasPoint(x: 600, y: 450), to: CanvasPoint(x: 900, y: 560))
                GTK.spin(for: 0.5)
                let after = try Self.screen(window)
                let report = window.report   // the window stays open: more follows
                #expect(report.isVerified, "\(report.verificationFailures)")
                #expect(report.ledger.inked > 10 && report.strokes == 1, "\(report.ledger)")
                // The ink's bounds (page coordinates; the page is not scrolled), grown by a margin.
                let segments = try #require(window.ink.strokes.first?.builder.allSegments)
                let bounds = try #require(segments.map(\.bounds).reduce(nil as CanvasRect?) { sum, next in sum?.union(next) ?? next })
                var outside = 0, inside = 0
                for y in 0..<after.height {
                    for x in 0..<after.width {
                        let (r0, g0, b0) = before.rgb(x, y), (r1, g1, b1) = after.rgb(x, y)
                        guard abs(r0 - r1) > 24 || abs(g0 - g1) > 24 || abs(b0 - b1) > 24 else { continue }
                        let near = Double(x) >= bounds.minX - 6 && Double(x) <= bounds.maxX + 6
                            && Double(y) >= bounds.minY - 6 && Double(y) <= bounds.maxY + 6
                        if near { inside += 1 } else { outside += 1 }
                    }
                }
                #expect(inside > 200, "the ink shows on the real screen (\(inside) pixels changed)")
                #expect(outside == 0, "\(outside) pixels changed away from the ink")
                // The page repaints (a block dragged natively by the real mouse, through a hole):
                // nothing changes on the real screen away from the row of blocks.
                Self.drag(window, from: CanvasPoint(x: 168, y: 348), to: CanvasPoint(x: 420, y: 350))
                GTK.spin(for: 0.5)
                let repainted = try Self.screen(window)
                var away = 0, inRow = 0
                for y in 0..<repainted.height {
                    for x in 0..<repainted.width {
                        let (r0, g0, b0) = after.rgb(x, y), (r1, g1, b1) = repainted.rgb(x, y)
                        guard abs(r0 - r1) > 24 || abs(g0 - g1) > 24 || abs(b0 - b1) > 24 else { continue }
                        if y >= 290 && y <= 406 && x >= 110 && x <= 586 { inRow += 1 } else { away += 1 }
                    }
                }
                #expect(try window.page.bodyData("drags") == "1")
                #expect(inRow > 100, "the blocks were repainted in their new order (\(inRow) pixels)")
                #expect(away == 0, "\(away) pixels changed away from the blocks after the page repainted")
                let final = window.finish()
                #expect(final.isVerified && final.ledger.inked == report.ledger.inked && final.ledger.releasedNatively > 0,
                        "\(final.ledger)")
            }
        }

        /// Where the wavy strokes of ``wavyStrokeChangesOnlyInk(across:)`` go: across the blank
        /// paper below the blocks, across the question's text, and across the row of blocks
        /// (beginning on the paper left of them, so the overlay takes it and it is ink).
        static let wavyStrokes: [String: (start: CanvasPoint, end: CanvasPoint)] = [
            "blank paper": (CanvasPoint(x: 90, y: 540), CanvasPoint(x: 960, y: 560)),
            "question text": (CanvasPoint(x: 40, y: 112), CanvasPoint(x: 530, y: 112)),
            "blocks": (CanvasPoint(x: 40, y: 348), CanvasPoint(x: 660, y: 350)),
        ]

        /// The theme's window background (Adwaita's `#f6f5f4`): what the grey boxes were.
        static let themeBackground = (0xf6, 0xf5, 0xf4)

        @Test("a wavy real-mouse stroke over blank paper, the question's text or the blocks, read back from the X server's root window a second later: no pixel changes away from the ink (each segment's bounds grown by the stroke's width and a margin), and none turns into the theme's grey",
              arguments: ["blank paper", "question text", "blocks"])
        func wavyStrokeChangesOnlyInk(across place: String) throws {
            let (start, end) = try #require(Self.wavyStrokes[place])
            try GTKThread.shared.run {
                guard scratchpad_xtest_available() != 0 else {
                    Issue.record("no XTest on this display")
                    return
                }
                let window = try Self.open("blocks.html")
                let before = try Self.screen(window)
                Self.stroke(window, along: Self.wave(from: start, to: end, amplitude: 40, waves: 4))
                GTK.spin(for: 1)
                let after = try Self.screen(window)
                let report = window.finish()
                #expect(report.isVerified, "\(report.verificationFailures)")
                #expect(report.strokes == 1 && report.ledger.inked > 30, "\(report.ledger)")
                // Where ink may be: each segment's bounds (page coordinates; the page is not
                // scrolled) grown by the stroke's width and a margin.
                let segments = try #require(window.ink.strokes.first?.builder.allSegments)
                let reach = (segments.map { max($0.startWidth, $0.endWidth) }.max() ?? 0) + 4
                let near = segments.map { segment in
                    let b = segment.bounds
                    return CanvasRect(minX: b.minX - reach, minY: b.minY - reach, maxX: b.maxX + reach, maxY: b.maxY + reach)
                }
                var inside = 0, outside = 0, themeGrey = 0
                var box: (minX: Int, minY: Int, maxX: Int, maxY: Int)?
                for y in 0..<after.height {
                    for x in 0..<after.width {
                        let (r0, g0, b0) = before.rgb(x, y), (r1, g1, b1) = after.rgb(x, y)
                        guard (r0, g0, b0) != (r1, g1, b1) else { continue }
                        let px = Double(x), py = Double(y)
                        if near.contains(where: { px >= $0.minX && px <= $0.maxX && py >= $0.minY && py <= $0.maxY }) {
                            if abs(r0 - r1) > 25 || abs(g0 - g1) > 25 || abs(b0 - b1) > 25 { inside += 1 }
                            continue
                        }
                        // The page's light paper differs from the theme's grey by less than 25
                        // a channel: a pixel turned into exactly that grey is counted apart.
                        if (r1, g1, b1) == Self.themeBackground { themeGrey += 1 }
                        guard abs(r0 - r1) > 25 || abs(g0 - g1) > 25 || abs(b0 - b1) > 25 else { continue }
                        outside += 1
                        box = (min(box?.minX ?? x, x), min(box?.minY ?? y, y), max(box?.maxX ?? x, x), max(box?.maxY ?? y, y))
                    }
                }
                #expect(inside > 200, "the ink shows on the real screen (\(inside) pixels changed)")
                #expect(outside == 0, "across the \(place): \(outside) pixels changed by more than 25 a channel away from the ink, within \(box.map { "\($0)" } ?? "-")")
                #expect(themeGrey == 0, "across the \(place): \(themeGrey) pixels away from the ink turned into the theme's grey #f6f5f4")
            }
        }

        @Test("a redraw of part of the overlay (what each change of ink asks for) repaints the page beneath it: nothing changes on the real screen, on the paper below the middle of the page, on the blocks above it, or across it",
              arguments: [[100, 450, 300, 100], [100, 320, 300, 60], [100, 300, 300, 200]])
        func partialRedrawKeepsThePage(area: [Int]) throws {
            try GTKThread.shared.run {
                let window = try Self.open("blocks.html")
                let before = try Self.screen(window)
                gtk_widget_queue_draw_area(window.canvas, gint(area[0]), gint(area[1]), gint(area[2]), gint(area[3]))
                GTK.spin(for: 1)
                let after = try Self.screen(window)
                var changed = 0, themeGrey = 0
                var rows: ClosedRange<Int>?
                for y in 0..<after.height {
                    for x in 0..<after.width where before.rgb(x, y) != after.rgb(x, y) {
                        let (r0, g0, b0) = before.rgb(x, y), (r1, g1, b1) = after.rgb(x, y)
                        if (r1, g1, b1) == Self.themeBackground { themeGrey += 1 }
                        guard abs(r0 - r1) > 25 || abs(g0 - g1) > 25 || abs(b0 - b1) > 25 else { continue }
                        changed += 1
                        rows = min(rows?.lowerBound ?? y, y)...max(rows?.upperBound ?? y, y)
                    }
                }
                #expect(changed == 0 && themeGrey == 0,
                        "redrawing \(area): \(changed) pixels changed by more than 25 a channel (rows \(rows.map { "\($0)" } ?? "-")), \(themeGrey) turned into the theme's grey")
                _ = window.finish()
            }
        }

        @Test("the real mouse pressed on a block goes to the web view natively (a hole in the overlay's input shape): trusted events, the block drags, the engine counted every sample")
        func mouseDragsABlock() throws {
            try GTKThread.shared.run {
                guard scratchpad_xtest_available() != 0 else {
                    Issue.record("no XTest on this display")
                    return
                }
                let window = try Self.open("blocks.html")
                Self.drag(window, from: CanvasPoint(x: 168, y: 348), to: CanvasPoint(x: 420, y: 350))
                GTK.spin(for: 0.3)
                let report = window.finish()
                #expect(report.isVerified, "\(report.verificationFailures)")
                #expect(report.ledger.releasedNatively == report.ledger.received && report.ledger.received >= 10, "\(report.ledger)")
                #expect(report.strokes == 0 && report.replays == 0)
                #expect(try window.page.bodyData("drags") == "1")
                #expect(try window.page.bodyData("order") == "block-2,block-3,block-1,block-4")
                #expect(try window.page.bodyData("untrusted") == "0")
            }
        }

        @Test("ink belongs to the page: the real wheel scrolls the long worksheet and the ink on the real screen moves by exactly the scroll")
        func inkScrollsWithThePage() throws {
            try GTKThread.shared.run {
                guard scratchpad_xtest_available() != 0 else {
                    Issue.record("no XTest on this display")
                    return
                }
                let window = try Self.open("long.html")
                Self.drag(window, from: CanvasPoint(x: 150, y: 420), to: CanvasPoint(x: 400, y: 470))
                GTK.spin(for: 0.5)
                let written = try #require(try Self.screen(window).inkBounds)
                // The wheel, over the scratch paper (the overlay hands it to the web view).
                let offset = Self.wheel(window, notches: 5)
                #expect(window.transform.offsetY == offset, "the window follows the page: \(window.transform) for \(offset)")
                #expect(offset > 40, "the page scrolled by \(offset)")
                let moved = try #require(try Self.screen(window).inkBounds)
                #expect(moved.minX == written.minX && moved.maxX == written.maxX, "\(written) then \(moved)")
                #expect(abs(Double(moved.minY) - (Double(written.minY) - offset)) <= 1
                        && abs(Double(moved.maxY) - (Double(written.maxY) - offset)) <= 1,
                        "ink at y \(written.minY)...\(written.maxY), page scrolled \(offset), ink now at \(moved.minY)...\(moved.maxY)")
                _ = window.finish()
            }
        }

        @Test("the page's scrollbar is interactive: the real mouse dragging it scrolls the page natively, and writes nothing")
        func scrollbarScrolls() throws {
            try GTKThread.shared.run {
                guard scratchpad_xtest_available() != 0 else {
                    Issue.record("no XTest on this display")
                    return
                }
                let window = try Self.open("long.html")
                // WebKitGTK's scrollbars are overlay scrollbars: the page script stands a strip
                // along the edge for the vertical one, and the overlay has a hole there.
                let hole = try #require(window.inputShapeHoles?.first { $0.maxX >= 1024 && $0.height >= 700 },
                                        "the scrollbar is a hole of the overlay's input shape: \(window.inputShapeHoles ?? [])")
                let x = (hole.minX + hole.maxX) / 2
                Self.drag(window, from: CanvasPoint(x: x, y: 60), to: CanvasPoint(x: x, y: 300))
                GTK.spin(for: 0.5)
                let scrolled = Double((try window.page.evaluate("window.scrollY", inPageWorld: true)).flatMap { $0 } ?? "") ?? 0
                let report = window.finish()
                #expect(scrolled > 100, "the page scrolled by \(scrolled)")
                #expect(report.isVerified && report.strokes == 0, "\(report.verificationFailures)")
                #expect(report.ledger.releasedNatively == report.ledger.received && report.ledger.received > 0, "\(report.ledger)")
            }
        }
    }
}

extension WebKitGTK.RealScreenTests {
    /// Clicks the real primary button at a page-area point (a link: a hole in the overlay).
    static func click(_ window: ScratchpadWindow, at point: CanvasPoint) {
        let (ox, oy) = origin(window)
        scratchpad_xtest_move(gint(ox + Int(point.x.rounded())), gint(oy + Int(point.y.rounded())))
        GTK.spin(for: 0.05)
        scratchpad_xtest_button(1, 1)
        GTK.spin(for: 0.03)
        scratchpad_xtest_button(1, 0)
        GTK.spin(for: 0.05)
        scratchpad_xtest_move(0, 0)
    }

    /// The page's title, as JSON text.
    static func title(_ window: ScratchpadWindow) -> String? { try? window.page.evaluate("document.title", inPageWorld: true) }

    @Test("Next then Back (history.back(): WebKitGTK restores the page from its page cache), then the real mouse drags a block on the restored page: the block moves, no ink (issue 51, case 1)")
    func backRestoresThePage() throws {
        try GTKThread.shared.run {
            guard scratchpad_xtest_available() != 0 else {
                Issue.record("no XTest on this display")
                return
            }
            let window = try Self.open("next-blocks.html")
            Self.click(window, at: CanvasPoint(x: 140, y: 692))                      // Next
            #expect(GTK.spin(timeout: 5) { Self.title(window) == #""The next exercise""# }, "Next did not navigate")
            GTK.spin(for: 1)
            Self.click(window, at: CanvasPoint(x: 140, y: 52))                       // Back
            #expect(GTK.spin(timeout: 5) { Self.title(window) == #""Order the blocks, then Next""# }, "Back did not navigate")
            GTK.spin(for: 1)
            let restored = try window.page.bodyData("restored")
            Self.drag(window, from: CanvasPoint(x: 168, y: 348), to: CanvasPoint(x: 420, y: 350))
            GTK.spin(for: 0.3)
            let ink = try Self.screen(window).inkBounds
            let report = window.finish()
            #expect(restored == "1", "the page came back from WebKitGTK's page cache (pageshow persisted)")
            #expect(report.strokes == 0, "a drag on a block of the restored page is the page's, not ink")
            #expect(ink == nil, "no ink on the real screen: \(String(describing: ink))")
            #expect(try window.page.bodyData("drags") == "1")
            #expect(try window.page.bodyData("order") == "block-2,block-3,block-1,block-4")
            #expect(window.engine.bridgeMetrics.restoredDocuments >= 1, "\(window.engine.bridgeMetrics)")
            #expect(report.ledger.dropped == 0)
        }
    }

    @Test("the web content process killed: the page reloads (a new document) and a block dragged with the real mouse moves, no ink (issue 51, case 5)")
    func killedWebProcessReloads() throws {
        try GTKThread.shared.run {
            guard scratchpad_xtest_available() != 0 else {
                Issue.record("no XTest on this display")
                return
            }
            let window = try Self.open("blocks.html")
            let before = window.engine.bridgeMetrics.newDocuments
            window.page.terminateWebProcess()
            #expect(GTK.spin(timeout: 5) { window.page.processTerminations == 1 })
            #expect(GTK.spin(timeout: 10) { window.page.isLoaded }, "the page reloaded")
            GTK.spin(for: 1)   // painted, its snapshot held
            Self.drag(window, from: CanvasPoint(x: 168, y: 348), to: CanvasPoint(x: 420, y: 350))
            GTK.spin(for: 0.3)
            let ink = try Self.screen(window).inkBounds
            let report = window.finish()
            #expect(window.engine.bridgeMetrics.newDocuments > before)
            #expect(report.strokes == 0 && ink == nil, "strokes \(report.strokes), ink \(String(describing: ink))")
            #expect(try window.page.bodyData("drags") == "1")
            #expect(report.ledger.dropped == 0)
        }
    }
}

extension WebKitGTK.RealScreenTests {
    @Test("the window resized while the page's snapshot of the old layout is in flight (its messages held 200 ms): the old snapshot never routes after the resize (no hole where the block was), the new one does: the real mouse drags the block where it is now, and writes on the paper (issue 51, case 4)")
    func resizeWithTheSnapshotInFlight() throws {
        try GTKThread.shared.run {
            guard scratchpad_xtest_available() != 0 else {
                Issue.record("no XTest on this display")
                return
            }
            let window = try Self.open("reflow.html")
            let wide = CanvasRect(minX: 864, minY: 300, maxX: 984, maxY: 420), narrow = CanvasRect(minX: 740, minY: 300, maxX: 860, maxY: 420)
            // By its top-left corner and height: a hole is cut no wider than the canvas.
            func isHole(_ rect: CanvasRect) -> Bool {
                window.inputShapeHoles?.contains { abs($0.minX - rect.minX) <= 1
                    && abs($0.minY - rect.minY) <= 1 && abs($0.maxY - rect.maxY) <= 1 } ?? false
            }
            #expect(isHole(wide), "\(window.inputShapeHoles ?? [])")
            window.page.messageDelay = 0.2
            // The page posts a snapshot of the wide layout (and opens its 100 ms throttle window,
            // so its push after the resize event comes at the window's end); the window shrinks
            // at once, while that snapshot is held.
            _ = try window.page.evaluate("scratchpadInk.pushRegions(); true")
            gtk_window_resize(UnsafeMutableRawPointer(window.window).assumingMemoryBound(to: GtkWindow.self), 900, 768)
            var wideHoleAfterResize = false
            let end = GTK.now + 0.8
            while GTK.now < end {
                GTK.spin(for: 0.004)
                if gtk_widget_get_allocated_width(window.canvas) == 900, isHole(wide) { wideHoleAfterResize = true }
            }
            #expect(!wideHoleAfterResize, "the snapshot of the old layout routed after the resize")
            #expect(GTK.spin(timeout: 3) { isHole(narrow) }, "\(window.inputShapeHoles ?? [])")
            // The block where it is now is the page's (the real mouse drags it natively); a
            // stroke on the paper is ink. (Where the block was is outside the narrowed window.)
            Self.drag(window, from: CanvasPoint(x: 800, y: 360), to: CanvasPoint(x: 780, y: 380), steps: 8)
            Self.drag(window, from: CanvasPoint(x: 300, y: 500), to: CanvasPoint(x: 500, y: 520), steps: 12)
            GTK.spin(for: 0.4)
            let report = window.finish()
            #expect(try window.page.bodyData("drags") == "1")
            #expect(report.strokes == 1, "\(report.strokes)")
            #expect(window.engine.bridgeMetrics.snapshotsFromBeforeResize >= 1, "\(window.engine.bridgeMetrics)")
            #expect(report.ledger.dropped == 0)
        }
    }
}
