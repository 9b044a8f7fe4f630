@_spi(Tooling) import InkCore
@_spi(Tooling) import HitTestBridge
extension SessionLog {
    /// The longest line the reader accepts, in bytes: 8 MiB, more than the longest line a
    /// recorder writes for any input the engine takes within its maximum limits (issue 53).
    public static let maxLineBytes = SessionLogLines.maxLineBytes

    /// Reads a session log from JSON Lines text.
    ///
    /// Blank lines are skipped. The first fault stops reading; the result still holds the
    /// header and every event before it.
    ///
    /// - Parameters:
    ///   - bytes: UTF-8 text.
    ///   - file: The file name used in error messages, or `nil`.
    /// - Complexity: O(n) in the text's length.
    public static func parse<Bytes: Collection>(_ bytes: Bytes, file: String? = nil) -> SessionLogReadResult
    where Bytes.Element == UInt8, Bytes.Index == Int {
        var reader = SessionLogLineReader(file: file)
        var lineNumber = 0
        var start = bytes.startIndex
        while start < bytes.endIndex {
            lineNumber += 1
            let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.endIndex
            if reader.read(line: bytes[start..<end], number: lineNumber) == false { break }
            start = end + 1
        }
        return reader.finish()
    }

    /// Reads a session log from a string.
    public static func parse(_ text: String, file: String? = nil) -> SessionLogReadResult {
        parse(Array(text.utf8), file: file)
    }
}

/// Reads a session log line by line (the state between lines of ``SessionLog/parse(_:file:)``).
package struct SessionLogLineReader {
    let file: String?
    private var log: SessionLog?
    private var failure: SessionLogError?
    private var lastTime = -Double.infinity
    private var sawHeader = false
    /// Whether the header is a live recording's.
    private var isRecording = false
    private var tools = HeldTools()
    /// A chained recording's chain, up to the line before the one being read (`nil`: the
    /// log is not chained).
    private var chain: LineChain?
    /// The line a chained line's content is decoded from (the line without its chain).
    private var content: [UInt8] = []
    private var headerVersion = 1
    /// The last line read (not blank), the touch samples and touches begun in the lines read.
    private var lastLine = 0
    private var samplesRead = 0
    private var touchesRead = 0
    private var endLine: Int?
    private var firstDrop: RecordingIntegrity?

    /// Whether the common lines are read by the fast path (``SessionLineDecoder``); off, every
    /// line goes through the general reader alone, with every other check the same (the fuzz
    /// target `sessionlog` compares the two).
    package var usesFastPath = true

    package init(file: String?) { self.file = file }

    /// What the lines read so far prove (see ``RecordingIntegrity``): meaningful once the
    /// reading reached the end of the log without a fault.
    package var integrity: RecordingIntegrity {
        guard isRecording else { return .notARecording }
        if let firstDrop { return firstDrop }
        guard chain != nil else { return .unchained(version: headerVersion) }
        if let endLine { return .whole(endLine: endLine) }
        return .noEnd(at: lastLine)
    }

    /// How many touches' tools the reader remembers (the touches down, at most
    /// ``HeldTools/limit``).
    package var heldTools: Int { tools.count }

    /// Records a line longer than ``SessionLog/maxLineBytes`` (its bytes were not kept), and
    /// its length when it is known (`nil` when the reading stopped at the cap); returns
    /// `false`: the reading stops there.
    package mutating func refuse(lineOf bytes: Int?, number: Int) -> Bool {
        if failure == nil { failure = error(number, .lineTooLong(bytes: bytes, limit: SessionLog.maxLineBytes)) }
        return false
    }

    /// Records that the input could not be read at line `number`; returns `false`.
    package mutating func refuse(unreadable message: String, number: Int) -> Bool {
        if failure == nil { failure = error(number, .unreadable(message)) }
        return false
    }

    /// A line without the UTF-8 byte order mark (EF BB BF) that some editors put at the start
    /// of a file; pass line 1 through it.
    package static func withoutByteOrderMark<Line: Collection>(_ line: Line) -> Line.SubSequence where Line.Element == UInt8 {
        line.starts(with: byteOrderMark) ? line.dropFirst(byteOrderMark.count) : line[...]
    }

    /// The UTF-8 byte order mark.
    static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// What one line of a log held.
    package enum Line {
        /// A blank line.
        case blank
        /// The header (the first non-blank line). Boxed: a header is large, and every line's
        /// result would otherwise be moved at its size (a `memcpy` per move).
        indirect case header(SessionHeader)
        /// An event, checked for time order.
        case event(SessionEvent)
        /// The line was bad: ``failure`` says why; reading stops.
        case failed
    }

    /// The first fault met, if any.
    package var firstFailure: SessionLogError? { failure }

    /// Reads one line without storing it (streaming readers keep only what they need). A
    /// byte order mark at the start of line 1 is skipped.
    package mutating func take<Bytes: Collection>(line: Bytes, number: Int) -> Line where Bytes.Element == UInt8 {
        if number == 1, line.starts(with: Self.byteOrderMark) { return take(line: Self.withoutByteOrderMark(line), number: 1) }
        if case .some = failure { return .failed }
        guard chain != nil else {
            let read = decode(line: line, number: number)
            if case let .header(header) = read, header.isRecording, header.version >= SessionLogLines.recordingVersion {
                // A chained recording: the header starts the chain.
                var start = LineChain()
                let body = Array(line)
                start.take(line: body.last == 0x0D ? body.dropLast() : body[...])
                chain = start
            }
            return read
        }
        // A chained recording: every line, blank or not, is in the chain; every line after
        // the header carries the chain of the lines before it as its last field.
        if let endLine {
            // Blank lines after the end (an editor's or a transfer's final newline) are not
            // the recording's: skipped, outside the chain. Anything else was added.
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return .blank }
            failure = error(number, .afterEnd(endLine: endLine))
            return .failed
        }
        guard line.count <= SessionLog.maxLineBytes else { return decode(line: line, number: number) }
        var body: [UInt8] = []
        swap(&body, &content)
        defer { swap(&body, &content) }
        body.removeAllBounded()
        body.append(contentsOf: line)
        if body.last == 0x0D { body.removeLast() }
        if body.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
            chain!.take(line: body)
            return .blank
        }
        guard let (carried, contentBytes) = LineChain.split(body) else {
            failure = error(number, .unchainedLine)
            return .failed
        }
        guard carried == chain!.value else {
            failure = error(number, .chainBroken)
            return .failed
        }
        chain!.take(line: body)
        // The line without its chain, closed again: read as any line.
        body.removeSubrange(contentBytes...)
        body.append(UInt8(ascii: "}"))
        let read = decode(line: body, number: number)
        guard case let .event(event) = read else { return read }
        if case let .recorded(.end(lines, samples, touches, _), _) = event {
            let disagreement = [("lines", lines, number - 1), ("samples", samples, samplesRead), ("touches", touches, touchesRead)]
                .first { $0.1 != $0.2 }
            if let (what, recorded, held) = disagreement {
                failure = error(number, .totalsDisagree(what: what, recorded: recorded, read: held))
                return .failed
            }
            endLine = number
        }
        return read
    }

    /// Reads one line (see ``take(line:number:)``), not looking at any chain.
    private mutating func decode<Bytes: Collection>(line: Bytes, number: Int) -> Line where Bytes.Element == UInt8 {
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return .blank }
        do throws(SessionLogError) {
            guard line.count <= SessionLog.maxLineBytes else {
                throw error(number, .lineTooLong(bytes: line.count, limit: SessionLog.maxLineBytes))
            }
            let event: SessionEvent
            if usesFastPath, sawHeader, let fast = line.withContiguousStorageIfAvailable({ SessionLineDecoder.decode($0, tools: tools) }) ?? nil {
                // The common lines, read straight from their bytes; any other line, or any
                // fault, is read below, which names it.
                if case let .touch(touch, _) = fast { noteTool(of: touch) }
                event = fast
            } else {
                let value: JSONValue
                do { value = try JSONParser.parse(line) } catch {
                    throw self.error(number, .malformedJSON(column: error.column, message: error.message))
                }
                if !sawHeader {
                    sawHeader = true
                    let header = try header(from: value, line: number)
                    isRecording = header.isRecording
                    headerVersion = header.version
                    lastLine = number
                    return .header(header)
                }
                event = try self.event(from: value, line: number)
                try checkClaims(of: event, value, line: number)
            }
            guard event.time >= lastTime else {
                throw error(number, .timeWentBackwards(previous: lastTime, got: event.time))
            }
            lastTime = event.time
            lastLine = number
            switch event {
            case let .touch(touch, _), let .recorded(.nativePageTouch(touch), _):
                samplesRead += touch.samples.count
                if touch.phase == .began { touchesRead += 1 }
            case let .recorded(.dropped(lines, samples, _, _, tooLong), _):
                if firstDrop == nil { firstDrop = .dropped(at: number, lines: lines, samples: samples, tooLong: tooLong) }
            default:
                break
            }
            return .event(event)
        } catch {
            failure = error
            return .failed
        }
    }

    /// Refuses a line that its header says cannot exist in this log (issue 53): a header
    /// cannot downgrade its recording's checks. Under a header with no `recorder` block (not
    /// a live recording), a line of a kind only a recording holds, or carrying a `chain`; under
    /// a version-2 header (unchained), a `chain` field or an `end` line; in a chained
    /// recording, a second `chain` field. (The fast path reads neither kind nor a `chain`
    /// key: such a line always comes here.)
    private func checkClaims(of event: SessionEvent, _ value: JSONValue, line: Int) throws(SessionLogError) {
        let chained = isRecording && headerVersion >= SessionLogLines.recordingVersion
        let header = isRecording
            ? "a header of format version \(headerVersion) (an unchained recording)"
            : "a header with no \"recorder\" block (not a live recording)"
        if case let .object(object) = value, object["chain"] != nil {
            throw error(line, chained ? .secondChain : .beyondHeader(what: "a \"chain\" field", header: header))
        }
        guard case let .recorded(recorded, _) = event else { return }
        if !isRecording {
            let what: String
            if case .nativePageTouch = recorded { what = "a page's native touch (\"native_page\")" } else {
                let kind = (try? JSONFieldReader(value).string("kind")) ?? "?"
                what = "a \"\(kind)\" line"
            }
            throw error(line, .beyondHeader(what: what, header: header))
        }
        if case .end = recorded, !chained { throw error(line, .beyondHeader(what: "an \"end\" line", header: header)) }
    }

    /// Reads one line into the log being built; returns `false` once the reader has failed.
    mutating func read<Bytes: Collection>(line: Bytes, number: Int) -> Bool where Bytes.Element == UInt8 {
        switch take(line: line, number: number) {
        case .blank: return true
        case let .header(header):
            log = SessionLog(header: header)
            return true
        case let .event(event):
            log!.events.append(event)
            log!.eventLines.append(number)
            return true
        case .failed: return false
        }
    }

    /// Decodes one line as an event, without storing it or checking time order (for
    /// readers of live streams, like `ink-replay host`). A touch's tool is remembered
    /// between calls, as in a log.
    package mutating func decodeEvent<Line: Collection>(_ line: Line, number: Int) throws(SessionLogError) -> SessionEvent
    where Line.Element == UInt8 {
        guard line.count <= SessionLog.maxLineBytes else {
            throw error(number, .lineTooLong(bytes: line.count, limit: SessionLog.maxLineBytes))
        }
        let value: JSONValue
        do { value = try JSONParser.parse(line) } catch {
            throw self.error(number, .malformedJSON(column: error.column, message: error.message))
        }
        return try event(from: value, line: number)
    }

    /// Decodes an already parsed line as an event (see ``decodeEvent(_:number:)``).
    package mutating func decodeEvent(value: JSONValue, number: Int) throws(SessionLogError) -> SessionEvent {
        try event(from: value, line: number)
    }

    /// Decodes an already parsed line as a session header.
    package func decodeHeader(value: JSONValue, number: Int) throws(SessionLogError) -> SessionHeader {
        try header(from: value, line: number)
    }

    /// Decodes one line as a session header.
    package func decodeHeader<Line: Collection>(_ line: Line, number: Int) throws(SessionLogError) -> SessionHeader
    where Line.Element == UInt8 {
        let value: JSONValue
        do { value = try JSONParser.parse(line) } catch {
            throw self.error(number, .malformedJSON(column: error.column, message: error.message))
        }
        return try header(from: value, line: number)
    }

    func finish() -> SessionLogReadResult {
        if log == nil, failure == nil {
            return SessionLogReadResult(log: nil, failure: SessionLogError(file: file, line: 0, reason: .empty))
        }
        return SessionLogReadResult(log: log, failure: failure)
    }

    func error(_ line: Int, _ reason: SessionLogError.Reason) -> SessionLogError {
        SessionLogError(file: file, line: line, reason: reason)
    }

    /// Runs a field-reading body, turning its shape error into a located log error.
    func fields<T>(_ line: Int, _ body: () throws(JSONShapeError) -> T) throws(SessionLogError) -> T {
        do { return try body() } catch { throw self.error(line, .invalidField(field: error.field, message: error.message)) }
    }

    private func header(from value: JSONValue, line: Int) throws(SessionLogError) -> SessionHeader {
        let object = try fields(line) { () throws(JSONShapeError) in try JSONFieldReader(value) }
        let format = try fields(line) { () throws(JSONShapeError) in try object.string("format") }
        guard format == SessionHeader.formatName else { throw error(line, .notASessionLog(format: format)) }
        let version = try fields(line) { () throws(JSONShapeError) in try object.unsigned("version") }
        guard version <= UInt64(SessionHeader.currentVersion) else { throw error(line, .unsupportedVersion(Int(version))) }
        return try fields(line) { () throws(JSONShapeError) in
            guard version >= 1 else { throw JSONShapeError(field: "version", message: "must be at least 1") }
            let canvas = try object.nested("canvas")
            let size = CanvasSize(width: try canvas.double("width"), height: try canvas.double("height"))
            guard size.width > 0, size.height > 0 else {
                throw JSONShapeError(field: "canvas", message: "width and height must be positive")
            }
            var transform: PageTransform?
            if let t = try object.optionalNested("page_transform") {
                let read = try PageTransform(pageTransformField: t)
                guard read.scale > 0 else { throw JSONShapeError(field: "page_transform.scale", message: "must be positive") }
                transform = read
            }
            var timing: SynthesizedTiming?
            if let t = try object.optionalNested("synthesized_timing") {
                timing = SynthesizedTiming(sampleRate: try t.double("sample_rate"), strokeGap: try t.double("stroke_gap"))
                guard timing!.sampleRate > 0, timing!.sampleRate.isFinite, timing!.strokeGap >= 0, timing!.strokeGap.isFinite else {
                    throw JSONShapeError(field: "synthesized_timing", message: "sample_rate must be positive and stroke_gap not negative")
                }
            }
            var header = SessionHeader(
                canvas: size, pageTransform: transform, exercise: try object.optionalString("exercise"),
                device: try object.optionalString("device"), source: try object.optionalString("source"),
                synthesizedTiming: timing, version: Int(version))
            try Self.readRecorder(object, into: &header)
            return header
        }
    }

    private mutating func event(from value: JSONValue, line: Int) throws(SessionLogError) -> SessionEvent {
        let object = try fields(line) { () throws(JSONShapeError) in try JSONFieldReader(value) }
        let kind = try fields(line) { () throws(JSONShapeError) in try object.string("kind") }
        let time = try fields(line) { () throws(JSONShapeError) in try object.double("t") }
        switch kind {
        case "touch":
            let event = try fields(line) { () throws(JSONShapeError) in try touchEvent(object, time: time) }
            noteTool(of: event)
            if try fields(line, { () throws(JSONShapeError) in try object.optionalBool("native_page") }) == true {
                return .recorded(.nativePageTouch(event), time: time)
            }
            return .touch(event, time: time)
        case "update":
            return try fields(line) { () throws(JSONShapeError) in
                let update = EstimatedPropertyUpdate(
                    touch: PlatformTouchID(try object.unsigned("touch")), updateIndex: try object.unsigned("update_index"),
                    force: try object.optionalDouble("force"), altitude: try object.optionalDouble("altitude"),
                    azimuth: try object.optionalDouble("azimuth"), isFinal: try object.optionalBool("final") ?? true)
                return .update(update, time: time)
            }
        case "answer":
            return try fields(line) { () throws(JSONShapeError) in
                .answer(touch: PlatformTouchID(try object.unsigned("touch")),
                        verdict: try object.choice("verdict", as: HitTestVerdict.self), time: time)
            }
        case "regions":
            return try fields(line) { () throws(JSONShapeError) in
                var regions: [PageRegion] = []
                for r in try object.objects("regions") {
                    let region = PageRegion(x: try r.double("x"), y: try r.double("y"), width: try r.double("width"),
                                            height: try r.double("height"), element: try r.optionalString("element"))
                    guard region.width >= 0, region.height >= 0 else {
                        throw JSONShapeError(field: r.path, message: "width and height must not be negative")
                    }
                    regions.append(region)
                }
                let maxAge = try object.optionalDouble("max_age")
                if let maxAge, maxAge < 0 { throw JSONShapeError(field: "max_age", message: "must not be negative") }
                return .regions(RegionSnapshot(generation: try object.unsigned("generation"), maxAge: maxAge,
                                               regions: regions, document: try Self.document(object)), time: time)
            }
        default:
            guard let recorded = try recordedEvent(kind, object, line: line) else { throw error(line, .unknownKind(kind)) }
            return .recorded(recorded, time: time)
        }
    }

    /// A touch's tool is remembered while it is down, and only then: the map stays as small
    /// as the touches down, whatever the ids.
    private mutating func noteTool(of event: TouchEvent) {
        switch event.phase {
        case .began: tools.began(event.touch, tool: event.samples.first?.tool ?? .finger)
        case .ended, .cancelled: tools.ended(event.touch)
        case .moved: break
        }
    }

    /// Decodes a touch event; reads the remembered tools and changes nothing (a mutation in
    /// the closure `fields(_:_:)` runs would copy the reader, its map included, per line).
    private func touchEvent(_ fields: JSONFieldReader, time: Double) throws(JSONShapeError) -> TouchEvent {
        let touch = PlatformTouchID(try fields.unsigned("touch"))
        let phase = try fields.choice("phase", as: TouchPhase.self)
        let tool: ToolKind
        if fields.has("tool") {
            tool = try fields.choice("tool", as: ToolKind.self)
        } else {
            tool = tools.tool(of: touch) ?? .finger
        }
        let samples = try self.samples(fields, key: "samples", tool: tool, notAfter: time)
        let predicted = try self.samples(fields, key: "predicted", tool: tool, notAfter: .infinity)
        if phase == .began, samples.isEmpty {
            throw JSONShapeError(field: "samples", message: "a began event must carry the touch-down sample")
        }
        return TouchEvent(touch: touch, phase: phase, samples: samples, predicted: predicted)
    }

    private func samples(_ fields: JSONFieldReader, key: String, tool: ToolKind, notAfter time: Double) throws(JSONShapeError) -> [TouchSample] {
        var samples: [TouchSample] = []
        for s in try fields.objects(key) {
            let sample = TouchSample(
                x: try s.double("x"), y: try s.double("y"), timestamp: try s.double("t"),
                force: try s.optionalDouble("force"), altitude: try s.optionalDouble("altitude"),
                azimuth: try s.optionalDouble("azimuth"), tool: tool,
                estimationUpdateIndex: try s.optionalUnsigned("update_index"), majorRadius: try s.optionalDouble("radius"))
            if let radius = sample.majorRadius, radius < 0 {
                throw JSONShapeError(field: s.fieldPath("radius"), message: "must not be negative, found \(JSONValue.format(radius))")
            }
            if let force = sample.force, !(0...1).contains(force) {
                throw JSONShapeError(field: s.fieldPath("force"), message: "must be within 0...1, found \(JSONValue.format(force))")
            }
            // A live recording's `t` is when the engine took the event, on the front end's
            // clock; the platform may stamp a sample a little later.
            guard sample.timestamp <= time + 1e-9 || isRecording else {
                throw JSONShapeError(field: s.fieldPath("t"), message: "sample time \(JSONValue.format(sample.timestamp)) is after the event's time \(JSONValue.format(time))")
            }
            samples.append(sample)
        }
        return samples
    }
}
