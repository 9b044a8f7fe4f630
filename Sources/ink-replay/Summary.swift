@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkRecording
@_spi(Tooling) import SessionReplay
@_spi(Tooling) import InkCore

/// Totals over several replay reports, and their renderings.
struct Summary {
    var reports: [ReplayReport]

    var samples: Int { reports.reduce(0) { $0 + $1.samples } }
    var inked: Int { reports.reduce(0) { $0 + $1.audit.inked } }
    var released: Int { reports.reduce(0) { $0 + $1.audit.released } }
    var cancelled: Int { reports.reduce(0) { $0 + $1.audit.cancelled } }
    var refused: Int { reports.reduce(0) { $0 + $1.refusedSamples } }
    var dropped: Int { reports.reduce(0) { $0 + $1.dropped } }
    var touches: Int { reports.reduce(0) { $0 + $1.touchCount } }
    var failed: [ReplayReport] { reports.filter { !$0.isVerified } }
    var firstInk: Percentiles? {
        var all = LatencyCounts()
        for report in reports { all.merge(report.firstInk) }
        return all.percentiles
    }

    func counter(_ key: KeyPath<RouterCounters, Int>) -> Int { reports.reduce(0) { $0 + $1.counters[keyPath: key] } }
    func bridge(_ key: KeyPath<BridgeMetrics, Int>) -> Int { reports.reduce(0) { $0 + $1.bridge[keyPath: key] } }

    /// Queries decided by a timeout: the engine's deadline or the bridge's (never both).
    var timeouts: Int { counter(\.deadlinesPassed) + bridge(\.timeouts) }
    /// Answers that reached the bridge or the engine after their query was settled.
    var lateAnswers: Int { counter(\.lateAnswers) + bridge(\.lateAnswers) }

    /// Why a report failed verification, one line each, with file and line where known.
    static func failures(of report: ReplayReport) -> [(line: Int?, message: String)] {
        var lines: [(Int?, String)] = []
        if let failure = report.readFailure { lines.append((failure.line, failure.message)) }
        for issue in report.issues { lines.append((issue.line, issue.error.description)) }
        if report.issueCount > report.issues.count {
            lines.append((nil, "… \(report.issueCount - report.issues.count) more refused lines"))
        }
        if let divergence = report.divergence { lines.append((report.divergenceLine, divergence)) }
        if !report.acceptsIncomplete, case let .incomplete(line, reason) = report.integrity {
            lines.append((line, "incomplete recording: \(reason); no identity is claimed (--accept-incomplete accepts it)"))
        }
        for problem in report.problems { lines.append((nil, problem)) }
        if report.problemCount > report.problems.count {
            lines.append((nil, "… \(report.problemCount - report.problems.count) more problems"))
        }
        if lines.isEmpty, !report.isVerified {
            lines.append((nil, "the ledger does not balance (engine \(report.engineLedger), audit \(report.audit))"))
        }
        return lines
    }

    static func location(_ report: ReplayReport, _ line: Int?) -> String {
        (report.file.map(PathText.shown) ?? "<log>") + (line.map { ":\($0)" } ?? "")
    }

    static func ms(_ seconds: Double) -> String { String(format1: seconds * 1000) }

    static func latencyJSON(_ percentiles: Percentiles?, p99: Bool = false) -> JSONValue {
        guard let p = percentiles else {
            return .object(JSONObject([("p50", .null), ("p95", .null)] + (p99 ? [("p99", .null)] : [])
                                      + [("max", .null), ("count", .number(0))]))
        }
        return .object(JSONObject([("p50", .number(rounded(p.p50 * 1000))), ("p95", .number(rounded(p.p95 * 1000)))]
                                  + (p99 ? [("p99", .number(rounded(p.p99 * 1000)))] : [])
                                  + [("max", .number(rounded(p.max * 1000))), ("count", .number(Double(p.count)))]))
    }

    static func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
}

extension String {
    /// A number with one decimal.
    init(format1 value: Double) {
        let tenths = (value * 10).rounded()
        guard abs(tenths) < 9e15 else {   // no Int64 holds it: no decimal to show either
            self = value.isFinite ? "\(value.rounded())" : "\(value)"
            return
        }
        let whole = Int64(tenths / 10)
        let fraction = Int64(abs(tenths.truncatingRemainder(dividingBy: 10)))
        self = (tenths < 0 && whole == 0 ? "-" : "") + "\(whole).\(fraction)"
    }

    func padded(_ width: Int, left: Bool = false) -> String {
        count >= width ? self : (left ? self + String(repeating: " ", count: width - count)
                                      : String(repeating: " ", count: width - count) + self)
    }
}
