import Foundation
@_spi(Tooling) import InkCore
@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkRecording

/// `ink-replay stats`: what a corpus of sessions holds, without replaying it.
enum StatsCommand: Command {
    static let name = "stats"
    static let synopsis = "<file or directory>..."
    static let overview = """
        OVERVIEW: Describe session logs: sessions, touches and samples, the spread of sample
        intervals within touches (repeated timestamps counted apart), the pauses between
        touches and the sessions' spans; one line per directory and a total. Logs are read as
        streams, in memory that does not grow with them: the spreads are exact up to 32,768
        distinct values, then rounded (the JSON says "rounded_to_bits").
        """
    static let details = """
        ARGUMENTS:
          <file or directory>     Session logs (*.jsonl); directories are searched recursively
                                  for regular files (a FIFO, a device or a link to a directory
                                  is skipped and named on standard error). A file named here
                                  may be a pipe, read once: <(…) works.
        """
    static let options = OptionTable([ReplayOptions.json("One JSON object per group instead of the table.")],
                                     JobProgress.options(json: true), rules: [JobProgress.rule])

    /// The statistics of a group of sessions, gathered event by event: memory does not grow
    /// with the logs (the touches down are held, at most ``TouchTracker/limit``, and the
    /// distinct values of the spreads, see ``ValueCounts``).
    struct Group {
        var sessions = 0
        var touches = 0
        var samples = 0
        var intervals = ValueCounts()
        var pauses = ValueCounts()
        var longestSpan: Double?

        /// Adds one session's figures (``TouchTracker``'s, once its log has ended).
        mutating func add(_ session: TouchTracker) {
            sessions += 1
            touches += session.touches
            samples += session.samples
            intervals.merge(session.intervals)
            pauses.merge(session.pauses)
            if let span = session.span { longestSpan = max(longestSpan ?? span, span) }
        }
        /// A duration in milliseconds for the JSON report: rounded to the microsecond while that
        /// means something, always finite (a log's absurd times saturate at the largest
        /// finite number rather than becoming `null`).
        static func milliseconds(_ seconds: Double) -> Double {
            let ms = seconds * 1000
            guard ms.isFinite else { return ms.isNaN ? 0 : (ms < 0 ? -Double.greatestFiniteMagnitude : .greatestFiniteMagnitude) }
            return abs(ms) < 1e12 ? (ms * 1000).rounded() / 1000 : ms
        }

        /// A figure for the table: fixed-point while short, else in exponent form (never a
        /// 300-digit number or `inf`).
        static func text(_ value: Double, decimals: Int) -> String {
            guard value.isFinite else { return value.isNaN ? "-" : (value < 0 ? "-huge" : "huge") }
            return abs(value) < 1e7 ? String(format: "%.\(decimals)f", value) : String(format: "%.3g", value)
        }

        func json(name: String) -> JSONValue {
            let positive = intervals.positive
            let sortedPauses = pauses.all
            var object = JSONObject()
            object.append("group", .string(name))
            object.append("sessions", .number(Double(sessions)))
            object.append("touches", .number(Double(touches)))
            object.append("samples", .number(Double(samples)))
            object.append("zero_intervals", .number(Double(intervals.count - positive.count)))
            var spread = JSONObject()
            for (label, q) in [("min", 0.0), ("p5", 0.05), ("p25", 0.25), ("p50", 0.5), ("p75", 0.75), ("p95", 0.95), ("max", 1.0)] where !positive.isEmpty {
                spread.append(label, .number(Self.milliseconds(positive.quantile(q))))
            }
            object.append("interval_ms", .object(spread))
            if !sortedPauses.isEmpty {
                object.append("pause_ms", .object(JSONObject([
                    ("p50", .number(Self.milliseconds(sortedPauses.quantile(0.5)))),
                    ("max", .number(Self.milliseconds(sortedPauses.quantile(1)))),
                ])))
            }
            if intervals.isRounded || pauses.isRounded {
                // Beyond ValueCounts.limit distinct values the spreads are of rounded values.
                object.append("rounded_to_bits", .number(Double(min(intervals.keptBits, pauses.keptBits))))
            }
            let span = longestSpan ?? 0
            object.append("longest_session_s", .number(abs(span) < 1e9 ? (span * 1000).rounded() / 1000 : span))
            return .object(object)
        }

        func line(name: String) -> String {
            let positive = intervals.positive
            let zero = intervals.count - positive.count
            func ms(_ value: Double) -> String { Self.text(value * 1000, decimals: 1) }
            let spread = positive.isEmpty ? "-" : [0.05, 0.5, 0.95].map { ms(positive.quantile($0)) }.joined(separator: " / ")
            let all = pauses.all
            let pause = all.isEmpty ? "-" : ms(all.quantile(0.5)) + " / " + Self.text(all.quantile(1), decimals: 0) + " s"
            return name.padded(28, left: true)
                + String(format: "%8d %8d %9d  ", sessions, touches, samples)
                + spread.padded(20, left: true)
                + String(format: "%6.1f%%  ", intervals.count == 0 ? 0 : 100 * Double(zero) / Double(intervals.count))
                + pause
        }
    }

    static func run(_ arguments: inout ArgumentList) throws -> Int32 {
        let files = try SessionFiles.expand(arguments.positional)
        let base = arguments.positional.count == 1 ? arguments.positional[0] : ""
        var groups: [(name: String, group: Group)] = []
        var total = Group()
        var failures = 0
        let progress = try JobProgress.standardError(arguments, title: "stats", unit: "sessions", total: Double(files.count),
                                                  byteTotal: JobProgress.totalSize(files))
        for file in files {
            progress?.set(detail: PathText.lastComponent(file))
            var events = SessionLogEvents(contentsOf: file, onRead: progress.map { progress in { progress.advance(bytes: $0) } })
            var session = TouchTracker()
            while let (event, _) = events.next() { session.add(event) }
            session.finish()
            progress?.advance()
            if let failure = events.failure {
                printError("Error: \(failure)")
                failures += 1
            }
            guard events.header != nil else { continue }
            var directory = PathText.parent(file)
            if !base.isEmpty, directory.hasPrefix(base) { directory = String(directory.dropFirst(base.count).drop { $0 == "/" }) }
            let name = directory.isEmpty ? "." : directory
            if let index = groups.firstIndex(where: { $0.name == name }) { groups[index].group.add(session) } else {
                var group = Group()
                group.add(session)
                groups.append((name, group))
            }
            total.add(session)
        }
        progress?.finish()
        if arguments.flag("--json") {
            print(JSONValue.array(groups.map { $0.group.json(name: PathText.shown($0.name)) } + [total.json(name: "total")]).serialized())
        } else {
            print("group".padded(28, left: true) + "sessions  touches   samples  interval ms p5/50/95  dt=0    pause p50 / max")
            for (name, group) in groups { print(group.line(name: PathText.shown(name))) }
            print(total.line(name: "total"))
        }
        return failures == 0 ? 0 : 1
    }
}
