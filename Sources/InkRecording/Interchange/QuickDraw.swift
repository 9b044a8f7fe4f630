@_spi(Tooling) import InkCore
@_spi(Tooling) import HitTestBridge
/// One drawing of Google's *Quick, Draw!* dataset in its raw form (x, y, t per point).
public struct QuickDrawDrawing: Sendable, Hashable {
    /// One stroke: parallel arrays of points.
    public struct Stroke: Sendable, Hashable {
        /// Horizontal positions in the player's canvas pixels (x right).
        public var x: [Double]
        /// Vertical positions in the player's canvas pixels (y down).
        public var y: [Double]
        /// Milliseconds since the drawing's first point, monotonic across strokes.
        public var t: [Double]
    }

    /// The word the player was asked to draw.
    public var word: String
    /// The player's two-letter country code; empty when absent.
    public var countryCode: String
    /// The drawing's identifier in the dataset; empty when absent.
    public var keyID: String
    /// The strokes in drawing order.
    public var strokes: [Stroke]
}

/// Why Quick, Draw! data could not be read.
public struct QuickDrawError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file, when known.
    public var file: String?
    /// The 1-based line where the drawing starts (0 when the file could not be read).
    public var line: Int
    /// The 0-based index of the drawing in the file.
    public var drawing: Int
    /// What was wrong, naming the field.
    public var message: String

    /// `file:line: drawing N: message`.
    public var description: String {
        (file ?? "<quickdraw>") + (line > 0 ? ":\(line)" : "") + ": drawing \(drawing): \(message)"
    }
}

/// Reads Quick, Draw! raw drawings: a JSON array of drawing objects, or newline-delimited
/// JSON with one drawing object per line (the upstream bulk format).
public enum QuickDrawReader {
    /// The drawings of a file in memory, and the faults of drawings that could not be read.
    /// A fault in one drawing does not hide the others; a break in the array's own syntax
    /// ends the reading there. For large files, read with ``QuickDrawStream``.
    public static func read<Bytes: Collection>(_ bytes: Bytes, file: String? = nil) -> (drawings: [QuickDrawDrawing], faults: [QuickDrawError])
    where Bytes.Element == UInt8, Bytes.Index == Int {
        var stream = QuickDrawStream(source: MemoryByteSource(Array(bytes)), file: file)
        var drawings: [QuickDrawDrawing] = []
        var faults: [QuickDrawError] = []
        while true {
            do {
                guard let drawing = try stream.next() else { break }
                drawings.append(drawing)
            } catch {
                faults.append(error)
            }
        }
        return (drawings, faults)
    }

    static func drawing(from value: JSONValue) throws(JSONShapeError) -> QuickDrawDrawing {
        let fields = try JSONFieldReader(value)
        var strokes: [QuickDrawDrawing.Stroke] = []
        var lastTime = -Double.infinity
        for (s, strokeValue) in try fields.array("drawing").enumerated() {
            let path = "drawing[\(s)]"
            guard case let .array(channels) = strokeValue else {
                throw JSONShapeError(field: path, message: "expected an array [[x…], [y…], [t…]], found \(strokeValue.typeName)")
            }
            guard channels.count >= 3 else {
                throw JSONShapeError(field: path, message: "expected 3 channels (x, y, t), found \(channels.count)")
            }
            var columns: [[Double]] = []
            for (c, name) in ["x", "y", "t"].enumerated() {
                guard case let .array(items) = channels[c] else {
                    throw JSONShapeError(field: "\(path)[\(c)]", message: "expected an array of \(name) values, found \(channels[c].typeName)")
                }
                var column: [Double] = []
                column.reserveCapacity(items.count)
                for (i, item) in items.enumerated() {
                    guard case let .number(number) = item else {
                        throw JSONShapeError(field: "\(path)[\(c)][\(i)]", message: "expected a number, found \(item.typeName)")
                    }
                    column.append(number)
                }
                columns.append(column)
            }
            guard !columns[0].isEmpty else { throw JSONShapeError(field: path, message: "empty stroke") }
            guard columns[0].count == columns[1].count, columns[1].count == columns[2].count else {
                throw JSONShapeError(field: path, message: "channel lengths differ (x \(columns[0].count), y \(columns[1].count), t \(columns[2].count))")
            }
            for (i, t) in columns[2].enumerated() {
                // The format's times are milliseconds since the drawing began.
                guard t >= 0 else {
                    throw JSONShapeError(field: "\(path)[2][\(i)]", message: "a negative time, \(JSONValue.format(t)) ms (times count from the start of the drawing)")
                }
                guard t >= lastTime else {
                    throw JSONShapeError(field: "\(path)[2][\(i)]", message: "time went backwards from \(JSONValue.format(lastTime)) to \(JSONValue.format(t)) ms")
                }
                lastTime = t
            }
            strokes.append(.init(x: columns[0], y: columns[1], t: columns[2]))
        }
        guard !strokes.isEmpty else { throw JSONShapeError(field: "drawing", message: "no strokes") }
        return QuickDrawDrawing(
            word: try fields.optionalString("word") ?? "", countryCode: try fields.optionalString("countrycode") ?? "",
            keyID: try fields.optionalString("key_id") ?? "", strokes: strokes)
    }
}

extension SessionLog {
    /// A session log of a Quick, Draw! drawing: each stroke becomes one finger touch at its
    /// recorded pace, over `layout` (by default an empty page: the game had nothing
    /// interactive under its canvas). The page pushes its regions like the page script's
    /// heartbeat and answers every touch `answerLatency` seconds after touch-down (see
    /// ``RecordedInkEncoder``). The header says so.
    ///
    /// - Parameters:
    ///   - drawing: The drawing.
    ///   - answerLatency: Seconds between a touch-down and its recorded answer.
    ///   - layout: The page under the ink; `nil` for an empty page the size of the drawing.
    /// - Throws: ``RecordedInkError`` for a drawing the reader would have refused (built
    ///   in code): an empty stroke, or strokes out of time order.
    public init(quickDraw drawing: QuickDrawDrawing, answerLatency: Double, layout: PageLayout? = nil) throws(RecordedInkError) {
        let strokes = drawing.strokes.map { stroke in
            stroke.x.indices.map { i in TouchSample(x: stroke.x[i], y: stroke.y[i], timestamp: stroke.t[i] / 1000, tool: .finger) }
        }
        var bounds = InkBounds()
        for sample in strokes.joined() { bounds.include(sample) }
        let page = layout ?? .emptyPage(canvas: CanvasSize(
            width: max(1, bounds.maxX.rounded(.up) + 1), height: max(1, bounds.maxY.rounded(.up) + 1)))
        let placement = page.inkArea.map { InkPlacement.fitting(bounds, into: $0) } ?? .identity
        let header = SessionHeader(
            canvas: page.canvas, pageTransform: layout?.pageTransform, exercise: layout?.name,
            device: "unknown (browser or phone), about 60 Hz, no pressure; answers synthesized from \(layout == nil ? "an empty page" : "layout \"\(page.name)\"") at \(JSONValue.format(answerLatency * 1000)) ms",
            source: "Quick, Draw! dataset, Google Inc., CC BY 4.0; word \"\(drawing.word)\", key_id \(drawing.keyID), country \(drawing.countryCode)")
        var encoder = RecordedInkEncoder(layout: page, answerLatency: answerLatency, placement: placement)
        var events: [SessionEvent] = []
        for stroke in strokes { events += try encoder.add(stroke) }
        events += encoder.finish()
        self.init(header: header, events: events)
    }
}

/// Reads Quick, Draw! drawings one at a time from a ``ByteSource``, holding one drawing and
/// a small window of the input, so a bulk file of any size converts in bounded memory.
///
/// The form is chosen by the first character: `[` for a JSON array of drawings, anything
/// else for newline-delimited JSON (one drawing per line, blank lines skipped).
public struct QuickDrawStream<Source: ByteSource> {
    private var source: Source
    private var buffer: [UInt8] = []
    private var position = 0
    private var atEnd = false
    private var line = 1
    private var form: Form?
    private var finished = false
    private var index = 0
    /// The file name used in errors.
    public let file: String?
    /// The longest drawing (array element or line) accepted, in bytes: 1 MiB, more than 10
    /// times the largest drawing of the shared sample files, and the bound on what parsing
    /// one drawing holds (about 85 bytes of JSON tree per byte).
    public static var maxDrawingBytes: Int { 1 << 20 }

    private enum Form { case array, lines }

    /// A reader over `source`.
    public init(source: Source, file: String? = nil) {
        self.source = source
        self.file = file
    }

    /// The next drawing, or `nil` at the end.
    ///
    /// - Throws: ``QuickDrawError``. A fault in one drawing leaves the reader at the next
    ///   one; a break in the array's syntax (or a read failure) ends the reading.
    public mutating func next() throws(QuickDrawError) -> QuickDrawDrawing? {
        while !finished {
            if form == nil {
                skipSpace()
                guard let first = peek() else { finished = true; return nil }
                if first == UInt8(ascii: "[") { form = .array; take() } else { form = .lines }
            }
            let (bytes, startLine): ([UInt8], Int)
            switch form! {
            case .array:
                guard let element = try nextElement() else { finished = true; return nil }
                (bytes, startLine) = element
            case .lines:
                guard let next = try nextLine() else { finished = true; return nil }
                if next.bytes.allSatisfy(xmlIsSpace) { continue }
                (bytes, startLine) = next
            }
            let number = index
            index += 1
            do {
                return try QuickDrawReader.drawing(from: try JSONParser.parse(bytes, maxDepth: 8))
            } catch let error as JSONSyntaxError {
                throw QuickDrawError(file: file, line: startLine, drawing: number,
                                     message: "malformed JSON at column \(error.column): \(error.message)")
            } catch let error as JSONShapeError {
                throw QuickDrawError(file: file, line: startLine, drawing: number, message: error.description)
            } catch {
                throw QuickDrawError(file: file, line: startLine, drawing: number, message: "\(error)")
            }
        }
        return nil
    }

    // MARK: Input window

    private mutating func fill() -> Bool {
        if position < buffer.count { return true }
        if atEnd { return false }
        buffer.removeAllBounded()
        position = 0
        do { buffer = try source.read(upTo: 1 << 16) } catch {
            atEnd = true
            readFailure = error
            return false
        }
        if buffer.isEmpty { atEnd = true; return false }
        return true
    }

    private var readFailure: ByteSourceError?

    private mutating func peek() -> UInt8? { fill() ? buffer[position] : nil }

    @discardableResult
    private mutating func take() -> UInt8? {
        guard fill() else { return nil }
        let byte = buffer[position]
        position += 1
        if byte == 0x0A { line += 1 }
        return byte
    }

    private mutating func skipSpace() {
        while let byte = peek(), xmlIsSpace(byte) { take() }
    }

    private mutating func failIfUnreadable() throws(QuickDrawError) {
        if let failure = readFailure {
            finished = true
            throw QuickDrawError(file: file, line: line, drawing: index, message: failure.message)
        }
    }

    private mutating func nextLine() throws(QuickDrawError) -> (bytes: [UInt8], line: Int)? {
        let startLine = line
        var bytes: [UInt8] = []
        while let byte = take() {
            if byte == 0x0A { return (bytes, startLine) }
            bytes.append(byte)
            if bytes.count > Self.maxDrawingBytes {
                while let rest = take(), rest != 0x0A {}
                index += 1
                throw QuickDrawError(file: file, line: startLine, drawing: index - 1,
                                     message: "a line longer than \(Self.maxDrawingBytes) bytes")
            }
        }
        try failIfUnreadable()
        return bytes.isEmpty ? nil : (bytes, startLine)
    }

    /// The bytes of the next array element: strings and nesting are tracked, so commas and
    /// brackets inside a drawing do not end it.
    private mutating func nextElement() throws(QuickDrawError) -> (bytes: [UInt8], line: Int)? {
        skipSpace()
        if index > 0 {
            guard let separator = take() else {
                try failIfUnreadable()
                throw arrayFault("the array is not closed")
            }
            if separator == UInt8(ascii: "]") { return try endOfArray() }
            guard separator == UInt8(ascii: ",") else {
                throw arrayFault("expected ',' or ']' after drawing \(index - 1), found \(InputText.byte(separator))")
            }
            skipSpace()
        } else if peek() == UInt8(ascii: "]") {
            take()
            return try endOfArray()
        }
        let startLine = line
        var bytes: [UInt8] = []
        guard let first = peek() else {
            try failIfUnreadable()
            throw arrayFault("the array is not closed")
        }
        if first != UInt8(ascii: "{") && first != UInt8(ascii: "[") && first != UInt8(ascii: "\"") {
            // A scalar where a drawing should be: hand it to the parser, which names it.
            while let byte = peek(), !xmlIsSpace(byte), byte != UInt8(ascii: ","), byte != UInt8(ascii: "]") {
                bytes.append(byte)
                take()
                if bytes.count > 64 { break }
            }
            return (bytes, startLine)
        }
        var depth = 0
        var inString = false
        var escaped = false
        while let byte = take() {
            bytes.append(byte)
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
            } else if byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{") {
                depth += 1
            } else if byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}") {
                depth -= 1
            }
            if depth == 0 && !inString { return (bytes, startLine) }
            if bytes.count > Self.maxDrawingBytes { throw arrayFault("a drawing longer than \(Self.maxDrawingBytes) bytes") }
        }
        try failIfUnreadable()
        throw arrayFault("the input ends inside drawing \(index) (which began at line \(startLine))")
    }

    private mutating func endOfArray() throws(QuickDrawError) -> (bytes: [UInt8], line: Int)? {
        skipSpace()
        if peek() != nil { throw arrayFault("text after the end of the array") }
        try failIfUnreadable()
        return nil
    }

    private mutating func arrayFault(_ message: String) -> QuickDrawError {
        finished = true
        return QuickDrawError(file: file, line: line, drawing: index, message: "malformed JSON array: \(message)")
    }
}
