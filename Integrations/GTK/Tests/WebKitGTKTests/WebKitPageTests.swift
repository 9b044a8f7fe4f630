import CWebKitGTK
import Foundation
import HitTestBridge
import InkCore
import Testing
import WebKitGTKOracle

/// The repository's root, from this file's path.
let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
func fixturePage(_ name: String) -> URL { repositoryRoot.appendingPathComponent("Fixtures/pages/\(name)") }

/// WebKit needs a display: under `xvfb-run -a` (as `.ci/run` runs these) or a desktop.
let displayPresent = ProcessInfo.processInfo.environment["DISPLAY"].map { !$0.isEmpty } ?? false
    || ProcessInfo.processInfo.environment["WAYLAND_DISPLAY"].map { !$0.isEmpty } ?? false

@Suite("WebKitGTK: the page script in a real WebKit page", .enabled(if: displayPresent, "no display (run under xvfb-run -a)"), .serialized)
struct WebKitPageTests {
    @Test("hit tests answered by the real page agree with its region snapshot at every point of a 32-px grid",
          arguments: ["blocks.html", "answer-field.html", "number-line.html", "long.html", "hostile.html"])
    func answersAgreeWithSnapshot(name: String) throws {
        try GTKThread.shared.run {
            let page = try WebKitGTKPage()
            let window = page.showInWindow()
            defer { gtk_widget_destroy(window) }
            try page.load(fixturePage(name))
            let posted = try page.pushRegions()
            guard case let .success(.regions(snapshot)) = posted.decoded else {
                Issue.record("no snapshot: \(posted.decoded)")
                return
            }
            if name == "blocks.html" || name == "hostile.html" {
                #expect(Set(snapshot.regions.compactMap(\.element)) == ["answer-field", "check-button", "block-1", "block-2", "block-3", "block-4"])
            }
            var disagreements: [String] = []
            var pageCount = 0
            for y in stride(from: 7.0, to: 768, by: 32) {
                for x in stride(from: 7.0, to: 1024, by: 32) {
                    let point = CanvasPoint(x: x, y: y)
                    let request = HitTestRequest(token: QueryToken(high: 1, low: UInt64(x * 10_000 + y)), pagePoint: point, generation: snapshot.generation)
                    let (answer, _) = try page.hitTest(request)
                    guard case let .success(.answer(decoded)) = answer.decoded else {
                        disagreements.append("(\(x), \(y)): \(answer.decoded)")
                        continue
                    }
                    if decoded.verdict == .page { pageCount += 1 }
                    if decoded.verdict != snapshot.verdict(at: point) {
                        disagreements.append("(\(x), \(y)): page says \(decoded.verdict), snapshot \(snapshot.verdict(at: point))")
                    }
                }
            }
            #expect(disagreements.isEmpty, "\(disagreements.prefix(10))")
            #expect(pageCount > 5)
        }
    }
}
