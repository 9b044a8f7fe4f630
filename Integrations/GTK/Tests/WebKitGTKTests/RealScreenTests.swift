import CWebKitGTK
import Foundation
import GTKScratchpad
import HitTestBridge
import InkCore
import Testing
import WebKitGTKOracle

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
            let pixbuf = try #require(scratchpad_screen(gint(x), gint(y), 1024, 768))
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
                let (ox, oy) = Self.origin(window)
                scratchpad_xtest_move(gint(ox + 700), gint(oy + 400))
                for _ in 0..<5 {
                    scratchpad_xtest_button(5, 1)
                    scratchpad_xtest_button(5, 0)
                    GTK.spin(for: 0.05)
                }
                scratchpad_xtest_move(0, 0)
                let scrolled = { Double((try? window.page.evaluate("window.scrollY", inPageWorld: true)).flatMap { $0 } ?? "") ?? 0 }
                GTK.spin(for: 1.5)
                #expect(GTK.spin(timeout: 3) { window.transform.offsetY == scrolled() && scrolled() > 0 })
                GTK.spin(for: 0.3)
                let offset = scrolled()
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
