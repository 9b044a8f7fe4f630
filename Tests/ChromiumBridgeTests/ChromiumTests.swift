#if canImport(Glibc)
@_spi(Tooling) import ChromiumBridge
import Foundation
@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkCore
@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkRecording
@_spi(Tooling) import SessionReplay
import Testing

/// The repository's root, from this file's path.
private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
private func page(_ name: String) -> URL { root.appendingPathComponent("Fixtures/pages/\(name)") }
private func session(_ name: String) throws -> SessionLog {
    try SessionLog.read(contentsOf: root.appendingPathComponent("Fixtures/strokes/\(name)").path).get()
}

/// Browser tests run when a Chromium is installed (`scripts/install-test-tools.sh`
/// installs one); without it they are reported as skipped, by name.
private let browserPresent = ChromiumPage.browserPath != nil

@Suite("Headless Chromium: the page script in a real page", .enabled(if: browserPresent, "no Chromium installed (scripts/install-test-tools.sh installs it)"), .serialized)
struct ChromiumTests {
    @Test("hit tests answered by the real page agree with its region snapshot at every point of a grid",
          arguments: ["blocks.html", "answer-field.html", "number-line.html", "long.html", "hostile.html"])
    func answersAgreeWithSnapshot(name: String) throws {
        let browser = try ChromiumPage(url: page(name))
        defer { browser.close() }
        let posted = try browser.pushRegions()
        guard case let .success(.regions(snapshot)) = posted.decoded else {
            Issue.record("no snapshot: \(posted.decoded)")
            return
        }
        if name == "blocks.html" || name == "hostile.html" {
            #expect(Set(snapshot.regions.compactMap(\.element)) == ["answer-field", "check-button", "block-1", "block-2", "block-3", "block-4"])
        }
        let grid = try GridAgreement.check(snapshot, width: 1024, height: 768) { try browser.hitTest($0).message.decoded }
        #expect(grid.questions == 768 && grid.disagreementCount == 0, "\(grid.disagreements)")
        #expect(grid.pageAnswers > 5)  // the grid does hit the interactive elements
    }

    @Test("drag a block, then write 3.5: the page's own handlers move the block, the ink has every stroke, nothing is lost",
          arguments: [("blocks.html", true), ("blocks.html", false), ("hostile.html", true)])
    func dragThenDecimal(name: String, cache: Bool) throws {
        let browser = try ChromiumPage(url: page(name))
        defer { browser.close() }
        let report = try BrowserReplay(useCache: cache).replay(session("blocks-then-3-5.jsonl"), on: browser)
        #expect(report.isVerified, "\(report.problems) \(report.ledger)")
        #expect(report.ledger.dropped == 0 && report.ledger.received == 241)
        #expect(try browser.bodyData("order") == "block-1,block-3,block-4,block-2")
        #expect(try browser.bodyData("drags") == "1")
        #expect(report.touches.map(\.verdict) == [.page, .ink, .ink, .ink])
        #expect(report.strokes.count == 3)
        let dot = report.touches[2]
        #expect(dot.samples == 4 && dot.firstInkLatency != nil)
        if cache {
            #expect(report.bridge.cacheHits == 4 && report.roundTrips.isEmpty, "\(report.bridge) \(report.roundTrips)")
        } else {
            #expect(report.bridge.cacheHits == 0 && report.roundTrips.count >= 4, "\(report.bridge)")
        }
        #expect(report.touchEventsDispatched == 44)  // the drag's 43 samples, and its end
    }

    @Test("two fingers scroll the real page; the bridge follows the scroll; the ink written after it is asked about where the page now is",
          arguments: [true, false])
    func scrollThenWrite(cache: Bool) throws {
        let browser = try ChromiumPage(url: page("long.html"))
        defer { browser.close() }
        let report = try BrowserReplay(useCache: cache).replay(session("scroll-then-write.jsonl"), on: browser)
        #expect(report.isVerified, "\(report.problems) \(report.ledger)")
        let scroll = try browser.scrollOffset()
        #expect(scroll.y > 200 && scroll.y <= 400, "scrolled \(scroll.y)")  // the browser's own touch scrolling, no fling
        // The bridge followed the scroll (it may still settle by a few pixels after the last look).
        #expect(abs(report.finalTransform.offsetY - scroll.y) < 16, "bridge \(report.finalTransform.offsetY), page \(scroll.y)")
        #expect(report.touches.map(\.verdict) == [.page, .page, .ink, .ink, .ink, .ink])
        #expect(report.touches[0].reason == .multiTouchGesture || report.touches[1].reason == .multiTouchGesture)
        #expect(report.strokes.count == 4)
    }

    @Test("dragging the number line's handle: the page's handler places it at 0.75; the tick is ink")
    func numberLine() throws {
        let browser = try ChromiumPage(url: page("number-line.html"))
        defer { browser.close() }
        let report = try BrowserReplay().replay(session("number-line-0-75.jsonl"), on: browser)
        #expect(report.isVerified)
        #expect(try browser.bodyData("value") == "0.75")
        #expect(try browser.bodyData("drags") == "1")
        #expect(report.touches.map(\.verdict) == [.page, .ink])
    }

    @Test("real handwriting over the real answer-field page: the page decides as the recorded layout did", arguments: [true, false])
    func realInk(cache: Bool) throws {
        let log = try session("real/myscript/1943.jsonl")
        let recorded = SessionReplayer().replay(log)
        let browser = try ChromiumPage(url: page("answer-field.html"))
        defer { browser.close() }
        let report = try BrowserReplay(useCache: cache).replay(log, on: browser)
        #expect(report.isVerified)
        #expect(report.touches.map(\.verdict) == recorded.touches.map(\.verdict))
        let toPage = report.touches.filter { $0.verdict == .page }.count
        let fieldTouches = try browser.bodyData("fieldTouches")
        #expect(toPage > 0 && Int(fieldTouches ?? "0") == toPage)
    }

    @Test("pinch-zoomed 125 %: the bridge asks where the canvas lands on the zoomed page, and the page's touches land there too")
    func pinchZoom() throws {
        let log = try session("real/myscript/1943.jsonl")
        let browser = try ChromiumPage(url: page("answer-field.html"))
        defer { browser.close() }
        try browser.pinchZoom(1.25)
        let report = try BrowserReplay(useCache: false).replay(log, on: browser)
        #expect(report.isVerified)
        #expect(abs(report.finalTransform.scale - 0.8) < 1e-9)
        guard case let .success(.regions(snapshot)) = try browser.pushRegions().decoded else {
            Issue.record("no snapshot")
            return
        }
        // The truth at each touch-down, through the zoomed mapping.
        let downs = log.samplesByTouch.compactMap { $0.samples.first?.point }
        let truth = downs.map { snapshot.verdict(at: report.finalTransform.pagePoint(for: $0)) }
        #expect(report.touches.map(\.verdict) == truth)
        // Zoom changes what lies under the touches: unzoomed, they would land elsewhere.
        #expect(truth != downs.map { snapshot.verdict(at: PageTransform.identity.pagePoint(for: $0)) })
        let field = try #require(snapshot.regions.first { $0.element == "answer" })
        let onField = downs.filter { field.contains(report.finalTransform.pagePoint(for: $0)) }.count
        let fieldTouches = try browser.bodyData("fieldTouches")
        #expect(onField > 0 && Int(fieldTouches ?? "0") == onField)  // each page touch landed where it was asked about
    }

    @Test("the hostile page runs its forgeries, floods and layout churn: every verdict is still the page's true answer")
    func hostilePageChangesNothing() throws {
        let browser = try ChromiumPage(url: page("hostile.html"))
        defer { browser.close() }
        let log = try session("blocks-then-3-5.jsonl")
        let report = try BrowserReplay(useCache: false).replay(log, on: browser)
        #expect(Int(try browser.bodyData("forged") ?? "0") ?? 0 > 100)  // its scripts did run
        #expect(report.bridge.unknownAnswers == 0)  // nothing it forged ever reached the bridge
        #expect(report.isVerified)
        // Its DOM churns every millisecond, but the coordinate mapping does not change, so
        // the page script's answers stay valid: no question falls back to the deadline.
        #expect(report.touches.map(\.verdict) == [.page, .ink, .ink, .ink])
        #expect(report.touches.map(\.reason) == [.answered, .answered, .answered, .answered])
        #expect(try browser.bodyData("order") == "block-1,block-3,block-4,block-2")
        #expect(browser.heldMessages <= 2_000)  // its console flood and churn are not kept
        #expect(try browser.takePostedMessages().count <= 1_000)
    }

    @Test("each load of the page script is a new document: its messages name an id, another on the next load, and the engine takes the next load's snapshots at its first generations")
    func documentPerLoad() throws {
        var engine = InkEngine(configuration: InkEngineConfiguration(routing: .decideAtTouchDown), seed: 1)
        var events: [EngineEvent] = []
        var ids: [PageDocumentID] = []
        var generations: [UInt64] = []
        for load in 0..<2 {
            let browser = try ChromiumPage(url: page("answer-field.html"))
            defer { browser.close() }
            // The first load's layout changes a few times: its generation climbs past the next load's.
            if load == 0 {
                try browser.evaluate("""
                    for (let i = 0; i < 3; i++) {
                      window.scratchpadInk.configure({ selector: '.not-on-this-page' });
                      window.scratchpadInk.configure({ selector: '[data-ink-interactive], .interactive' });
                    }
                    """)
            }
            _ = try browser.takePostedMessages()   // the snapshots posted so far
            let posted = try browser.pushRegions()
            guard case let .success(.regions(snapshot)) = posted.decoded, let id = snapshot.document else {
                Issue.record("no snapshot naming a document: \(posted.decoded)")
                return
            }
            #expect(id.text.utf8.count == 16 && id.text.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }, "\(id)")
            let request = HitTestRequest(token: QueryToken(high: 7, low: UInt64(load + 1)), pagePoint: PagePoint(x: 5, y: 5), generation: 1)
            guard case let .success(.answer(answer)) = try browser.hitTest(request).message.decoded else {
                Issue.record("no answer")
                return
            }
            #expect(answer.document == id)
            ids.append(id)
            generations.append(snapshot.generation)
            events.removeAll()
            engine.take(.pageMessage(posted.bytes), now: Double(load + 1), into: &events)
            let outcomes = events.compactMap { if case let .pageMessage(_, outcome) = $0.kind { outcome } else { nil } }
            #expect(outcomes == [.regionsAccepted], "load \(load + 1): \(outcomes)")
            #expect(engine.snapshotGeneration == snapshot.generation && engine.pageDocument == id)
        }
        #expect(ids.count == 2 && ids[0] != ids[1], "\(ids)")
        #expect(generations.count == 2 && generations[0] > generations[1], "\(generations)")
        #expect(engine.bridgeMetrics.implicitNewDocuments == 1 && engine.bridgeMetrics.snapshotRefusals.total == 0)
    }
}
#endif
