import CWebKitGTK
import Foundation
@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkCore
@_spi(Tooling) import SessionReplay
import Testing
@_spi(Tooling) import WebKitGTKOracle
@_spi(Tooling) import GTKLogPlayer

/// The repository's root, from this file's path.
let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
func fixturePage(_ name: String) -> URL { repositoryRoot.appendingPathComponent("Fixtures/pages/\(name)") }

/// WebKit needs a display: under `xvfb-run -a` (as `.ci/run` runs these) or a desktop.
let displayPresent = ProcessInfo.processInfo.environment["DISPLAY"].map { !$0.isEmpty } ?? false
    || ProcessInfo.processInfo.environment["WAYLAND_DISPLAY"].map { !$0.isEmpty } ?? false

/// Every suite here shares the one GTK thread and a real WebKit: they run one at a time,
/// so one suite's page cannot hold the thread while another's question waits.
@Suite("WebKitGTK and the GTK front end", .enabled(if: displayPresent, "no display (run under xvfb-run -a)"), .serialized)
enum WebKitGTK {}

extension WebKitGTK {
    @Suite("WebKitGTK: the page script in a real WebKit page", .serialized)
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
                let grid = try GridAgreement.check(snapshot, width: 1024, height: 768) { try page.hitTest($0).message.decoded }
                #expect(grid.questions == 768 && grid.disagreementCount == 0, "\(grid.disagreements)")
                #expect(grid.pageAnswers > 5)  // the grid does hit the interactive elements
            }
        }

        @Test("the hostile page forges, poisons, churns and floods: nothing it posts reaches the handler, and what is held stays bounded")
        func hostilePageIsHeldOff() throws {
            try GTKThread.shared.run {
                let page = try WebKitGTKPage()
                let window = page.showInWindow()
                defer { gtk_widget_destroy(window) }
                try page.load(fixturePage("hostile.html"))
                GTK.spin(for: 1)
                #expect(Int(try page.bodyData("forged") ?? "0") ?? 0 > 100)  // its scripts ran
                // Only the page script, in its own world, can post to the handler: every message
                // that arrived is a genuine snapshot, however much the page forged.
                let messages = page.takePostedMessages()
                #expect(!messages.isEmpty)
                for message in messages {
                    guard case let .success(.regions(snapshot)) = message.decoded else {
                        Issue.record("not a snapshot: \(String(decoding: message.bytes, as: UTF8.self).prefix(200))")
                        continue
                    }
                    #expect(Set(snapshot.regions.compactMap(\.element)) == ["answer-field", "check-button", "block-1", "block-2", "block-3", "block-4"])
                }
                // An answer to a question is still the page's true answer.
                let request = HitTestRequest(token: QueryToken(high: 7, low: 7), pagePoint: PagePoint(x: 700, y: 500), generation: 1)
                let (answer, _) = try page.hitTest(request)
                guard case let .success(.answer(decoded)) = answer.decoded else { Issue.record("\(answer.decoded)"); return }
                #expect(decoded.verdict == .ink && decoded.token == request.token)
            }
        }
    }
}
