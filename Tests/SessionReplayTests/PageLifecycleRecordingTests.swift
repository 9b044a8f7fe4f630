import Foundation
import Testing
@_spi(Tooling) import InkCore
@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkRecording
@_spi(Tooling) import SessionReplay

/// A recording with page loads in it replays identically: the new document, the questions it
/// abandoned, the old document's late answer and snapshot refused, and a new document the
/// front end never reported.
@Suite("A recording with new documents replays identically")
struct PageLifecycleRecordingTests {
    static let pageA = try! PageDocumentID("aaaaaaaaaaaaaaaa")
    static let pageB = try! PageDocumentID("bbbbbbbbbbbbbbbb")
    static let pageC = try! PageDocumentID("cccccccccccccccc")

    static func regions(_ generation: UInt64, _ document: PageDocumentID, maxAge: Double) -> EngineInput {
        .pageMessage(PageMessage.regions(RegionSnapshot(generation: generation, maxAge: maxAge,
                                                        regions: [PageRegion(x: 300, y: 500, width: 200, height: 100, element: "field")],
                                                        document: document)).json)
    }

    static func tap(_ touch: UInt64, x: Double, y: Double, at time: Double) -> [(EngineInput, Double)] {
        [(.touch(TouchEvent(touch: PlatformTouchID(touch), phase: .began, samples: [TouchSample(x: x, y: y, timestamp: time, tool: .pencil)])), time),
         (.touch(TouchEvent(touch: PlatformTouchID(touch), phase: .ended, samples: [TouchSample(x: x + 1, y: y, timestamp: time + 0.01, tool: .pencil)])),
          time + 0.01)]
    }

    /// Drives an engine and a recorder as a front end does, the page answering the question
    /// of touch 2 only after its document was replaced. Returns the recording and the live
    /// engine.
    static func record() -> (text: String, engine: InkEngine) {
        let lines = LinesSink()
        var recorder = SessionRecorder(canvasWidth: 800, canvasHeight: 600, exercise: "lifecycle", sink: lines.offer)
        var engine = InkEngine(configuration: InkEngineConfiguration(decisionTimeout: 0.25), seed: 21)
        recorder.begin(engine)
        var events: [EngineEvent] = []
        var request: HitTestRequest?
        func take(_ input: EngineInput, _ time: Double) {
            let start = events.count
            engine.take(input, now: time, into: &events)
            recorder.record(input, at: time, events: events[start...])
            for event in events[start...] { if case let .send(sent, _) = event.kind { request = sent } }
        }
        // Page A climbs to generation 300.
        take(regions(1, pageA, maxAge: 0.5), 0.9)
        for generation in stride(from: UInt64(2), through: 300, by: 1) { take(.layout(.identity, generation: generation), 0.9) }
        take(regions(300, pageA, maxAge: 0.5), 0.95)
        for (input, time) in tap(1, x: 400, y: 550, at: 1.0) { take(input, time) }     // the field: the cache says page
        // A's snapshot goes stale; touch 2 asks the page, and the page is replaced meanwhile.
        for (input, time) in tap(2, x: 100, y: 100, at: 2.0) { take(input, time) }
        let asked = request!
        take(.newDocument(PageTransform(scale: 1, offsetX: 0, offsetY: 40)), 2.05)     // "next exercise"
        take(.pageMessage(PageMessage.answer(PageAnswer(token: asked.token, verdict: .page, generation: asked.generation,
                                                        document: pageA)).json), 2.1)   // A's late answer
        take(regions(1, pageB, maxAge: 0.5), 2.2)
        take(regions(2, pageB, maxAge: 0.5), 2.25)
        for (input, time) in tap(3, x: 400, y: 510, at: 2.3) { take(input, time) }     // B's field at page (400, 550)
        take(regions(301, pageA, maxAge: 5), 2.4)                                       // A's snapshot still in flight
        // B goes stale; touch 4 asks; page C loads without the front end saying so.
        for (input, time) in tap(4, x: 100, y: 100, at: 2.9) { take(input, time) }
        take(regions(1, pageC, maxAge: 0.5), 2.95)
        for (input, time) in tap(5, x: 400, y: 510, at: 3.0) { take(input, time) }
        take(.tick, 4)
        recorder.recordEnd(at: engine.now, ledger: engine.ledger)
        recorder.flush()
        return (lines.text, engine)
    }

    @Test("recorded with SessionRecorder, read back and replayed: the same decisions, ink and refusals, through both documents")
    func replaysIdentically() throws {
        let (text, live) = Self.record()
        #expect(unchained(text).contains(#"{"kind":"document","t":2.05,"page_transform":{"scale":1,"offset_x":0,"offset_y":40}}"#), "\(text)")
        #expect(text.contains(#""document":"aaaaaaaaaaaaaaaa""#) && text.contains(#""document":"cccccccccccccccc""#))
        let log = try SessionLog.parse(text, file: "lifecycle.jsonl").get()
        #expect(log.events.contains(.recorded(.frontEnd(.newDocument(PageTransform(scale: 1, offsetX: 0, offsetY: 40))), time: 2.05)))

        // What happened live.
        let metrics = live.bridgeMetrics
        #expect(metrics.newDocuments == 2 && metrics.implicitNewDocuments == 1 && metrics.documentsSeen == 3)
        #expect(metrics.abandonedByNewDocument == 2)
        #expect(metrics.oldDocumentAnswers == 1 && metrics.snapshotRefusals.oldDocument == 1 && metrics.snapshotRefusals.total == 1)
        let decided = log.events.compactMap { if case let .recorded(.decided(touch, owner, reason, _), _) = $0 { (touch.platform.rawValue, owner, reason) } else { nil } }
        #expect(decided.map(\.0) == [1, 2, 3, 4, 5])
        #expect(decided.map(\.2) == [.regionCache, .newDocument, .regionCache, .newDocument, .regionCache], "\(decided)")
        #expect(decided.map(\.1) == [.page, .ink, .page, .ink, .page], "\(decided)")

        // The replay: identical, and the bridge refused the same messages for the same reasons.
        let report = SessionReplayer().replay(log, file: "lifecycle.jsonl")
        #expect(report.isIdentical, "\(report.identity ?? "no identity")")
        #expect(report.isVerified, "\(report.failures) \(report.issues)")
        #expect(report.bridge.newDocuments == metrics.newDocuments && report.bridge.implicitNewDocuments == metrics.implicitNewDocuments)
        #expect(report.bridge.oldDocumentAnswers == metrics.oldDocumentAnswers)
        #expect(report.bridge.snapshotRefusals == metrics.snapshotRefusals)
        #expect(report.bridge.abandonedByNewDocument == metrics.abandonedByNewDocument)
        #expect(report.bridge.snapshotsAccepted == metrics.snapshotsAccepted)
        // Written back through InkRecording's writer, it reads back equal.
        #expect(try SessionLog.parse(log.jsonLines()).get().events == log.events)
    }

    @Test("the document line and the document fields are checked when read: a bad id or transform is named with its line")
    func badLines() throws {
        let (text, _) = Self.record()
        let lines = text.split(separator: "\n").map(String.init)
        let firstB = try #require(lines.firstIndex { $0.contains(#""document":"bbbbbbbbbbbbbbbb""#) })
        let badID = text.replacingOccurrences(of: #""document":"bbbbbbbbbbbbbbbb""#, with: #""document":"b b""#)
        let refused = try #require(SessionLog.parse(badID).failure)
        #expect(refused.line == firstB + 1)
        #expect(refused.reason == .invalidField(field: "document", message: PageDocumentIDError.invalidCharacter(offset: 1, byte: 0x20).description))
        let documentLine = try #require(lines.firstIndex { $0.hasPrefix(#"{"kind":"document""#) })
        let noTransform = text.replacingOccurrences(of: #""kind":"document","t":2.05,"page_transform":{"scale":1,"offset_x":0,"offset_y":40}"#,
                                                    with: #""kind":"document","t":2.05"#)
        let missing = try #require(SessionLog.parse(noTransform).failure)
        #expect(missing.line == documentLine + 1)
        if case let .invalidField(field, _) = missing.reason { #expect(field == "page_transform") } else { Issue.record("\(missing)") }
    }

    @Test("without the document line, the replay diverges: the line is what makes it identical")
    func documentLineMatters() throws {
        let (text, _) = Self.record()
        // Unchained: the chain alone would refuse the cut at the next line.
        let cut = unchained(text).split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix(#"{"kind":"document""#) }.joined(separator: "\n")
        #expect(cut != text)
        let report = SessionReplayer().replay(try SessionLog.parse(cut).get())
        #expect(!report.isIdentical, "\(report.identity ?? "")")
    }
}

/// Lines a recorder's sink collects.
final class LinesSink: @unchecked Sendable {
    private let lock = NSLock()
    private var bytes: [UInt8] = []

    func offer(_ piece: [UInt8]) -> Bool {
        lock.withLock { bytes += piece }
        return true
    }

    var text: String { lock.withLock { String(decoding: bytes, as: UTF8.self) } }
}
