import Testing
@_spi(Tooling) @testable import InkCore
@_spi(Tooling) import HitTestBridge
@_spi(Tooling) @testable import InkRecording

@Suite("Quick, Draw! import")
struct QuickDrawTests {
    static let drawingA = #"{"word":"bee","countrycode":"FR","key_id":"42","drawing":[[[1,5,9],[2,2,3],[0,16,33]],[[20],[20],[400]]]}"#
    static let drawingB = #"{"word":"hot dog","key_id":"7","drawing":[[[0,1],[0,1],[0,17]]]}"#

    @Test("array and newline-delimited forms read the same drawings")
    func bothForms() {
        let array = QuickDrawReader.read(Array("[\(Self.drawingA),\(Self.drawingB)]".utf8))
        let lines = QuickDrawReader.read(Array("\(Self.drawingA)\n\n\(Self.drawingB)\n".utf8))
        #expect(array.faults.isEmpty)
        #expect(lines.faults.isEmpty)
        #expect(array.drawings == lines.drawings)
        #expect(array.drawings.map(\.word) == ["bee", "hot dog"])
        #expect(array.drawings[0].strokes[0].t == [0, 16, 33])
    }

    @Test("a negative time is refused with its field (times count from the start of the drawing)")
    func negativeTime() {
        let result = QuickDrawReader.read(Array(#"{"word":"x","key_id":"1","drawing":[[[1,2],[1,2],[-5,10]]]}"#.utf8))
        #expect(result.drawings.isEmpty)
        #expect(result.faults.first?.message.contains("a negative time, -5 ms") == true, "\(result.faults)")
    }

    @Test("a drawing becomes one finger touch per stroke at its recorded pace, answered ink")
    func toSession() throws {
        let drawing = try #require(QuickDrawReader.read(Array(Self.drawingA.utf8)).drawings.first)
        let log = try SessionLog(quickDraw: drawing, answerLatency: 0.016)
        let touches = log.samplesByTouch
        #expect(touches.count == 2)
        #expect(touches[0].samples.map(\.timestamp) == [0, 0.016, 0.033])
        #expect(touches[0].samples.map(\.x) == [1, 5, 9])
        #expect(touches[1].samples.count == 1)
        #expect(touches.allSatisfy { $0.samples.allSatisfy { $0.tool == .finger && $0.force == nil } })
        let answers = log.events.compactMap { event -> Double? in
            if case let .answer(_, verdict, time) = event, verdict == .ink { return time }
            return nil
        }
        #expect(answers.count == 2)
        #expect(zip(answers, [0.016, 0.416]).allSatisfy { abs($0 - $1) < 1e-12 })
        #expect(log.header.canvas == CanvasSize(width: 21, height: 21))
        #expect(log.header.source?.contains("CC BY 4.0") == true)
        // Events are in time order, so the log reads back.
        #expect(SessionLog.parse(log.jsonLines()).failure == nil)
    }

    @Test("a bad drawing is reported with line and field, and the others still convert", arguments: [
        (#"{"drawing":[[[1,2],[1],[0,1]]]}"#, "field 'drawing[0]': channel lengths differ (x 2, y 1, t 2)"),
        (#"{"drawing":[[[1,2],[1,2],[5,1]]]}"#, "field 'drawing[0][2][1]': time went backwards from 5 to 1 ms"),
        (#"{"drawing":[[[],[],[]]]}"#, "field 'drawing[0]': empty stroke"),
        (#"{"drawing":[]}"#, "field 'drawing': no strokes"),
        (#"{"drawing":[[[1],[1]]]}"#, "field 'drawing[0]': expected 3 channels (x, y, t), found 2"),
        (#"{"drawing":[[[1],["a"],[0]]]}"#, "field 'drawing[0][1][0]': expected a number, found a string"),
        (#"{"word":"x"}"#, "field 'drawing': missing"),
        (#"{"drawing":[[[1],[1],[0]]"#, "malformed JSON at column 26: unexpected end of input inside an array"),
    ])
    func badDrawing(line: String, message: String) {
        let result = QuickDrawReader.read(Array("\(Self.drawingA)\n\(line)\n\(Self.drawingB)".utf8), file: "q.ndjson")
        #expect(result.drawings.count == 2)
        #expect(result.faults.count == 1)
        #expect(result.faults.first?.line == 2)
        #expect(result.faults.first?.drawing == 1)
        #expect(result.faults.first?.message == message)
        #expect(result.faults.first?.description.hasPrefix("q.ndjson:2: drawing 1: ") == true)
    }
}

extension QuickDrawTests {
    /// Found by the quickdraw fuzz target: a time of 1.9e35 ms reads, and the encoder
    /// refuses it with a typed error instead of trapping on an integer conversion.
    @Test("an absurd time is refused by the encoder with a typed error, not a crash")
    func absurdTime() throws {
        let text = #"{"word":"bee","key_id":"1","drawing":[[[1,5],[2,2],[0,188888888888888888888888888888888886]]]}"#
        let drawing = try #require(QuickDrawReader.read(Array(text.utf8)).drawings.first)
        #expect(throws: RecordedInkError.self) { try SessionLog(quickDraw: drawing, answerLatency: 0.016) }
    }
}
