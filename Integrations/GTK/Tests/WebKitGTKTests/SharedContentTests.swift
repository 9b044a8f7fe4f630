import CWebKitGTK
import Foundation
@_spi(Tooling) import GTKLogPlayer
import GTKScratchpad
@_spi(Tooling) import HitTestBridge
import InkCore
import Testing
import WebKitGTKOracle

extension WebKitGTK {
    @Suite("Two web views sharing one user content manager, each routed by its own page", .serialized)
    struct SharedContentTests {
        /// Ink pixels in a `width` × `height` area of the real screen at (x, y).
        static func inkPixels(x: Int, y: Int, width: Int, height: Int) throws -> Int {
            let screen = try RealScreenTests.screen(x: x, y: y, width: width, height: height)
            var count = 0
            for row in 0..<screen.height {
                for column in 0..<screen.width where screen.isInk(column, row) { count += 1 }
            }
            return count
        }

        @Test("blocks.html and answer-field.html in two windows over one user content manager: each loop takes its own page's snapshots only, a real-mouse drag on a block in the first moves the block, the same stroke in the second (paper there) is ink, and neither loop sees the other's document (issue 51, case 7)")
        func twoWebViewsOneManager() throws {
            try GTKThread.shared.run {
                guard scratchpad_xtest_available() != 0 else {
                    Issue.record("no XTest on this display")
                    return
                }
                let options = ScratchpadWindow.Options(width: 620, height: 500)
                let first = try ScratchpadWindow(options: options)
                gtk_window_move(UnsafeMutableRawPointer(first.window).assumingMemoryBound(to: GtkWindow.self), 0, 0)
                try first.show(loading: fixturePage("blocks.html"))
                let second = try ScratchpadWindow(sharingUserContentWith: first, options: options)
                gtk_window_move(UnsafeMutableRawPointer(second.window).assumingMemoryBound(to: GtkWindow.self), 650, 0)
                try second.show(loading: fixturePage("answer-field.html"))
                scratchpad_xtest_move(0, 1000)
                GTK.spin(for: 1.5)   // both painted, both pages' snapshots pushed (heartbeat included)

                let block = CanvasPoint(x: 168, y: 348)
                let firstRegions = try #require(first.loop.touchDownRegions, "the first window holds a fresh snapshot")
                let secondRegions = try #require(second.loop.touchDownRegions, "the second window holds a fresh snapshot")
                #expect(firstRegions.rects.contains { $0.contains(block) }, "blocks.html has block 1 at \(block)")
                #expect(!secondRegions.rects.contains { $0.contains(block) }, "answer-field.html is paper at \(block): \(secondRegions.rects)")

                RealScreenTests.drag(first, from: block, to: CanvasPoint(x: 420, y: 350))
                GTK.spin(for: 0.3)
                RealScreenTests.drag(second, from: block, to: CanvasPoint(x: 420, y: 350))
                GTK.spin(for: 0.3)
                let (fx, fy) = RealScreenTests.origin(first), (sx, sy) = RealScreenTests.origin(second)
                let firstInk = try Self.inkPixels(x: fx, y: fy, width: 620, height: 500)
                let secondInk = try Self.inkPixels(x: sx, y: sy, width: 620, height: 500)
                let firstReport = first.finish(), secondReport = second.finish()
                #expect(firstReport.strokes == 0 && firstInk == 0, "the drag on the block is the first page's: strokes \(firstReport.strokes), ink pixels \(firstInk)")
                #expect(try first.page.bodyData("drags") == "1")
                #expect(secondReport.strokes == 1 && secondInk > 50, "the stroke on the second page's paper is ink: strokes \(secondReport.strokes), ink pixels \(secondInk)")
                for (name, report) in [("first", firstReport), ("second", secondReport)] {
                    // One document each, its own: the load's report (newDocuments 1), never a
                    // document the other page named (implicit) or an old one.
                    #expect(report.bridge.documentsSeen == 1 && report.bridge.newDocuments == 1 && report.bridge.implicitNewDocuments == 0
                            && report.pageRefusals.oldDocument == 0, "the \(name) loop saw one document, its own: \(report.bridge)")
                    #expect(report.isVerified && report.ledger.dropped == 0, "\(name): \(report.verificationFailures)")
                }
            }
        }
    }
}
