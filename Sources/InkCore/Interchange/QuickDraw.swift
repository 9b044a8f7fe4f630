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
    /// The 1-based line (newline-delimited files) or 0 for a JSON array file.
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
    /// The drawings of a file, and the faults of drawings that could not be read. A fault
    /// in one drawing does not hide the others (a whole-file syntax error in the array form
    /// does: it is reported as drawing 0).
    public static func read<Bytes: Collection>(_ bytes: Bytes, file: String? = nil) -> (drawings: [QuickDrawDrawing], faults: [QuickDrawError])
    where Bytes.Element == UInt8, Bytes.Index == Int {
        let firstNonSpace = bytes.first { !(($0 == 0x20) || ($0 == 0x09) || ($0 == 0x0A) || ($0 == 0x0D)) }
        var drawings: [QuickDrawDrawing] = []
        var faults: [QuickDrawError] = []
        if firstNonSpace == UInt8(ascii: "[") {
            do {
                guard case let .array(items) = try JSONParser.parse(bytes, maxDepth: 8) else { return ([], []) }
                for (index, item) in items.enumerated() {
                    do { drawings.append(try drawing(from: item)) } catch {
                        faults.append(QuickDrawError(file: file, line: 0, drawing: index, message: error.description))
                    }
                }
            } catch {
                faults.append(QuickDrawError(file: file, line: 0, drawing: 0, message: "malformed JSON at byte \(error.column): \(error.message)"))
            }
            return (drawings, faults)
        }
        var lineNumber = 0
        var start = bytes.startIndex
        while start < bytes.endIndex {
            lineNumber += 1
            let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.endIndex
            let line = bytes[start..<end]
            start = end + 1
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
            let index = drawings.count + faults.count
            do {
                drawings.append(try drawing(from: try JSONParser.parse(line, maxDepth: 8)))
            } catch let error as JSONSyntaxError {
                faults.append(QuickDrawError(file: file, line: lineNumber, drawing: index, message: "malformed JSON at column \(error.column): \(error.message)"))
            } catch let error as JSONShapeError {
                faults.append(QuickDrawError(file: file, line: lineNumber, drawing: index, message: error.description))
            } catch {
                faults.append(QuickDrawError(file: file, line: lineNumber, drawing: index, message: "\(error)"))
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
    /// recorded pace (one sample per event, the last sample in the `ended` event).
    ///
    /// The game had no page under the canvas, so the log records an empty region snapshot
    /// at time 0 and, for every touch, the answer such a page gives (`ink`) arriving
    /// `answerLatency` seconds after touch-down. The header says so.
    ///
    /// - Parameters:
    ///   - drawing: The drawing.
    ///   - answerLatency: Seconds between a touch-down and its recorded answer.
    public init(quickDraw drawing: QuickDrawDrawing, answerLatency: Double) {
        let maxX = drawing.strokes.flatMap(\.x).max() ?? 0
        let maxY = drawing.strokes.flatMap(\.y).max() ?? 0
        let header = SessionHeader(
            canvas: CanvasSize(width: max(1, maxX.rounded(.up) + 1), height: max(1, maxY.rounded(.up) + 1)),
            device: "unknown (browser or phone), about 60 Hz, no pressure; answers synthesized from an empty page at \(JSONValue.format(answerLatency * 1000)) ms",
            source: "Quick, Draw! dataset, Google Inc., CC BY 4.0; word \"\(drawing.word)\", key_id \(drawing.keyID), country \(drawing.countryCode)")
        var builder = SessionBuilder(header: header)
        builder.regions(RegionSnapshot(generation: 1, regions: []), at: 0)
        for (index, stroke) in drawing.strokes.enumerated() {
            let samples = stroke.x.indices.map { i in
                TouchSample(x: stroke.x[i], y: stroke.y[i], timestamp: stroke.t[i] / 1000, tool: .finger)
            }
            builder.stroke(TouchID(UInt64(index + 1)), samples, answerAfter: answerLatency)
        }
        self = builder.log
    }
}
