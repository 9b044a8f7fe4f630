import Foundation
@_spi(Tooling) import InkCore
@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkRecording

/// `ink-replay smooth`: the stroke pipeline's smoothed centreline, for the shared
/// ink-quality harness.
enum SmoothCommand: Command {
    static let name = "smooth"
    static let synopsis = "<strokes.jsonl>"
    static let overview = """
        OVERVIEW: Run strokes through the geometry pipeline and write the smoothed centreline
        in the ink-quality harness's format (scripts/ink-quality.sh uses it).

        Input: one stroke per line, a JSON array of [x, y, t_ms] or [x, y, t_ms, pressure]
        points. Output: one line per stroke, a JSON array of [x, y, t_ms] points: every
        centreline node, and (unless --no-midpoints) the middle of every Catmull-Rom
        segment between them, each with the time it stands for.

        With --tip, the output is instead what a user sees live: after each sample, the
        tip of the tentative stroke <ms> milliseconds ahead (the built-in predictor), or
        the live filter's newest point with --tip 0, stamped with the time it stands for.
        """
    static let details = """
        ARGUMENTS:
          <strokes.jsonl>         Input strokes.
        """
    static let options = OptionTable([
        ReplayOptions.output("points.jsonl", help: "Where to write the points."),
        Option("--no-midpoints", help: "Write the nodes only."),
        Option("--tip", kind: .number("ms", 0...100), help: "Write the live (and predicted) tip after each sample, this many ms ahead."),
        Option("--settle", kind: .text("n"), help: "Settle radius of the lag-free fit, a whole number of samples; 0 keeps the live filter's output", default: "4"),
        Option("--filter", kind: .text("c,b,g,v,i,p"),
               help: "Pen filter parameters: min cutoff (Hz), beta (Hz per pt/s), innovation gain (Hz per pt), speed cutoff (Hz), innovation cutoff (Hz), prediction damping (0-1)."),
    ], rules: [OptionRule(when: .given("--tip"), refuses: ["--no-midpoints"],
                          reason: "does not apply with '--tip' (it writes the tip after each sample, not the centreline's nodes and midpoints)")])

    static func run(_ arguments: inout ArgumentList) throws -> Int32 {
        guard arguments.positional.count == 1, let input = arguments.positional.first else {
            throw UsageError(message: "expected one <strokes.jsonl>")
        }
        let output = arguments.string("--output") ?? ""   // required by the table
        do { try OutputFile.check(output, inputs: CommandInputs.of(arguments)) } catch { throw CommandFailure(message: error.description) }
        var style = StrokeStyle()
        if let text = arguments.string("--filter") {
            let values = text.split(separator: ",").compactMap { Double($0) }
            guard values.count == 6 else {
                throw UsageError(message: "'--filter' takes six numbers c,b,g,v,i,p, not '\(text)'")
            }
            style.filter = PenFilter.Parameters(minCutoff: values[0], beta: values[1], innovationGain: values[2],
                                                speedCutoff: values[3], innovationCutoff: values[4],
                                                predictionDamping: values[5])
        }
        if let text = arguments.string("--settle") {
            guard let radius = Int(text), radius >= 0 else {
                throw UsageError(message: "'--settle' takes a whole number of samples, not '\(text)'")
            }
            style.settleRadius = radius
        }
        var tipHorizon: Double?
        if let ms = arguments.number("--tip") {
            tipHorizon = ms / 1000
            style.predictionHorizon = ms / 1000
        }
        let midpoints = !arguments.flag("--no-midpoints")
        let data = try SessionFiles.contents(of: input, limit: ReplayOptions.wholeSessionByteLimit,
                                             what: "'smooth' holds a whole stroke file in memory and takes at most that")
        var out = ""
        var lineNumber = 0
        // One builder for every line, reset for each (what a new builder would draw, bit for bit).
        var stroke = StrokeBuilder(style: style)
        for line in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x0D }) { continue }
            let samples: [TouchSample]
            do {
                samples = try strokeSamples(JSONParser.parse(line))
            } catch {
                throw CommandFailure(message: "\(input):\(lineNumber): \(error)")
            }
            stroke.reset()
            var points: [JSONValue] = []
            var finite = true
            func point(_ p: CanvasPoint, _ seconds: Double) {
                let values = [round4(p.x), round4(p.y), round4(seconds * 1000)]
                finite = finite && values.allSatisfy(\.isFinite)
                points.append(.array(values.map { .number($0) }))
            }
            for (index, sample) in samples.enumerated() {
                do { try StrokeGeometryCheck.append(sample, point: index, to: &stroke) } catch {
                    throw CommandFailure(message: "\(input):\(lineNumber): \(error)")
                }
                if let tipHorizon, let tip = stroke.volatileSegments.last {
                    // Scored against the pen at the time the tip is shown for, also when
                    // the predictor has no velocity yet and the tip is the newest node.
                    point(tip.curve.p3, sample.timestamp + tipHorizon)
                }
            }
            do { try StrokeGeometryCheck.finish(&stroke, last: samples.last, point: samples.count - 1) } catch {
                throw CommandFailure(message: "\(input):\(lineNumber): \(error)")
            }
            if tipHorizon != nil {
                try refuseNonFinite(finite, samples, input, lineNumber)
                JSONValue.array(points).write(to: &out)
                out += "\n"
                continue
            }
            let segments = stroke.stableSegments
            for (i, segment) in segments.enumerated() {
                point(segment.curve.p0, segment.startTime)
                if midpoints, !segment.isDot {
                    point(segment.curve.point(at: 0.5), (segment.startTime + segment.endTime) / 2)
                }
                if i == segments.count - 1, !segment.isDot { point(segment.curve.p3, segment.endTime) }
            }
            try refuseNonFinite(finite, samples, input, lineNumber)
            JSONValue.array(points).write(to: &out)
            out += "\n"
        }
        do { try OutputFile.write(out, to: output, inputs: CommandInputs.of(arguments)) } catch { throw CommandFailure(message: error.description) }
        return 0
    }

    /// Rounded to 4 decimals; values too large to have decimals left as they are (so the
    /// rounding itself never overflows).
    static func round4(_ value: Double) -> Double {
        guard abs(value) < 1e11 else { return value }
        return (value * 10_000).rounded() / 10_000
    }

    /// A smoothed stroke with a value that is not finite (the geometry's arithmetic
    /// overflowed on enormous input) is refused, naming the input point with the largest
    /// magnitude, rather than written as `null`.
    static func refuseNonFinite(_ finite: Bool, _ samples: [TouchSample], _ input: String, _ line: Int) throws {
        guard !finite else { return }
        let worst = samples.indices.max { a, b in
            max(abs(samples[a].x), abs(samples[a].y), abs(samples[a].timestamp)) < max(abs(samples[b].x), abs(samples[b].y), abs(samples[b].timestamp))
        } ?? 0
        let sample = samples.isEmpty ? nil : samples[worst]
        throw CommandFailure(message: "\(input):\(line): point \(worst)"
            + (sample.map { " (x \($0.x), y \($0.y), t \($0.timestamp * 1000) ms)" } ?? "")
            + ": the smoothed stroke has a value too large to write (the geometry's arithmetic overflows); refused")
    }

    static func strokeSamples(_ value: JSONValue) throws -> [TouchSample] {
        guard case let .array(points) = value else { throw CommandFailure(message: "expected an array of points") }
        return try points.enumerated().map { index, point in
            guard case let .array(fields) = point, fields.count >= 3,
                  case let .number(x) = fields[0], case let .number(y) = fields[1], case let .number(t) = fields[2] else {
                throw CommandFailure(message: "point \(index): expected [x, y, t_ms(, pressure)]")
            }
            var force: Double?
            if fields.count > 3, case let .number(p) = fields[3] { force = min(max(p, 0), 1) }
            return TouchSample(x: x, y: y, timestamp: t / 1000, force: force, tool: .pencil)
        }
    }
}
