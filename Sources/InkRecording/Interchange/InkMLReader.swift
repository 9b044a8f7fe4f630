@_spi(Tooling) import InkCore
@_spi(Tooling) import HitTestBridge
/// Reads W3C InkML one stroke at a time, from any ``ByteSource``, holding only the
/// definitions, the trace being read and a small window of the input.
///
/// What it follows from the specification:
/// - `<traceFormat>` channels in any order, `<intermittentChannels>`, channel `type`,
///   `default`, `units`, `min`/`max` and `orientation`; the default format (X, Y) when a
///   document declares none;
/// - `<definitions>`; `<context>` with `contextRef` (inheriting), `traceFormatRef`,
///   `inkSourceRef`, `timestampRef` and the same as children; a `<context>` (or a bare
///   `<traceFormat>`) outside `<definitions>` becomes the current context (format) of the
///   traces after it;
/// - `<inkSource>` with its `<traceFormat>` and `<sampleRate>`; `<timestamp>` with `time`,
///   `timestampRef` and `timeOffset`;
/// - `<traceGroup>` (nested, passing `contextRef` down), trace `contextRef`, `type`
///   (pen-up traces are left out and counted), `timeOffset`, `duration`, and
///   `continuation`/`priorRef` (a continued trace joins its prior one into one stroke, of at
///   most 500,000 points, the per-trace limit: a chain longer than that is split into strokes of at
///   most that many, each split counted in ``InkMLReadSummary/splitContinuations``);
/// - the trace grammar and difference encodings (`InkMLTraceDecoder`).
///
/// Conversions: X and Y to canvas points at 96 per inch (`m`, `cm`, `mm`, `in`, `pt`,
/// `pc`, `himetric`; `px`, `dev` and unknown units are taken as canvas points and noted);
/// T to seconds (`s`, `ms`, `us`; ms when undeclared), relative to the channel's
/// `respectTo` timestamp or the trace's `timeOffset`; F to 0...1 through `min`/`max`
/// (or `%`); OE and OA to altitude and azimuth (radians, or degrees when declared).
/// Without a T channel, timestamps are synthesised (stated `<sampleRate>`, else the
/// option's) and ``InkMLReadSummary/synthesizedTiming`` says so.
///
/// `<traceView>` is not followed (counted in the summary).
public struct InkMLReader<Source: ByteSource> {
    private var xml: XMLPullParser<Source>
    /// The file name used in errors.
    public let file: String?
    /// The import's choices where the file is silent.
    public let options: InkMLImportOptions
    /// What the reader has found so far (complete once ``next()`` returned `nil`).
    public private(set) var summary = InkMLReadSummary()

    private struct Context {
        var format = InkMLTraceFormat.default
        var sampleRate: Double?
        var timestamp: String?
    }

    private var formats: [String: InkMLTraceFormat] = [:]
    private var contexts: [String: Context] = [:]
    private var inkSources: [String: Context] = [:]
    private var timestamps: [String: Double] = [:]
    private var timeOrigin: Double?
    private var currentContext = Context()
    private var groupContexts: [Context] = []
    private var definitionsDepth = 0
    private var sawRoot = false
    private var done = false
    private var traceIndex = 0
    private var held: InkMLStroke?
    private var heldOpen = false
    private var ready: [InkMLStroke] = []
    private var previousEnd: Double?
    /// The most points of one stroke, a trace's or a chain of continued traces': the
    /// per-trace limit (`InkMLTraceDecoder.maxPoints`, 500,000) unless a test sets less.
    package let maxStrokePoints: Int
    /// The most points the reader held at once in a stroke being joined.
    package private(set) var peakHeldPoints = 0

    /// A reader over `source`.
    public init(source: Source, file: String? = nil, options: InkMLImportOptions = InkMLImportOptions()) {
        self.init(source: source, file: file, options: options, maxStrokePoints: InkMLTraceDecoder.maxPoints)
    }

    /// A reader whose strokes have at most `maxStrokePoints` points (for tests).
    package init(source: Source, file: String? = nil, options: InkMLImportOptions = InkMLImportOptions(), maxStrokePoints: Int) {
        // A trace's text: at most 500,000 points of a few channels (see InkMLTraceDecoder.maxPoints).
        xml = XMLPullParser(source: source, maxTextBytes: 64 << 20)
        self.file = file
        self.options = options
        self.maxStrokePoints = max(1, maxStrokePoints)
    }

    /// The largest number of input bytes held at once so far.
    public var peakBufferedBytes: Int { xml.peakBufferedBytes }

    /// The next stroke, or `nil` at the end of the document.
    ///
    /// - Throws: ``InkMLError``. When it is not fatal, only one trace was lost: call
    ///   `next()` again to go on. After a fatal error `next()` returns `nil`.
    public mutating func next() throws(InkMLError) -> InkMLStroke? {
        while true {
            if !ready.isEmpty { return deliver(ready.removeFirst()) }
            if done {
                if let stroke = held { held = nil; return deliver(stroke) }
                return nil
            }
            let event: XMLEvent?
            do { event = try xml.next() } catch {
                done = true
                throw InkMLError(file: file, line: error.line, message: error.message, isFatal: true)
            }
            guard let event else {
                done = true
                continue
            }
            do throws(InkMLError) {
                try handle(event)
            } catch {
                if error.isFatal { done = true }
                throw error
            }
        }
    }

    /// Every stroke of a document in memory, and the faults of traces left out.
    public static func read(_ bytes: [UInt8], file: String? = nil, options: InkMLImportOptions = InkMLImportOptions())
    -> (strokes: [InkMLStroke], faults: [InkMLError], summary: InkMLReadSummary) where Source == MemoryByteSource {
        var reader = InkMLReader(source: MemoryByteSource(bytes), file: file, options: options)
        var strokes: [InkMLStroke] = []
        var faults: [InkMLError] = []
        while true {
            do {
                guard let stroke = try reader.next() else { break }
                strokes.append(stroke)
            } catch {
                faults.append(error)
                if error.isFatal { break }
            }
        }
        return (strokes, faults, reader.summary)
    }

    private mutating func deliver(_ stroke: InkMLStroke) -> InkMLStroke {
        summary.strokes += 1
        summary.points += stroke.samples.count
        return stroke
    }

    private func fatal(_ message: String, line: Int) -> InkMLError {
        InkMLError(file: file, line: line, message: message, isFatal: true)
    }

    // MARK: Document structure

    private mutating func handle(_ event: XMLEvent) throws(InkMLError) {
        switch event {
        case .text:
            return
        case let .end(name, _):
            if name == "definitions" { definitionsDepth -= 1 }
            if name == "traceGroup" { _ = groupContexts.popLast() }
        case let .start(tag):
            guard sawRoot else {
                guard tag.name == "ink" else { throw fatal("the root element is <\(tag.name)>, not <ink>", line: tag.line) }
                sawRoot = true
                return
            }
            switch tag.name {
            case "definitions":
                definitionsDepth += 1
            case "traceFormat":
                let format = try readTraceFormat(tag)
                if let id = tag.attributes["xml:id"] { formats[id] = format }
                // Outside <definitions> (as in earlier drafts of the specification), a
                // trace format applies to the traces after it.
                if definitionsDepth == 0 && groupContexts.isEmpty { currentContext.format = format }
            case "context":
                let context = try readContext(tag)
                if let id = tag.attributes["xml:id"] { contexts[id] = context }
                if definitionsDepth == 0 && groupContexts.isEmpty { currentContext = context }
            case "inkSource":
                let source = try readInkSource(tag)
                if let id = tag.attributes["xml:id"] { inkSources[id] = source }
            case "timestamp":
                try readTimestamp(tag)
                try skipElement(tag)
            case "traceGroup":
                var context = groupContexts.last ?? currentContext
                if let reference = tag.attributes["contextRef"] { context = try lookUp(reference, in: contexts, what: "context", line: tag.line) }
                groupContexts.append(context)
            case "trace":
                try readTrace(tag)
            case "traceView":
                if definitionsDepth == 0 { summary.traceViews += 1 }
                try skipElement(tag)
            case "annotation":
                let text = try readText(tag)
                if definitionsDepth == 0, groupContexts.isEmpty, let type = tag.attributes["type"], summary.annotations[type] == nil,
                   summary.annotations.count < 32 {
                    summary.annotations[type] = String(decoding: text.prefix(1024), as: UTF8.self)
                }
            default:
                try skipElement(tag)
            }
        }
    }

    private mutating func nextEvent(inside tag: XMLStartTag) throws(InkMLError) -> XMLEvent {
        do {
            guard let event = try xml.next() else { throw fatal("the input ends inside <\(tag.name)>", line: tag.line) }
            return event
        } catch let error as XMLSyntaxError {
            throw fatal(error.message, line: error.line)
        } catch {
            throw error as! InkMLError
        }
    }

    private mutating func skipElement(_ tag: XMLStartTag) throws(InkMLError) {
        var depth = 1
        while depth > 0 {
            switch try nextEvent(inside: tag) {
            case .start: depth += 1
            case .end: depth -= 1
            case .text: break
            }
        }
    }

    /// The text content of an element (child elements skipped).
    private mutating func readText(_ tag: XMLStartTag) throws(InkMLError) -> [UInt8] {
        var text: [UInt8] = []
        var depth = 1
        while depth > 0 {
            switch try nextEvent(inside: tag) {
            case .start: depth += 1
            case .end: depth -= 1
            case let .text(bytes, _): if depth == 1 { text.append(contentsOf: bytes) }
            }
        }
        return text
    }

    private func lookUp<Value>(_ reference: String, in table: [String: Value], what: String, line: Int) throws(InkMLError) -> Value {
        let id = reference.hasPrefix("#") ? String(reference.dropFirst()) : reference
        guard let value = table[id] else { throw fatal("\(what)Ref \"\(reference)\" names no \(what) defined before it", line: line) }
        return value
    }

    private func number(_ text: String?, _ attribute: String, of tag: XMLStartTag) throws(InkMLError) -> Double? {
        guard let text else { return nil }
        let trimmed = text.trimmingSpaces
        if trimmed == "T" { return 1 }
        if trimmed == "F" { return 0 }
        guard let value = Double(trimmed), value.isFinite else {
            throw fatal("<\(tag.name)> \(attribute)=\"\(text)\" is not a finite number", line: tag.line)
        }
        return value
    }

    // MARK: Definitions

    private mutating func readTraceFormat(_ tag: XMLStartTag) throws(InkMLError) -> InkMLTraceFormat {
        var channels: [InkMLChannel] = []
        var intermittent = false
        var depth = 1
        while depth > 0 {
            switch try nextEvent(inside: tag) {
            case let .start(child):
                depth += 1
                if child.name == "intermittentChannels" { intermittent = true }
                if child.name == "channel" { channels.append(try channel(child, intermittent: intermittent)) }
            case let .end(name, _):
                depth -= 1
                if name == "intermittentChannels" { intermittent = false }
            case .text: break
            }
        }
        var seen = Set<String>()
        for channel in channels where !seen.insert(channel.name).inserted {
            throw fatal("<traceFormat> declares channel \(channel.name) twice", line: tag.line)
        }
        return InkMLTraceFormat(channels: channels)
    }

    private mutating func channel(_ tag: XMLStartTag, intermittent: Bool) throws(InkMLError) -> InkMLChannel {
        guard let name = tag.attributes["name"], !name.isEmpty else { throw fatal("<channel> without a name", line: tag.line) }
        let typeName = tag.attributes["type"] ?? "decimal"
        guard let type = InkMLChannel.ValueType(rawValue: typeName) else {
            throw fatal("channel \(name) has type \"\(typeName)\" (integer, decimal, double or boolean expected)", line: tag.line)
        }
        if !summary.channels.contains(name) { summary.channels.append(name) }
        return InkMLChannel(
            name: name, type: type, defaultValue: try number(tag.attributes["default"], "default", of: tag) ?? 0,
            units: tag.attributes["units"], min: try number(tag.attributes["min"], "min", of: tag),
            max: try number(tag.attributes["max"], "max", of: tag), isInverted: tag.attributes["orientation"] == "-ve",
            respectTo: tag.attributes["respectTo"], isIntermittent: intermittent)
    }

    private mutating func readInkSource(_ tag: XMLStartTag) throws(InkMLError) -> Context {
        var source = Context()
        var depth = 1
        while depth > 0 {
            switch try nextEvent(inside: tag) {
            case let .start(child):
                if child.name == "traceFormat" {
                    source.format = try readTraceFormat(child)
                    if let id = child.attributes["xml:id"] { formats[id] = source.format }
                } else if child.name == "sampleRate" {
                    if let rate = try number(child.attributes["value"], "value", of: child) {
                        guard rate > 0 else { throw fatal("<sampleRate> value must be positive", line: child.line) }
                        source.sampleRate = rate
                    }
                    try skipElement(child)
                } else {
                    try skipElement(child)
                }
            case .end: depth -= 1
            case .text: break
            }
        }
        return source
    }

    private mutating func readTimestamp(_ tag: XMLStartTag) throws(InkMLError) {
        guard let id = tag.attributes["xml:id"] else { return }
        var time = try number(tag.attributes["time"], "time", of: tag)
        if time == nil, let reference = tag.attributes["timestampRef"] {
            time = try lookUp(reference, in: timestamps, what: "timestamp", line: tag.line)
        }
        guard let base = time else { return }
        let absolute = base + (try number(tag.attributes["timeOffset"], "timeOffset", of: tag) ?? 0)
        if timeOrigin == nil { timeOrigin = absolute }
        timestamps[id] = absolute
    }

    private mutating func readContext(_ tag: XMLStartTag) throws(InkMLError) -> Context {
        var context = Context()
        if let reference = tag.attributes["contextRef"] { context = try lookUp(reference, in: contexts, what: "context", line: tag.line) }
        if let reference = tag.attributes["inkSourceRef"] {
            let source = try lookUp(reference, in: inkSources, what: "inkSource", line: tag.line)
            context.format = source.format
            context.sampleRate = source.sampleRate ?? context.sampleRate
        }
        if let reference = tag.attributes["traceFormatRef"] {
            context.format = try lookUp(reference, in: formats, what: "traceFormat", line: tag.line)
        }
        if let reference = tag.attributes["timestampRef"] {
            _ = try lookUp(reference, in: timestamps, what: "timestamp", line: tag.line)
            context.timestamp = reference
        }
        var depth = 1
        while depth > 0 {
            switch try nextEvent(inside: tag) {
            case let .start(child):
                switch child.name {
                case "traceFormat":
                    context.format = try readTraceFormat(child)
                    if let id = child.attributes["xml:id"] { formats[id] = context.format }
                case "inkSource":
                    let source = try readInkSource(child)
                    context.format = source.format
                    context.sampleRate = source.sampleRate ?? context.sampleRate
                    if let id = child.attributes["xml:id"] { inkSources[id] = source }
                case "timestamp":
                    try readTimestamp(child)
                    if let id = child.attributes["xml:id"], timestamps[id] != nil { context.timestamp = "#" + id }
                    try skipElement(child)
                default:
                    try skipElement(child)
                }
            case .end: depth -= 1
            case .text: break
            }
        }
        return context
    }

    // MARK: Traces

    private mutating func readTrace(_ tag: XMLStartTag) throws(InkMLError) {
        let text = try readText(tag)
        guard definitionsDepth == 0 else { return }
        let index = traceIndex
        traceIndex += 1
        summary.traces += 1
        do throws(InkMLError) {
            try readTrace(tag, text: text, index: index)
        } catch {
            summary.faultyTraces += 1
            throw error
        }
    }

    private mutating func readTrace(_ tag: XMLStartTag, text: [UInt8], index: Int) throws(InkMLError) {
        let file = self.file
        func fault(_ message: String, point: Int? = nil) -> InkMLError {
            InkMLError(file: file, line: tag.line, trace: index, point: point, message: message, isFatal: false)
        }
        var context = groupContexts.last ?? currentContext
        if let reference = tag.attributes["contextRef"] {
            let id = reference.hasPrefix("#") ? String(reference.dropFirst()) : reference
            guard let found = contexts[id] else { throw fault("contextRef \"\(reference)\" names no context defined before it") }
            context = found
        }
        let type = tag.attributes["type"] ?? "penDown"
        guard ["penDown", "penUp", "indeterminate"].contains(type) else { throw fault("type \"\(type)\" is not penDown, penUp or indeterminate") }
        if type == "penUp" {
            summary.penUpTraces += 1
            return
        }
        let format = context.format
        guard let xIndex = format.index(of: "X"), let yIndex = format.index(of: "Y") else {
            throw fault("the trace format has no \(format.index(of: "X") == nil ? "X" : "Y") channel")
        }
        let decoder = InkMLTraceDecoder(
            regularCount: format.channels.filter { !$0.isIntermittent }.count,
            defaults: format.channels.map(\.defaultValue), booleans: format.channels.map { $0.type == .boolean })
        let values: [Double]
        do { values = try decoder.decode(text) } catch { throw fault(error.message, point: error.point) }
        let width = format.channels.count
        let count = values.count / width
        guard count > 0 else { throw fault("an empty trace") }

        let xScale = lengthScale(format.channels[xIndex]) * (format.channels[xIndex].isInverted ? -1 : 1)
        let yScale = lengthScale(format.channels[yIndex]) * (format.channels[yIndex].isInverted ? -1 : 1)
        let tIndex = format.index(of: "T")
        let fIndex = format.index(of: "F")
        let altitudeIndex = format.index(of: "OE")
        let azimuthIndex = format.index(of: "OA")
        let tool = options.tool ?? (fIndex == nil ? .finger : .pencil)

        let traceOffset = try number(tag.attributes["timeOffset"], "timeOffset", of: tag).map { $0 / 1000 }
        var timeBase = 0.0
        var timeScale = 0.001
        var synthesizedStep: Double?
        if let tIndex {
            let channel = format.channels[tIndex]
            switch channel.units {
            case "s": timeScale = 1
            case "ms": timeScale = 0.001
            case "us", "µs": timeScale = 0.000_001
            case nil: note("T without units taken as milliseconds")
            case let units?: throw fault("T has units \"\(units)\" (s, ms or us expected)")
            }
            if let reference = channel.respectTo {
                let id = reference.hasPrefix("#") ? String(reference.dropFirst()) : reference
                guard let stamp = timestamps[id] else { throw fault("T respectTo \"\(reference)\" names no timestamp defined before it") }
                timeBase = (stamp - (timeOrigin ?? stamp)) / 1000
            } else {
                if let stamp = context.timestamp.flatMap({ timestamps[$0.hasPrefix("#") ? String($0.dropFirst()) : $0] }) {
                    timeBase = (stamp - (timeOrigin ?? stamp)) / 1000
                }
                timeBase += traceOffset ?? 0
            }
        } else {
            let rate = context.sampleRate ?? options.sampleRate
            summary.synthesizedTiming = SynthesizedTiming(sampleRate: rate, strokeGap: options.strokeGap)
            let duration = try number(tag.attributes["duration"], "duration", of: tag).map { $0 / 1000 }
            synthesizedStep = (duration.map { count > 1 ? $0 / Double(count - 1) : 0 }) ?? 1 / rate
            timeBase = traceOffset ?? previousEnd.map { $0 + options.strokeGap } ?? 0
        }

        var samples: [TouchSample] = []
        samples.reserveCapacity(count)
        for point in 0..<count {
            let row = point * width
            let x = values[row + xIndex], y = values[row + yIndex]
            guard !x.isNaN, !y.isNaN else { throw fault("\(x.isNaN ? "X" : "Y") is missing (?)", point: point) }
            var time: Double
            if let tIndex {
                let t = values[row + tIndex]
                guard !t.isNaN else { throw fault("T is missing (?)", point: point) }
                time = timeBase + t * timeScale
            } else {
                time = timeBase + Double(point) * (synthesizedStep ?? 0)
            }
            if let last = samples.last, time < last.timestamp {
                throw fault("time goes backwards (\(last.timestamp) s to \(time) s)", point: point)
            }
            var force: Double?
            if let fIndex, !values[row + fIndex].isNaN {
                force = try normalisedForce(values[row + fIndex], channel: format.channels[fIndex], fault: { fault($0, point: point) })
            }
            let altitude = altitudeIndex.flatMap { angle(values[row + $0], format.channels[$0]) }
            let azimuth = azimuthIndex.flatMap { angle(values[row + $0], format.channels[$0]) }
            let sample = TouchSample(x: x * xScale, y: y * yScale, timestamp: time, force: force,
                                     altitude: altitude, azimuth: azimuth, tool: tool)
            guard sample.isValid else { throw fault("a value out of range after unit conversion (not finite)", point: point) }
            samples.append(sample)
        }
        previousEnd = samples[samples.count - 1].timestamp
        let stroke = InkMLStroke(trace: index, line: tag.line, id: tag.attributes["xml:id"], samples: samples)
        try join(stroke, continuation: tag.attributes["continuation"], prior: tag.attributes["priorRef"], fault: { fault($0) })
    }

    /// Joins continued traces into one stroke (`continuation` begin, middle, end). A joined
    /// stroke holds at most ``maxStrokePoints`` points, like one trace: when a continuation
    /// would take it past that, the stroke so far is delivered and the continuation starts
    /// the next one (counted, and named in the summary's notes), so memory stays bounded
    /// however many traces a chain joins. No point is left out.
    private mutating func join(
        _ stroke: InkMLStroke, continuation: String?, prior: String?, fault: (String) -> InkMLError
    ) throws(InkMLError) {
        switch continuation {
        case nil:
            if let open = held { ready.append(open); held = nil }
            ready.append(stroke)
        case "begin":
            if let open = held { ready.append(open) }
            held = stroke
            peakHeldPoints = max(peakHeldPoints, stroke.samples.count)
        case "middle", "end":
            guard let open = held, let prior, open.id.map({ "#" + $0 }) == prior || open.id == prior || lastJoinedID == prior else {
                if let open = held { ready.append(open); held = nil }
                throw fault("continuation \(continuation!) with priorRef \"\(prior ?? "")\" does not follow the trace it continues")
            }
            var joined = open
            if let last = joined.samples.last, let first = stroke.samples.first, first.timestamp < last.timestamp {
                throw fault("the continued trace begins before its prior trace ends")
            }
            if joined.samples.count + stroke.samples.count > maxStrokePoints {
                ready.append(joined)
                joined = stroke
                summary.splitContinuations += 1
                note("continued traces of more than \(maxStrokePoints) points in all were split into strokes of at most that many")
            } else {
                joined.samples += stroke.samples
            }
            peakHeldPoints = max(peakHeldPoints, joined.samples.count)
            lastJoinedID = stroke.id.map { "#" + $0 }
            if continuation == "end" { ready.append(joined); held = nil; lastJoinedID = nil } else { held = joined }
        case let other?:
            throw fault("continuation \"\(other)\" is not begin, middle or end")
        }
    }

    private var lastJoinedID: String?

    private mutating func note(_ text: String) {
        if !summary.notes.contains(text) { summary.notes.append(text) }
    }

    private mutating func lengthScale(_ channel: InkMLChannel) -> Double {
        switch channel.units {
        case "m": return 96 / 0.0254
        case "cm": return 96 / 2.54
        case "mm": return 96 / 25.4
        case "in": return 96
        case "pt": return 96.0 / 72
        case "pc": return 16
        case "himetric": return 96 / 2540
        case "px": return 1
        case nil:
            note("\(channel.name) without units taken as canvas points")
            return 1
        case let units?:
            note("\(channel.name) in \"\(units)\" taken as canvas points")
            return 1
        }
    }

    private func normalisedForce(_ value: Double, channel: InkMLChannel, fault: (String) -> InkMLError) throws(InkMLError) -> Double {
        if channel.units == "%" { return min(max(value / 100, 0), 1) }
        if let max = channel.max {
            let min = channel.min ?? 0
            guard max > min else { throw fault("F declares max \(max) not above min \(min)") }
            return Swift.min(Swift.max((value - min) / (max - min), 0), 1)
        }
        guard value >= 0, value <= 1 else {
            throw fault("F is \(value) but the channel declares no max, so it cannot be normalised (declare max, or units \"%\")")
        }
        return value
    }

    private func angle(_ value: Double, _ channel: InkMLChannel) -> Double? {
        guard !value.isNaN else { return nil }
        return channel.units == "deg" ? value * .pi / 180 : value
    }
}

extension String {
    var trimmingSpaces: Substring {
        let bytes = self.utf8
        guard let first = bytes.firstIndex(where: { !xmlIsSpace($0) }) else { return "" }
        let last = bytes.lastIndex(where: { !xmlIsSpace($0) })!
        return self[first...last]
    }
}
