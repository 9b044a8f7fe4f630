import Foundation
import Testing
@_spi(Tooling) @testable import InkCore
@_spi(Tooling) import HitTestBridge
@_spi(Tooling) @testable import InkRecording

@Suite("Recorded ink into sessions: encoder, layouts, streaming Quick, Draw!")
struct RecordedInkTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func stroke(_ start: Double, _ count: Int, x: Double = 10, y: Double = 10, step: Double = 0.01) -> [TouchSample] {
        (0..<count).map { TouchSample(x: x + Double($0), y: y, timestamp: start + Double($0) * step) }
    }

    static let page = PageLayout(
        name: "test", canvas: CanvasSize(width: 200, height: 100),
        pageTransform: PageTransform(scale: 2, offsetX: 0, offsetY: 10),
        regions: [PageRegion(x: 100, y: 0, width: 50, height: 50, element: "button")], maxAge: 1)

    @Test("each stroke becomes began, moved…, ended and an answer; the layout decides the verdict through the page transform")
    func strokesToEvents() throws {
        var encoder = RecordedInkEncoder(layout: Self.page, answerLatency: 0.02)
        var events = try encoder.add(Self.stroke(1, 3))
        events += try encoder.add(Self.stroke(2, 1, x: 60, y: 10))   // page (120, 30): on the button
        events += encoder.finish()
        let log = SessionLog(header: SessionHeader(canvas: Self.page.canvas), events: events)
        #expect(SessionLog.parse(log.jsonLines()).failure == nil)
        let phases = events.compactMap { event -> String? in
            if case let .touch(touch, _) = event { return "\(touch.touch.rawValue)\(touch.phase.rawValue.prefix(1))" }
            return nil
        }
        #expect(phases == ["1b", "1m", "1e", "2b", "2e"])
        let answers = events.compactMap { event -> HitTestVerdict? in
            if case let .answer(_, verdict, _) = event { return verdict }
            return nil
        }
        #expect(answers == [.ink, .page])
        #expect(log.sampleCount == 4)
    }

    @Test("the page re-pushes its regions every max_age / 2 while a touch is down; idle stretches are left out")
    func heartbeat() throws {
        var encoder = RecordedInkEncoder(layout: Self.page, answerLatency: 0.02)
        var events = try encoder.add(Self.stroke(0, 121))         // 1.2 s long
        events += try encoder.add(Self.stroke(3600, 2))            // an hour later
        events += encoder.finish()
        let pushes = events.compactMap { event -> Double? in
            if case let .regions(snapshot, time) = event, snapshot.maxAge == 1 { return time }
            return nil
        }
        // Ticks at -0.25, 0.25 and 0.75 s cover the first stroke (0 to 1.2 s); the next
        // tick before the second stroke is 3599.75 s: 7,199 idle ticks are left out.
        #expect(pushes == [-0.25, 0.25, 0.75, 3599.75])
        let times = events.map(\.time)
        #expect(times == times.sorted())
    }

    @Test("overlapping strokes (two fingers) interleave in time order")
    func overlapping() throws {
        var encoder = RecordedInkEncoder(layout: Self.page, answerLatency: 0.05)
        var events = try encoder.add(Self.stroke(0, 10, step: 0.02))
        events += try encoder.add(Self.stroke(0.05, 10, y: 40, step: 0.02))
        events += encoder.finish()
        let times = events.map(\.time)
        #expect(times == times.sorted())
        let log = SessionLog(header: SessionHeader(canvas: Self.page.canvas), events: events)
        #expect(log.samplesByTouch.map(\.samples.count) == [10, 10])
    }

    @Test("bad strokes are refused with a reason and add nothing", arguments: [
        ([] as [TouchSample], "stroke 1: empty stroke"),
        ([TouchSample(x: 1, y: 1, timestamp: 5), TouchSample(x: 1, y: 1, timestamp: 4)], "stroke 1: time goes backwards at sample 1 (5.0 s to 4.0 s)"),
        ([TouchSample(x: .nan, y: 1, timestamp: 5)], "stroke 1: sample 0 has a non-finite value"),
        ([TouchSample(x: 1, y: 1, timestamp: 0.5)], "stroke 1: begins at 0.5 s, before the previous stroke began (1.0 s)"),
    ])
    func refused(samples: [TouchSample], message: String) throws {
        var encoder = RecordedInkEncoder(layout: Self.page, answerLatency: 0.02)
        _ = try encoder.add(Self.stroke(1, 2))
        #expect(throws: RecordedInkError(stroke: 1, message: String(message.dropFirst("stroke 1: ".count)))) {
            try encoder.add(samples)
        }
        #expect(encoder.strokeCount == 1)
        _ = try encoder.add(Self.stroke(2, 2))
        #expect(encoder.strokeCount == 2)
    }

    @Test("hostile times: a gap of years inside a stroke adds no more pushes than samples; an absurd time is refused and adds nothing")
    func hostileTimes() throws {
        var encoder = RecordedInkEncoder(layout: Self.page, answerLatency: 0.02)
        var events = try encoder.add([TouchSample(x: 1, y: 1, timestamp: 0), TouchSample(x: 2, y: 2, timestamp: 3e7),
                                      TouchSample(x: 3, y: 3, timestamp: 3e7 + 0.01)])
        events += encoder.finish()
        let pushes = events.filter { if case .regions = $0 { true } else { false } }
        #expect(pushes.count == 2)
        #expect(throws: RecordedInkError.self) { try encoder.add([TouchSample(x: 1, y: 1, timestamp: 1e300)]) }
        #expect(encoder.strokeCount == 1)
        #expect(try encoder.add([TouchSample(x: 1, y: 1, timestamp: 3e7 + 1)]).allSatisfy { $0.time <= 3e7 + 1 })
        #expect(encoder.strokeCount == 2)
    }

    @Test("fitting places the ink's bounding box, uniformly scaled and centred, in the ink area")
    func placement() {
        var bounds = InkBounds()
        bounds.include(TouchSample(x: 100, y: 100, timestamp: 0))
        bounds.include(TouchSample(x: 300, y: 200, timestamp: 0))
        let placement = InkPlacement.fitting(bounds, into: PageRegion(x: 0, y: 0, width: 100, height: 100))
        #expect(placement.scale == 0.5)
        let corner = placement.apply(TouchSample(x: 100, y: 100, timestamp: 0))
        #expect(corner.x == 0 && corner.y == 25)
        let other = placement.apply(TouchSample(x: 300, y: 200, timestamp: 0))
        #expect(other.x == 100 && other.y == 75)
    }

    // MARK: Layout files

    @Test("the shipped layouts parse and have interactive regions", arguments: ["answer-field", "drag-blocks", "number-line"])
    func shippedLayouts(name: String) throws {
        let path = Self.root.appendingPathComponent("Fixtures/layouts/\(name).json")
        let layout = try PageLayout.parse(Array(try Data(contentsOf: path)), file: path.path)
        #expect(layout.name == name)
        #expect(layout.regions.count >= 3)
        #expect(layout.inkArea != nil)
    }

    @Test("a bad layout names the field", arguments: [
        (#"{"format":"x","version":1}"#, "l.json: format: expected \"scratchpad-ink-layout\""),
        (#"{"format":"scratchpad-ink-layout","version":2}"#, "l.json: version: version 2 is not supported (1 is)"),
        (#"{"format":"scratchpad-ink-layout","version":1,"canvas":{"width":0,"height":5},"regions":[]}"#, "l.json: canvas: width and height must be positive and finite"),
        (#"{"format":"scratchpad-ink-layout","version":1,"canvas":{"width":9,"height":5},"regions":[{"x":1,"y":1,"width":-1,"height":1}]}"#,
         "l.json: regions[0]: x, y must be finite and width, height positive"),
        (#"{"format":"scratchpad-ink-layout","version":1,"canvas":{"width":9,"height":5},"page_transform":{"scale":0},"regions":[]}"#,
         "l.json: page_transform: scale must be positive and every value finite"),
        (#"{"format":"scratchpad-ink-layout","version":1,"canvas":{"width":9,"height":5},"regions":[],"max_age":-1}"#, "l.json: max_age: must be positive and finite"),
        (#"{"format":"scratchpad-ink-layout","#, "l.json: malformed JSON at column 35: expected a string key"),
    ])
    func badLayout(text: String, message: String) {
        #expect(throws: (any Error).self) { try PageLayout.parse(Array(text.utf8), file: "l.json") }
        do { _ = try PageLayout.parse(Array(text.utf8), file: "l.json") } catch { #expect(error.description == message) }
    }

    // MARK: Streaming Quick, Draw!

    struct GeneratedDrawings: ByteSource {
        let count: Int
        let asArray: Bool
        var next = 0
        var pending: [UInt8] = []

        mutating func read(upTo maxCount: Int) throws(ByteSourceError) -> [UInt8] {
            while pending.count < maxCount && next <= count {
                if next == count {
                    pending += Array((asArray ? "]" : "").utf8)
                } else {
                    let xs = (0..<200).map { String($0 % 255) }.joined(separator: ",")
                    let ts = (0..<200).map { String(next * 10_000 + $0 * 16) }.joined(separator: ",")
                    let drawing = #"{"word":"cat","key_id":"\#(next)","drawing":[[[\#(xs)],[\#(xs)],[\#(ts)]]]}"#
                    pending += Array(((asArray ? (next == 0 ? "[" : ",\n") : "") + drawing + (asArray ? "" : "\n")).utf8)
                }
                next += 1
            }
            let chunk = Array(pending.prefix(maxCount))
            pending.removeFirst(chunk.count)
            return chunk
        }
    }

    @Test("Quick, Draw! array and newline-delimited files stream one drawing at a time", arguments: [true, false])
    func quickDrawStream(asArray: Bool) throws {
        var stream = QuickDrawStream(source: GeneratedDrawings(count: 2000, asArray: asArray))
        var drawings = 0
        while let drawing = try stream.next() {
            #expect(drawing.keyID == String(drawings))
            drawings += 1
        }
        #expect(drawings == 2000)
    }

    @Test("a broken array keeps the drawings before the break and names its line")
    func brokenArray() {
        let text = "[\(QuickDrawTests.drawingA),\n\(QuickDrawTests.drawingB)\n,{\"drawing\":"
        let result = QuickDrawReader.read(Array(text.utf8), file: "a.json")
        #expect(result.drawings.count == 2)
        #expect(result.faults.count == 1)
        #expect(result.faults.first?.description == "a.json:3: drawing 2: malformed JSON array: the input ends inside drawing 2 (which began at line 3)")
        let missingComma = QuickDrawReader.read(Array("[\(QuickDrawTests.drawingA) \(QuickDrawTests.drawingB)]".utf8))
        #expect(missingComma.drawings.count == 1)
        #expect(missingComma.faults.first?.message == "malformed JSON array: expected ',' or ']' after drawing 0, found '{'")
        let scalar = QuickDrawReader.read(Array("[1, \(QuickDrawTests.drawingB)]".utf8))
        #expect(scalar.drawings.count == 1)
        #expect(scalar.faults.first?.message.hasSuffix("expected an object, found a number") == true)
    }
}
