import CWebKitGTK
import Foundation
@_spi(Tooling) import GTKLogPlayer
import GTKScratchpad
import HitTestBridge
import InkCore
import InkTesting
import Testing
import WebKitGTKOracle

extension WebKitGTK {
    @Suite("PageConformance: the GTK window's page operations on a real WebKitGTK page", .serialized)
    struct PageConformanceGTKTests {
        @Test("evaluate answers once with the script's truth in the page script's world, inject gives each touch to the page once and a cancelled touch never clicks (it ends outside the view: WebKitGTK turns a touch cancel into a touchend), scroll moves the view",
              arguments: [TouchRouting.decideAtTouchDown, .handOverAfterDecision])
        func windowKeepsTheContract(routing: TouchRouting) throws {
            try GTKThread.shared.run {
                let window = try ScratchpadWindow(options: .init(configuration: InkEngineConfiguration(routing: routing)))
                try window.show(loading: fixturePage("long.html"))
                // A place on long.html's scratch paper, left of the worksheet's fields.
                let problems = PageConformance.check(window.pageOperations, touchingAt: CanvasPoint(x: 12, y: 300),
                                                     now: window.loop.clock.now, scrolls: true) { GTK.spin(for: 0.25) }
                let counts = try window.page.evaluate("JSON.stringify(window.__inkPageConformance)")
                #expect(problems.isEmpty, "\(problems) \(counts ?? "-")")
                _ = window.finish()
            }
        }
    }
}
