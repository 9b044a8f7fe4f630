@_spi(Tooling) import InkCore
import Testing
@_spi(Tooling) @testable import HitTestBridge

/// The page's lifecycle: a new document (the next exercise, a reload, a restarted web content
/// process) starts generations over, abandons the old document's questions, and nothing the
/// old document says is taken for the new one's.
@Suite("The page's lifecycle")
struct PageLifecycleTests {
    static let pageA = try! PageDocumentID("aaaaaaaaaaaaaaaa")
    static let pageB = try! PageDocumentID("bbbbbbbbbbbbbbbb")
    /// An answer field at page (300...500, 500...600).
    static let field = [PageRegion(x: 300, y: 500, width: 200, height: 100, element: "answer-field")]

    static func snapshot(_ generation: UInt64, _ document: PageDocumentID?, maxAge: Double = 1) -> EngineInput {
        .pageMessage(PageMessage.regions(RegionSnapshot(generation: generation, maxAge: maxAge, regions: field, document: document)).json)
    }

    static func down(_ platform: UInt64, _ x: Double, _ y: Double, _ t: Double) -> EngineInput {
        .touch(TouchEvent(touch: PlatformTouchID(platform), phase: .began, samples: [TouchSample(x: x, y: y, timestamp: t)]))
    }

    static func up(_ platform: UInt64) -> EngineInput { .touch(TouchEvent(touch: PlatformTouchID(platform), phase: .ended, samples: [])) }

    static func outcomes(_ events: [EngineEvent]) -> [ReceiveOutcome?] {
        events.compactMap { if case let .pageMessage(_, outcome) = $0.kind { outcome } else { nil } }
    }

    static func newDocumentEvents(_ events: [EngineEvent]) -> [PageTransform] {
        events.compactMap { if case let .newDocument(transform) = $0.kind { transform } else { nil } }
    }

    static func decisions(_ events: [EngineEvent]) -> [(time: Double, owner: HitTestVerdict, reason: DecisionReason)] {
        events.compactMap { event in
            if case let .action(.decided(_, owner, reason)) = event.kind { (event.time, owner, reason) } else { nil }
        }
    }

    /// Page A, pushed up to generation 300 (through layout inputs and its snapshots).
    static func pageAtGeneration300(_ engine: inout InkEngine, events: inout [EngineEvent], document: PageDocumentID?) {
        var t = 0.0
        for generation in stride(from: UInt64(1), through: 300, by: 1) {
            t += 0.001
            if generation % 2 == 0 {
                engine.take(.layout(.identity, generation: generation), now: t, into: &events)
            } else {
                engine.take(snapshot(generation, document), now: t, into: &events)
            }
        }
        engine.take(snapshot(300, document), now: 0.5, into: &events)
    }

    @Test("page A at generation 300, a new document: page B's snapshots at generations 1 to 3 are taken and decide at touch-down from the first",
          arguments: [pageB, nil] as [PageDocumentID?])
    func generationsStartOver(documentB: PageDocumentID?) {
        var engine = InkEngine(configuration: InkEngineConfiguration(routing: .decideAtTouchDown), seed: 1)
        var events: [EngineEvent] = []
        Self.pageAtGeneration300(&engine, events: &events, document: documentB.map { _ in Self.pageA })
        #expect(engine.snapshotGeneration == 300)
        #expect(engine.route(at: CanvasPoint(x: 400, y: 550), tool: .finger, now: 0.6) == .page)

        // "Next exercise": page B, scrolled a little.
        let scrolled = PageTransform(scale: 1, offsetX: 0, offsetY: 20)
        events.removeAll()
        engine.take(.newDocument(scrolled), now: 1, into: &events)
        #expect(Self.newDocumentEvents(events) == [scrolled])
        #expect(engine.snapshotGeneration == nil)   // the old page's regions are gone
        #expect(engine.pageGeneration == PageScript.firstGeneration)
        #expect(engine.route(at: CanvasPoint(x: 400, y: 530), tool: .finger, now: 1) == nil)

        for (i, generation) in [UInt64(1), 2, 3].enumerated() {
            events.removeAll()
            engine.take(Self.snapshot(generation, documentB), now: 1.1 + Double(i) * 0.1, into: &events)
            #expect(Self.outcomes(events) == [.regionsAccepted], "generation \(generation)")
            #expect(engine.snapshotGeneration == generation)
            // Canvas (400, 530) is page (400, 550): on the answer field; (400, 300) beside it.
            #expect(engine.route(at: CanvasPoint(x: 400, y: 530), tool: .finger, now: 1.15 + Double(i) * 0.1) == .page)
            #expect(engine.route(at: CanvasPoint(x: 400, y: 300), tool: .finger, now: 1.15 + Double(i) * 0.1) == .ink)
        }
        // A tap on page B's answer field goes to the page natively at touch-down; nothing waits
        // for a deadline.
        events.removeAll()
        engine.take([.nativePageTouch(TouchEvent(touch: PlatformTouchID(7), phase: .began, samples: [TouchSample(x: 400, y: 530, timestamp: 1.4)])),
                     .nativePageTouch(TouchEvent(touch: PlatformTouchID(7), phase: .ended, samples: []))], now: 1.4, into: &events)
        #expect(engine.isSettled)
        #expect(engine.ledger.releasedNatively == 1)
        #expect(engine.bridgeMetrics.snapshotRefusals.total == 0)
        #expect(engine.bridgeMetrics.newDocuments == 1)
        #expect(engine.bridgeMetrics.implicitNewDocuments == 0)
    }

    @Test("a question in flight when the document is replaced is decided by the fallback at once; its late answer is refused and counted")
    func questionInFlight() throws {
        for answerNamesDocument in [true, false] {
            var engine = InkEngine(seed: 2)
            var events: [EngineEvent] = []
            // Page A's snapshot, already stale when the touch lands: the page is asked.
            engine.take(Self.snapshot(1, Self.pageA, maxAge: 0.1), now: 0.5, into: &events)
            events.removeAll()
            engine.take([Self.down(1, 400, 550, 1.0), Self.up(1)], now: 1.0, into: &events)
            let request = try #require(events.lazy.compactMap { if case let .send(request, _) = $0.kind { request } else { nil } }.first)
            #expect(!engine.isSettled)

            events.removeAll()
            engine.take(.newDocument(.identity), now: 1.05, into: &events)
            let decided = Self.decisions(events)
            #expect(decided.count == 1)
            #expect(decided.first?.time == 1.05)   // now, not at the 250 ms deadline
            #expect(decided.first?.owner == engine.configuration.fallback)
            #expect(decided.first?.reason == .newDocument)
            #expect(engine.isSettled)
            #expect(engine.bridgeMetrics.abandonedByNewDocument == 1)
            let ledger = engine.ledger

            // The old page answers late: "interactive".
            events.removeAll()
            let answer = PageAnswer(token: request.token, verdict: .page, generation: request.generation,
                                    document: answerNamesDocument ? Self.pageA : nil)
            engine.take(.pageMessage(PageMessage.answer(answer).json), now: 1.1, into: &events)
            #expect(Self.outcomes(events) == [answerNamesDocument ? .oldDocument(Self.pageA) : .late])
            #expect(Self.decisions(events).isEmpty)
            #expect(engine.ledger == ledger)
            #expect(engine.bridgeMetrics.oldDocumentAnswers == (answerNamesDocument ? 1 : 0))
            #expect(engine.bridgeMetrics.lateAnswers == (answerNamesDocument ? 0 : 1))
            #expect(engine.bridgeMetrics.refusedAnswers == 1)
        }
    }

    @Test("a snapshot carrying the old document's id after the new document is refused and counted as an old document's")
    func oldDocumentSnapshot() {
        var engine = InkEngine(configuration: InkEngineConfiguration(routing: .decideAtTouchDown), seed: 3)
        var events: [EngineEvent] = []
        Self.pageAtGeneration300(&engine, events: &events, document: Self.pageA)
        #expect(engine.pageDocument == Self.pageA)
        engine.take(.newDocument(.identity), now: 1, into: &events)
        #expect(engine.pageDocument == nil)
        engine.take(Self.snapshot(1, Self.pageB), now: 1.1, into: &events)
        #expect(engine.pageDocument == Self.pageB)

        // Page A's snapshot still in flight: a newer generation, the answer field elsewhere.
        events.removeAll()
        let stale = RegionSnapshot(generation: 301, maxAge: 1, regions: [PageRegion(x: 0, y: 0, width: 50, height: 50)], document: Self.pageA)
        engine.take(.pageMessage(PageMessage.regions(stale).json), now: 1.2, into: &events)
        #expect(Self.outcomes(events) == [.oldDocument(Self.pageA)])
        #expect(Self.newDocumentEvents(events).isEmpty)
        #expect(engine.snapshotGeneration == 1)
        #expect(engine.pageDocument == Self.pageB)
        #expect(engine.route(at: CanvasPoint(x: 400, y: 550), tool: .finger, now: 1.3) == .page)
        #expect(engine.route(at: CanvasPoint(x: 20, y: 20), tool: .finger, now: 1.3) == .ink)
        let metrics = engine.bridgeMetrics
        #expect(metrics.snapshotRefusals.oldDocument == 1)
        #expect(metrics.snapshotRefusals.total == 1 && metrics.snapshotsRefused == 1)
        #expect(metrics.oldDocumentMessages == 1)
        #expect(metrics.documentsSeen == 2)
        #expect(metrics.refusedMessages == 0)
    }

    @Test("a new document id the front end did not report starts a new document: the reset is done and the message taken")
    func implicitNewDocument() throws {
        var engine = InkEngine(configuration: InkEngineConfiguration(routing: .decideAtTouchDown), seed: 4)
        var events: [EngineEvent] = []
        let zoomed = PageTransform(scale: 2, offsetX: 0, offsetY: 0)
        Self.pageAtGeneration300(&engine, events: &events, document: Self.pageA)
        engine.take(.layout(zoomed, generation: nil), now: 0.6, into: &events)
        // A touch beside the field, after A's snapshot went stale: asked, speculatively inked.
        events.removeAll()
        engine.take(Self.down(1, 20, 20, 2.0), now: 2.0, into: &events)
        #expect(engine.waitingQuestions == 1)

        // Page B's first snapshot arrives; nobody said the document changed.
        events.removeAll()
        engine.take(Self.snapshot(1, Self.pageB), now: 2.05, into: &events)
        #expect(Self.newDocumentEvents(events) == [zoomed])   // the transform held is kept
        #expect(Self.outcomes(events) == [.regionsAccepted])
        let decided = Self.decisions(events)
        #expect(decided.count == 1 && decided.first?.reason == .newDocument && decided.first?.time == 2.05)
        #expect(engine.snapshotGeneration == 1)
        #expect(engine.pageDocument == Self.pageB)
        // Canvas (200, 275) is page (400, 550) at scale 2: the field.
        #expect(engine.route(at: CanvasPoint(x: 200, y: 275), tool: .finger, now: 2.1) == .page)
        let metrics = engine.bridgeMetrics
        #expect(metrics.newDocuments == 1 && metrics.implicitNewDocuments == 1 && metrics.documentsSeen == 2)
        #expect(metrics.abandonedByNewDocument == 1)

        // Page A is retired: what it still says is refused.
        events.removeAll()
        engine.take(Self.snapshot(301, Self.pageA), now: 2.2, into: &events)
        #expect(Self.outcomes(events) == [.oldDocument(Self.pageA)])
        #expect(engine.snapshotGeneration == 1)
    }

    @Test("messages without a document id belong to the current document; an explicit new document retires the current id")
    func withoutDocumentID() {
        var engine = InkEngine(seed: 5)
        var events: [EngineEvent] = []
        engine.take(Self.snapshot(4, nil), now: 0.1, into: &events)
        engine.take(Self.snapshot(5, Self.pageA), now: 0.2, into: &events)   // the first id: no reset
        engine.take(Self.snapshot(6, nil), now: 0.3, into: &events)
        #expect(Self.outcomes(events) == [.regionsAccepted, .regionsAccepted, .regionsAccepted])
        #expect(Self.newDocumentEvents(events).isEmpty)
        #expect(engine.bridgeMetrics.newDocuments == 0 && engine.bridgeMetrics.documentsSeen == 1)
        events.removeAll()
        engine.take(.newDocument(.identity), now: 0.4, into: &events)
        engine.take(Self.snapshot(1, nil), now: 0.5, into: &events)
        engine.take(Self.snapshot(2, Self.pageA), now: 0.6, into: &events)
        #expect(Self.outcomes(events) == [.regionsAccepted, .oldDocument(Self.pageA)])
        #expect(engine.snapshotGeneration == 1)
    }

    @Test("a new document with a transform that is not finite and positive is refused and changes nothing")
    func refusedTransform() {
        var engine = InkEngine(seed: 6)
        var events: [EngineEvent] = []
        engine.take(Self.snapshot(3, Self.pageA), now: 0.1, into: &events)
        events.removeAll()
        let bad = PageTransform(scale: 0, offsetX: 0, offsetY: 0)
        engine.take(.newDocument(bad), now: 0.2, into: &events)
        #expect(events.count == 1)
        guard case let .refused(input, .invalidTransform(transform))? = events.first?.kind else {
            Issue.record("not refused: \(events)")
            return
        }
        #expect(input == .newDocument(bad) && transform == bad)
        #expect(engine.snapshotGeneration == 3 && engine.pageDocument == Self.pageA && engine.bridgeMetrics.newDocuments == 0)
    }

    @Test("the bridge remembers the last 16 retired documents")
    func retiredMemory() {
        var engine = InkEngine(seed: 7)
        var events: [EngineEvent] = []
        let ids = (0..<18).map { try! PageDocumentID("doc-\($0)") }
        for (i, id) in ids.enumerated() {
            engine.take(Self.snapshot(1, id), now: Double(i), into: &events)
            engine.take(.newDocument(.identity), now: Double(i) + 0.5, into: &events)
        }
        events.removeAll()
        engine.take(Self.snapshot(1, ids[17]), now: 20, into: &events)   // retired: refused
        engine.take(Self.snapshot(1, ids[2]), now: 20, into: &events)    // the 16th most recent: refused
        engine.take(Self.snapshot(1, ids[1]), now: 20, into: &events)    // forgotten: taken as the current document
        #expect(Self.outcomes(events) == [.oldDocument(ids[17]), .oldDocument(ids[2]), .regionsAccepted])
        #expect(engine.pageDocument == ids[1])
    }

    @Test("the new page's first message overtakes the report of its navigation: the report is that page's, its snapshot holds, and the old page stays refused; a report long after starts over")
    func reportRacesTheFirstMessage() {
        var engine = InkEngine(configuration: InkEngineConfiguration(routing: .decideAtTouchDown), seed: 3)
        var events: [EngineEvent] = []
        engine.take(Self.snapshot(7, Self.pageA), now: 1, into: &events)
        // B's first snapshot arrives 10 ms before the front end hears the commit.
        engine.take(Self.snapshot(1, Self.pageB, maxAge: 5), now: 3, into: &events)
        engine.take(.newDocument(.identity), now: 3.01, into: &events)
        #expect(engine.route(at: CanvasPoint(x: 400, y: 550), tool: .finger, now: 3.02) == .page)
        engine.take(Self.snapshot(2, Self.pageB, maxAge: 5), now: 3.1, into: &events)
        engine.take(Self.snapshot(8, Self.pageA, maxAge: 5), now: 3.2, into: &events)
        #expect(Self.outcomes(events).suffix(2) == [.regionsAccepted, .oldDocument(Self.pageA)], "\(Self.outcomes(events))")
        #expect(engine.snapshotGeneration == 2 && engine.bridgeMetrics.newDocuments == 1)
        // A report that comes long after a document named itself is a navigation of its own.
        engine.take(.newDocument(.identity), now: 9, into: &events)
        #expect(engine.route(at: CanvasPoint(x: 400, y: 550), tool: .finger, now: 9) == nil)
        engine.take(Self.snapshot(3, Self.pageB, maxAge: 5), now: 9.1, into: &events)
        #expect(Self.outcomes(events).last == .oldDocument(Self.pageB) && engine.bridgeMetrics.newDocuments == 2)
    }
}

@Suite("Page document ids on the wire")
struct PageDocumentWireTests {
    @Test("an answer and a snapshot read their document id and are written back with it")
    func roundTrip() throws {
        let id = try PageDocumentID("0123456789abcdef")
        let answer = PageMessage.answer(PageAnswer(token: QueryToken(high: 1, low: 2), verdict: .page, generation: 7, document: id))
        let snapshot = PageMessage.regions(RegionSnapshot(generation: 3, maxAge: 0.5, regions: [PageRegion(x: 1, y: 2, width: 3, height: 4)],
                                                          document: id))
        for message in [answer, snapshot] {
            #expect(message.json.contains(#""document":"0123456789abcdef""#))
            #expect(try PageMessage.decode(message.json) == message)
            #expect(try PageMessage.decode(message.json).document == id)
        }
        let text = #"{"type":"answer","id":"0000000000000001000000000000000a","interactive":0,"generation":1,"document":"Ab-_9"}"#
        #expect(try PageMessage.decode(text).document == PageDocumentID("Ab-_9"))
        #expect(try PageMessage.decode(#"{"type":"regions","generation":1,"regions":[]}"#).document == nil)
    }

    @Test("a malformed document id refuses the message with a typed error, counted",
          arguments: [(#""""#, PageDocumentIDError.empty),
                      ("\"\(String(repeating: "a", count: 65))\"", .tooLong(length: 65, limit: 64)),
                      (#""abc def""#, .invalidCharacter(offset: 3, byte: 0x20)),
                      (#""caf\u00e9""#, .invalidCharacter(offset: 3, byte: 0xC3)),
                      (#""a\"b""#, .invalidCharacter(offset: 1, byte: 0x22))])
    func malformed(document: String, error: PageDocumentIDError) {
        let text = #"{"type":"regions","generation":1,"document":"# + document + #","regions":[]}"#
        #expect(throws: WireMessageError.document(error)) { try PageMessage.decode(text) }
        var engine = InkEngine(seed: 1)
        var events: [EngineEvent] = []
        engine.take(.pageMessage(text), now: 0, into: &events)
        #expect(PageLifecycleTests.outcomes(events) == [.refused(.document(error))])
        #expect(engine.bridgeMetrics.refusedMessages == 1 && engine.bridgeMetrics.invalidDocumentIDs == 1)
        #expect(engine.snapshotGeneration == nil && engine.pageDocument == nil)
    }

    @Test("a document field that is not a string is a shape error naming it")
    func notAString() {
        #expect(throws: WireMessageError.shape(field: "document", message: "expected a string, found a number")) {
            try PageMessage.decode(#"{"type":"regions","generation":1,"document":12,"regions":[]}"#)
        }
    }
}
