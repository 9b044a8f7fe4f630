import Foundation
import Testing
@_spi(Tooling) @testable import InkCore
@_spi(Tooling) import HitTestBridge
@_spi(Tooling) @testable import InkRecording

@Suite("InkML import and export")
struct InkMLTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let spec = root.appendingPathComponent("Fixtures/inkml/spec")

    static func read(_ text: String, options: InkMLImportOptions = InkMLImportOptions())
    -> (strokes: [InkMLStroke], faults: [InkMLError], summary: InkMLReadSummary) {
        InkMLReader.read(Array(text.utf8), file: "t.inkml", options: options)
    }

    static func ink(_ body: String, channels: String = #"<channel name="X"/><channel name="Y"/><channel name="T" units="ms"/>"#) -> String {
        """
        <ink xmlns="http://www.w3.org/2003/InkML">
        <definitions><context xml:id="c"><traceFormat>\(channels)</traceFormat></context></definitions>
        \(body)
        </ink>
        """
    }

    static func decode(_ text: String, regular: Int = 2, defaults: [Double] = [0, 0], booleans: [Bool]? = nil) throws(InkMLTraceFault) -> [Double] {
        try InkMLTraceDecoder(regularCount: regular, defaults: defaults, booleans: booleans ?? defaults.map { _ in false })
            .decode(Array(text.utf8))
    }

    static func expectSame(_ a: [InkMLStroke], _ b: [InkMLStroke], tolerance: Double = 1e-9) {
        #expect(a.count == b.count)
        for (left, right) in zip(a, b) {
            #expect(left.samples.count == right.samples.count)
            for (p, q) in zip(left.samples, right.samples) {
                #expect(abs(p.x - q.x) <= tolerance && abs(p.y - q.y) <= tolerance, "\(p) vs \(q)")
                #expect(abs(p.timestamp - q.timestamp) <= tolerance)
                #expect(abs((p.force ?? -1) - (q.force ?? -1)) <= tolerance)
            }
        }
    }

    // MARK: Trace grammar

    @Test("first and second differences decode the specification's example (normalised to commas)")
    func specificationExample() throws {
        let values = try Self.decode(#"1125 18432,'23'43,"7"-8,3-5,7-3,6 2,6 8,3 6"#)
        let xs = stride(from: 0, to: values.count, by: 2).map { values[$0] }
        let ys = stride(from: 1, to: values.count, by: 2).map { values[$0] }
        #expect(xs == [1125, 1148, 1178, 1211, 1251, 1297, 1349, 1404])
        #expect(ys == [18432, 18475, 18510, 18540, 18567, 18596, 18633, 18676])
    }

    @Test("value forms: decimals without leading digits, exponents, hex, signs without spaces, booleans, ? and *")
    func valueForms() throws {
        #expect(try Self.decode(".5-.25, 1e2 -2E-1, #1F #a, 3.5.5") == [0.5, -0.25, 100, -0.2, 31, 10, 3.5, 0.5])
        #expect(try Self.decode("1 T, 2 F", defaults: [0, 0], booleans: [false, true]) == [1, 1, 2, 0])
        let missing = try Self.decode("1 2, ? 3")
        #expect(missing[0...1] == [1, 2] && missing[2].isNaN && missing[3] == 3)
        // * repeats the encoding: the same value when explicit, the same difference otherwise.
        #expect(try Self.decode("5 1, * '2, 6 *, * *") == [5, 1, 5, 3, 6, 5, 6, 7])
    }

    @Test("intermittent channels may be left out: last known value, else the default")
    func intermittent() throws {
        let values = try Self.decode("1 2, 3 4 9, 5 6, 7 8 *", regular: 2, defaults: [0, 0, 4])
        #expect(values == [1, 2, 4, 3, 4, 9, 5, 6, 9, 7, 8, 9])
    }

    @Test("a malformed trace names the point and the problem", arguments: [
        ("1 2, 3", 1, "1 value; the trace format needs 2 in every point"),
        ("1 2 3", 0, "more than 2 values (missing a comma between points?)"),
        ("1 2,, 3 4", 1, "an empty point (two commas, or a comma first)"),
        ("'1 2", 0, "a first difference (') with no earlier value"),
        (#"1 2, "1 2"#, 1, #"a second difference (") needs two earlier values"#),
        ("1 x", 0, "'x' is not a number"),
        ("1 2, 3 1e999", 1, "'1e999' is not a finite number"),
        ("1 2, 'T 1", 1, "a prefix before T"),
        ("1 T", 0, "channel 2 is numeric: T or F is not a value"),
        ("* 1", 0, "* with no earlier value in channel 1"),
        ("1 -", 0, "a sign with no number after it"),
        ("1 #", 0, "# with no hex digits"),
    ])
    func traceFaults(text: String, point: Int, message: String) {
        #expect(throws: InkMLTraceFault(point: point, message: message)) { try Self.decode(text) }
    }

    // MARK: Files written from the specification

    @Test("difference-encoded, reordered and referenced files import to the same points as the plain encoding",
          arguments: ["first-differences.inkml", "second-differences.inkml", "reordered-channels.inkml", "xml-features.inkml"])
    func encodingsAgree(name: String) throws {
        func load(_ name: String) throws -> [InkMLStroke] {
            let bytes = Array(try Data(contentsOf: Self.spec.appendingPathComponent(name)))
            let result = InkMLReader.read(bytes, file: name)
            #expect(result.faults.isEmpty, "\(result.faults)")
            return result.strokes
        }
        let plain = try load("plain.inkml")
        #expect(plain.map(\.samples.count) == [6, 5, 1])
        #expect(plain[0].samples.map(\.x) == [10, 12, 15, 19, 24, 30])
        #expect(plain[0].samples.map(\.timestamp) == [0, 0.008, 0.016, 0.024, 0.033, 0.041])
        #expect(plain[0].samples.allSatisfy { $0.tool == .pencil })
        Self.expectSame(try load(name), plain, tolerance: 1e-9)
    }

    // MARK: Document structure

    @Test("channels in any order, units converted, force normalised by max, orientation honoured")
    func unitsAndOrder() {
        let text = Self.ink(##"<trace contextRef="#c">2 0.5 1 512, 3 0.5 1.5 1024</trace>"##, channels: """
            <channel name="T" units="s"/><channel name="X" units="in"/><channel name="Y" units="cm" orientation="-ve"/>\
            <channel name="F" min="0" max="1024"/>
            """)
        let result = Self.read(text)
        #expect(result.faults.isEmpty)
        let samples = result.strokes[0].samples
        #expect(samples.map(\.timestamp) == [2, 3])
        #expect(samples.map(\.x) == [48, 48])
        #expect(abs(samples[0].y - -96 / 2.54) < 1e-9 && abs(samples[1].y - -1.5 * 96 / 2.54) < 1e-9)
        #expect(samples.map(\.force) == [0.5, 1])
    }

    @Test("a file without T: timestamps at the stated sample rate, duration and timeOffset honoured, recorded in the summary")
    func synthesizedTiming() {
        let text = """
            <ink><definitions><inkSource xml:id="s"><traceFormat><channel name="X"/><channel name="Y"/></traceFormat>\
            <sampleRate value="100"/></inkSource><context xml:id="c" inkSourceRef="#s"/></definitions>
            <context contextRef="#c"/>
            <trace>0 0, 1 1, 2 2</trace>
            <trace>5 5, 6 6</trace>
            <trace timeOffset="1000" duration="300">7 7, 8 8, 9 9, 10 10</trace>
            </ink>
            """
        let result = Self.read(text, options: InkMLImportOptions(sampleRate: 60, strokeGap: 0.25))
        #expect(result.faults.isEmpty)
        let times = result.strokes.map { $0.samples.map(\.timestamp) }
        #expect(times[0] == [0, 0.01, 0.02])
        #expect(times[1] == [0.27, 0.28])
        #expect(zip(times[2], [1.0, 1.1, 1.2, 1.3]).allSatisfy { abs($0 - $1) < 1e-12 })
        #expect(result.summary.synthesizedTiming == SynthesizedTiming(sampleRate: 100, strokeGap: 0.25))
        #expect(result.strokes.allSatisfy { $0.samples.allSatisfy { $0.tool == .finger && $0.force == nil } })
        // Without a stated rate, the option's rate is used.
        let bare = Self.read("<ink><trace>0 0, 1 1</trace></ink>", options: InkMLImportOptions(sampleRate: 50))
        #expect(bare.strokes.first?.samples.map(\.timestamp) == [0, 0.02])
        #expect(bare.summary.synthesizedTiming?.sampleRate == 50)
        #expect(bare.summary.notes.contains("X without units taken as canvas points"))
    }

    @Test("contexts: top-level context becomes current, traceGroup passes its context down, T respects a timestamp")
    func contexts() {
        let text = """
            <ink>
              <definitions>
                <traceFormat xml:id="yx"><channel name="Y"/><channel name="X"/><channel name="T" units="ms" respectTo="#t1"/></traceFormat>
                <timestamp xml:id="t0" time="1000000"/>
                <timestamp xml:id="t1" timestampRef="#t0" timeOffset="2000"/>
                <context xml:id="swapped" traceFormatRef="#yx"/>
              </definitions>
              <trace>1 2, 3 4</trace>
              <context contextRef="#swapped"/>
              <trace>1 2 0, 3 4 10</trace>
              <traceGroup contextRef="#swapped"><traceGroup><trace>5 6 20</trace></traceGroup></traceGroup>
              <traceView traceDataRef="#x"/>
              <trace type="penUp">9 9 30</trace>
            </ink>
            """
        let result = Self.read(text)
        #expect(result.faults.isEmpty, "\(result.faults)")
        #expect(result.strokes.count == 3)
        #expect(result.strokes[0].samples.map(\.x) == [1, 3])
        #expect(result.strokes[1].samples.map(\.x) == [2, 4])
        #expect(result.strokes[1].samples.map(\.timestamp) == [2, 2.01])
        #expect(result.strokes[2].samples.map(\.y) == [5])
        #expect(result.summary.penUpTraces == 1)
        #expect(result.summary.traceViews == 1)
        #expect(result.summary.traces == 4)
    }

    @Test("continued traces join into one stroke")
    func continuation() {
        let text = Self.ink("""
            <trace contextRef="#c" xml:id="a" continuation="begin">0 0 0, 1 1 10</trace>
            <trace contextRef="#c" xml:id="b" continuation="middle" priorRef="#a">2 2 20</trace>
            <trace contextRef="#c" continuation="end" priorRef="#b">3 3 30</trace>
            <trace contextRef="#c">9 9 40</trace>
            """)
        let result = Self.read(text)
        #expect(result.faults.isEmpty, "\(result.faults)")
        #expect(result.strokes.map(\.samples.count) == [4, 1])
        #expect(result.strokes[0].samples.map(\.x) == [0, 1, 2, 3])
    }

    // MARK: Bad input

    @Test("a bad trace is reported with file, line, trace and point; the traces around it still import", arguments: [
        (##"<trace contextRef="#c">1 2 3, 4 5</trace>"##, 1, "1", "2 values; the trace format needs 3 in every point"),
        (##"<trace contextRef="#c">1 2 3, 4 five 6</trace>"##, 1, "1", "'five' is not a number"),
        (##"<trace contextRef="#c">1 2 30, 4 5 20</trace>"##, 1, "1", "time goes backwards (0.03 s to 0.02 s)"),
        (##"<trace contextRef="#c"> </trace>"##, 1, "nil", "an empty trace"),
        (##"<trace contextRef="#c">1 2 NaN</trace>"##, 1, "0", "'NaN' is not a number"),
        (##"<trace contextRef="#c">1 ? 3</trace>"##, 1, "0", "Y is missing (?)"),
        (##"<trace contextRef="#nowhere">1 2 3</trace>"##, 1, "nil", "contextRef \"#nowhere\" names no context defined before it"),
        (##"<trace contextRef="#c" type="hover">1 2 3</trace>"##, 1, "nil", "type \"hover\" is not penDown, penUp or indeterminate"),
    ])
    func badTrace(trace: String, index: Int, point: String, message: String) {
        let text = Self.ink("<trace contextRef=\"#c\">0 0 0</trace>\n\(trace)\n<trace contextRef=\"#c\">7 7 100</trace>")
        let result = Self.read(text)
        #expect(result.strokes.map(\.trace) == [0, 2])
        #expect(result.faults.count == 1)
        let fault = result.faults.first
        #expect(fault?.isFatal == false)
        #expect(fault?.trace == index)
        #expect(fault?.point.map(String.init) ?? "nil" == point)
        #expect(fault?.message == message)
        #expect(fault?.line == 4)
        #expect(fault?.description.hasPrefix("t.inkml:4: trace 1") == true)
        #expect(result.summary.faultyTraces == 1)
    }

    @Test("format faults: no X channel, force without a max, unknown time unit", arguments: [
        (#"<channel name="Y"/><channel name="T"/>"#, "1 2", "the trace format has no X channel"),
        (#"<channel name="X"/><channel name="Y"/><channel name="F"/>"#, "1 2 300", "F is 300.0 but the channel declares no max, so it cannot be normalised (declare max, or units \"%\")"),
        (#"<channel name="X"/><channel name="Y"/><channel name="T" units="h"/>"#, "1 2 3", "T has units \"h\" (s, ms or us expected)"),
        (#"<channel name="X" units="in"/><channel name="Y"/>"#, "1e308 2", "a value out of range after unit conversion (not finite)"),
    ])
    func formatFaults(channels: String, trace: String, message: String) {
        let result = Self.read(Self.ink("<trace contextRef=\"#c\">\(trace)</trace>", channels: channels))
        #expect(result.strokes.isEmpty)
        #expect(result.faults.map(\.message) == [message])
    }

    @Test("malformed XML stops the reading with its line; strokes before it are kept")
    func malformedXML() {
        let text = Self.ink("<trace contextRef=\"#c\">0 0 0</trace>\n<trace contextRef=\"#c\">1 1 1</trac>")
        let result = Self.read(text)
        #expect(result.strokes.count == 1)
        #expect(result.faults.count == 1)
        #expect(result.faults[0].isFatal)
        #expect(result.faults[0].line == 4)
        #expect(result.faults[0].message == "</trac> does not match <trace> (opened at line 4)")
        let wrongRoot = Self.read("<svg/>")
        #expect(wrongRoot.faults.map(\.message) == ["the root element is <svg>, not <ink>"])
    }

    // MARK: Export

    @Test("export then import keeps positions within 1e-6 and timestamps within 1 ms", arguments: ["decimal-point", "long-stroke", "drag-block"])
    func roundTrip(name: String) throws {
        let path = Self.root.appendingPathComponent("Fixtures/strokes/\(name).jsonl").path
        let log = try #require(SessionLog.read(contentsOf: path).log)
        var strokes = log.samplesByTouch.map(\.samples)
        // Give one stroke angles, so OE and OA go through too.
        strokes[0] = strokes[0].map { var s = $0; s.altitude = 0.7; s.azimuth = -1.25; return s }
        let text = InkMLWriter.document(strokes: strokes, annotations: [("title", "a <round> & trip")])
        let back = InkMLReader.read(Array(text.utf8))
        #expect(back.faults.isEmpty)
        #expect(back.summary.annotations["title"] == "a <round> & trip")
        #expect(back.strokes.count == strokes.count)
        for (original, read) in zip(strokes, back.strokes) {
            #expect(original.count == read.samples.count)
            for (a, b) in zip(original, read.samples) {
                #expect(abs(a.x - b.x) <= 1e-6 && abs(a.y - b.y) <= 1e-6)
                #expect(abs(a.timestamp - b.timestamp) <= 0.001)
                #expect(a.force == b.force)
                #expect(a.altitude == b.altitude && a.azimuth == b.azimuth)
            }
        }
    }

    @Test("export keeps the sign of -0 (it wrote 0) in every channel, and the reader reads -0 back (issue 40)")
    func negativeZero() throws {
        var sample = TouchSample(x: -0.0, y: -0.0, timestamp: 0)
        sample.force = 0.5
        sample.altitude = -0.0
        sample.azimuth = -0.0
        var second = sample
        second.timestamp = 0.01
        second.y = 2
        let text = InkMLWriter.document(strokes: [[sample, second]])
        #expect(text.contains(">-0 -0 0 0.5 -0 -0, -0 2 10 0.5 -0 -0<"), "\(text)")
        let back = InkMLReader.read(Array(text.utf8))
        #expect(back.faults.isEmpty)
        let read = try #require(back.strokes.first?.samples.first)
        #expect(read.x.sign == .minus && read.x == 0 && read.y.sign == .minus)
        #expect(read.altitude?.sign == .minus && read.azimuth?.sign == .minus)
    }

    // MARK: Streaming

    /// An InkML document generated as it is read: the test never holds it.
    struct GeneratedInkML: ByteSource {
        let traces: Int
        let pointsPerTrace: Int
        var next = -1
        var pending: [UInt8] = []

        mutating func read(upTo maxCount: Int) throws(ByteSourceError) -> [UInt8] {
            while pending.count < maxCount && next <= traces {
                if next == -1 {
                    pending += Array(InkMLTests.ink("").replacingOccurrences(of: "</ink>", with: "").utf8)
                } else if next == traces {
                    pending += Array("</ink>\n".utf8)
                } else {
                    var line = "<trace contextRef=\"#c\">"
                    let t0 = next * 1000
                    for p in 0..<pointsPerTrace {
                        line += (p == 0 ? "" : ", ") + "\(p % 300 + 10).25 \(next % 400 + 20).5 \(t0 + p * 4)"
                    }
                    pending += Array((line + "</trace>\n").utf8)
                }
                next += 1
            }
            let chunk = Array(pending.prefix(maxCount))
            pending.removeFirst(chunk.count)
            return chunk
        }
    }

    @Test("a 20 MB document streams through a window of at most 256 KiB")
    func boundedMemory() throws {
        var reader = InkMLReader(source: GeneratedInkML(traces: 4000, pointsPerTrace: 250))
        var strokes = 0
        var points = 0
        while let stroke = try reader.next() {
            strokes += 1
            points += stroke.samples.count
        }
        #expect(strokes == 4000)
        #expect(points == 1_000_000)
        #expect(reader.peakBufferedBytes <= 256 << 10)
    }
}
