import Foundation
import InkCore
import HitTestBridge
import InkRecording

/// `ink-replay stats`: what a corpus of sessions holds, without replaying it.
enum StatsCommand: Command {
    static let name = "stats"
    static let synopsis = "<file or directory>..."
    static let overview = """
        OVERVIEW: Describe session logs: sessions, touches and samples, the spread of sample
        intervals within touches (repeated timestamps counted apart), the pauses between
        touches and the sessions' spans; one line per directory and a total.
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

    struct Group {
        var sessions = 0
        var touches = 0
        var samples = 0
        var intervals: [Double] = []
        var pauses: [Double] = []
        var spans: [Double] = []

        mutating func add(_ log: SessionLog) {
            sessions += 1
            let touches = log.samplesByTouch
            self.touches += touches.count
            var firstTime = Double.infinity, lastTime = -Double.infinity
            var previousEnd: Double?
            for (_, samples) in touches {
                self.samples += samples.count
                for (a, b) in zip(samples, samples.dropFirst()) { intervals.append(b.timestamp - a.timestamp) }
                guard let first = samples.first, let last = samples.last else { continue }
                if let end = previousEnd { pauses.append(first.timestamp - end) }
                previousEnd = last.timestamp
                firstTime = min(firstTime, first.timestamp)
                lastTime = max(lastTime, last.timestamp)
            }
            if lastTime >= firstTime { spans.append(lastTime - firstTime) }
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

        static func quantile(_ sorted: [Double], _ q: Double) -> Double {
            guard !sorted.isEmpty else { return .nan }
            return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * q).rounded()))]
        }

        func json(name: String) -> JSONValue {
            let sortedIntervals = intervals.sorted()
            let positive = sortedIntervals.filter { $0 > 0 }
            let sortedPauses = pauses.sorted()
            var object = JSONObject()
            object.append("group", .string(name))
            object.append("sessions", .number(Double(sessions)))
            object.append("touches", .number(Double(touches)))
            object.append("samples", .number(Double(samples)))
            object.append("zero_intervals", .number(Double(sortedIntervals.count - positive.count)))
            var spread = JSONObject()
            for (label, q) in [("min", 0.0), ("p5", 0.05), ("p25", 0.25), ("p50", 0.5), ("p75", 0.75), ("p95", 0.95), ("max", 1.0)] where !positive.isEmpty {
                spread.append(label, .number(Self.milliseconds(Self.quantile(positive, q))))
            }
            object.append("interval_ms", .object(spread))
            if !sortedPauses.isEmpty {
                object.append("pause_ms", .object(JSONObject([
                    ("p50", .number(Self.milliseconds(Self.quantile(sortedPauses, 0.5)))),
                    ("max", .number(Self.milliseconds(sortedPauses.last!))),
                ])))
            }
            let span = spans.max() ?? 0
            object.append("longest_session_s", .number(abs(span) < 1e9 ? (span * 1000).rounded() / 1000 : span))
            return .object(object)
        }

        func line(name: String) -> String {
            let positive = intervals.filter { $0 > 0 }.sorted()
            let zero = intervals.count - positive.count
            func ms(_ value: Double) -> String { Self.text(value * 1000, decimals: 1) }
            let spread = positive.isEmpty ? "-" : [0.05, 0.5, 0.95].map { ms(Self.quantile(positive, $0)) }.joined(separator: " / ")
            let pause = pauses.isEmpty ? "-" : ms(Self.quantile(pauses.sorted(), 0.5)) + " / " + Self.text(pauses.max()!, decimals: 0) + " s"
            return name.padded(28, left: true)
                + String(format: "%8d %8d %9d  ", sessions, touches, samples)
                + spread.padded(20, left: true)
                + String(format: "%6.1f%%  ", intervals.isEmpty ? 0 : 100 * Double(zero) / Double(intervals.count))
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
            let read = SessionLog.read(contentsOf: file, onRead: progress.map { progress in { progress.advance(bytes: $0) } })
            progress?.advance()
            if let failure = read.failure {
                printError("Error: \(failure)")
                failures += 1
            }
            guard let log = read.log else { continue }
            var directory = PathText.parent(file)
            if !base.isEmpty, directory.hasPrefix(base) { directory = String(directory.dropFirst(base.count).drop { $0 == "/" }) }
            let name = directory.isEmpty ? "." : directory
            if let index = groups.firstIndex(where: { $0.name == name }) { groups[index].group.add(log) } else {
                var group = Group()
                group.add(log)
                groups.append((name, group))
            }
            total.add(log)
        }
        progress?.finish()
        if arguments.flag("--json") {
            print(JSONValue.array(groups.map { $0.group.json(name: $0.name) } + [total.json(name: "total")]).serialized())
        } else {
            print("group".padded(28, left: true) + "sessions  touches   samples  interval ms p5/50/95  dt=0    pause p50 / max")
            for (name, group) in groups { print(group.line(name: name)) }
            print(total.line(name: "total"))
        }
        return failures == 0 ? 0 : 1
    }
}
