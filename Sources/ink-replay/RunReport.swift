@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import SessionReplay
@_spi(Tooling) import InkCore

/// What `run` prints (its table, or `--json`), made from replay reports or from the
/// `run --shard k/n --json` reports of shards (`merge-reports`), so a merged report is what
/// one run over every session prints, byte for byte, with its exit code.
///
/// A shard's report is the object `run --json` prints for its sessions, and, so that the
/// shards can be joined exactly: `"report": "run"` first (what `merge-reports` tells it
/// from a `verify --json` report by), each session's and each failure's position in the run
/// (`session`), each session's first-ink latencies as whole microseconds with their counts
/// (`first_ink_us`, from which the run's percentiles are taken again), and `shard`: `index`,
/// `count`, `sessions_total` and `options`.
struct RunReport: ShardPart {
    /// One session's row.
    struct Session {
        /// Its position among all the sessions of the run (0-based).
        var index: Int
        /// As shown (``PathText/shown(_:)``); empty for a log without a file.
        var file: String
        /// The values of ``RunReport/ledgerKeys`` but `sessions`, in that order.
        var ledger: [Int]
        var firstInk: LatencyCounts
        var verified: Bool

        func value(_ key: String) -> Int { RunReport.ledgerKeys.dropFirst().firstIndex(of: key).map { ledger[$0 - 1] } ?? 0 }
    }

    /// The ledger totals, in the order `run --json` prints them (a session's row: all but `sessions`).
    static let ledgerKeys = ["sessions", "touches", "samples", "inked", "released", "cancelled", "refused", "dropped"]
    /// The bridge's and the engine's counters, in the order `run --json` prints them.
    static let counterKeys = ["queries", "round_trips", "cache_hits", "shared_queries", "speculations", "answers_applied", "late_answers",
                              "duplicate_answers", "unknown_answers", "stale_answers", "timeouts", "gestures", "retractions"]

    var sessions: [Session]
    /// The values of ``ledgerKeys`` and ``counterKeys``.
    var totals: [String: Int]
    /// Every failure line, with its session's position, in the run's order.
    var failures: [VerifyVerdict.Failure]
    var shard: Shard?
    var total: Int
    var settings = ""

    var files: [(index: Int, file: String)] { sessions.map { ($0.index, $0.file) } }
    func value(_ key: String) -> Int { totals[key] ?? 0 }
    var verified: Bool { sessions.allSatisfy(\.verified) }

    init(_ replayed: ReplayedSessions) {
        let summary = Summary(reports: replayed.reports)
        sessions = zip(replayed.indexes, replayed.reports).map { index, report in
            Session(index: index, file: PathText.shown(report.file ?? ""),
                    ledger: [report.touchCount, report.samples, report.audit.inked, report.audit.released,
                             report.audit.cancelled, report.refusedSamples, report.dropped],
                    firstInk: report.firstInk, verified: report.isVerified)
        }
        totals = ["sessions": replayed.reports.count, "touches": summary.touches, "samples": summary.samples, "inked": summary.inked,
                  "released": summary.released, "cancelled": summary.cancelled, "refused": summary.refused, "dropped": summary.dropped,
                  "queries": summary.bridge(\.queries), "round_trips": summary.bridge(\.roundTrips), "cache_hits": summary.bridge(\.cacheHits),
                  "shared_queries": summary.bridge(\.sharedQueries), "speculations": summary.counter(\.speculations),
                  "answers_applied": summary.counter(\.answersApplied), "late_answers": summary.lateAnswers,
                  "duplicate_answers": summary.bridge(\.duplicateAnswers) + summary.counter(\.duplicateAnswers),
                  "unknown_answers": summary.bridge(\.unknownAnswers) + summary.counter(\.unknownAnswers),
                  "stale_answers": summary.bridge(\.staleAnswers), "timeouts": summary.timeouts,
                  "gestures": summary.counter(\.gestures), "retractions": summary.counter(\.retractions)]
        failures = zip(replayed.indexes, replayed.reports).flatMap { index, report in
            report.isVerified ? [] : Summary.failures(of: report).map {
                VerifyVerdict.Failure(session: index, file: PathText.shown(report.file ?? ""), line: $0.line, message: $0.message)
            }
        }
        shard = replayed.shard
        total = replayed.total
        if shard != nil { settings = replayed.settings }
    }

    /// The first-ink latencies of every session.
    var firstInk: LatencyCounts {
        var all = LatencyCounts()
        for session in sessions { all.merge(session.firstInk) }
        return all
    }

    // MARK: - Output

    /// `run --json`; with a shard, what `merge-reports` needs besides (see the type's comment).
    func json() -> JSONValue {
        let sharded = shard != nil
        var object = JSONObject()
        if sharded { object.append("report", .string("run")) }
        for key in Self.ledgerKeys { object.append(key, .number(Double(value(key)))) }
        object.append("first_ink_ms", Summary.latencyJSON(firstInk.percentiles))
        for key in Self.counterKeys { object.append(key, .number(Double(value(key)))) }
        object.append("failures", .array(failures.map { failure in
            var item = JSONObject([("file", .string(failure.file))])
            item.append("line", ifPresent: failure.line.map { .number(Double($0)) })
            item.append("message", .string(failure.message))
            if sharded { item.append("session", .number(Double(failure.session))) }
            return .object(item)
        }))
        object.append("per_session", .array(sessions.map { session in
            var item = JSONObject([("file", .string(session.file))])
            for (key, value) in zip(Self.ledgerKeys.dropFirst(), session.ledger) { item.append(key, .number(Double(value))) }
            item.append("first_ink_ms", Summary.latencyJSON(session.firstInk.percentiles))
            item.append("verified", .bool(session.verified))
            if sharded {
                item.append("session", .number(Double(session.index)))
                item.append("first_ink_us", .array(session.firstInk.microsecondCounts.map {
                    .array([.number(Double($0.microseconds)), .number(Double($0.count))])
                }))
            }
            return .object(item)
        }))
        if let shard {
            object.append("shard", .object(JSONObject([
                ("index", .number(Double(shard.index))), ("count", .number(Double(shard.count))),
                ("sessions_total", .number(Double(total))), ("options", .string(settings)),
            ])))
        }
        return .object(object)
    }

    /// `run`'s table: a row per session, the totals, first-ink latency, hit tests, answers.
    func printTable() {
        let names = sessions.map { $0.file.isEmpty ? "<log>" : PathText.shown(PathText.lastComponent($0.file)) }
        let width = max(24, (names.map(\.count).max() ?? 0) + 2)
        print("session".padded(width, left: true) + "touches".padded(8) + "samples".padded(9) + "inked".padded(8)
              + "released".padded(10) + "cancelled".padded(11) + "dropped".padded(9) + "  first ink p50 / max (ms)")
        for (name, session) in zip(names, sessions) {
            let latency = session.firstInk.percentiles.map { "\(Summary.ms($0.p50)) / \(Summary.ms($0.max))" } ?? "-"
            print(name.padded(width, left: true) + "\(session.value("touches"))".padded(8) + "\(session.value("samples"))".padded(9)
                  + "\(session.value("inked"))".padded(8) + "\(session.value("released"))".padded(10)
                  + "\(session.value("cancelled"))".padded(11) + "\(session.value("dropped"))".padded(9) + "  " + latency
                  + (session.verified ? "" : "  FAILED"))
        }
        func n(_ key: String) -> Int { value(key) }
        let total = "total (\(sessions.count) session\(sessions.count == 1 ? "" : "s"))"
        print(total.padded(width, left: true) + "\(n("touches"))".padded(8) + "\(n("samples"))".padded(9)
              + "\(n("inked"))".padded(8) + "\(n("released"))".padded(10) + "\(n("cancelled"))".padded(11)
              + "\(n("dropped"))".padded(9))
        if let p = firstInk.percentiles {
            print("first-ink latency: p50 \(Summary.ms(p.p50)) ms, p95 \(Summary.ms(p.p95)) ms, max \(Summary.ms(p.max)) ms over \(p.count) inked touches")
        } else {
            print("first-ink latency: no touch became ink")
        }
        print("hit tests: \(n("queries")) asked, \(n("cache_hits")) from the region cache, "
              + "\(n("round_trips")) round trips (\(n("shared_queries")) shared)")
        print("answers: \(n("answers_applied")) applied, \(n("late_answers")) late, "
              + "\(n("duplicate_answers")) duplicate, \(n("unknown_answers")) unknown; "
              + "timeouts \(n("timeouts")), gestures \(n("gestures")), retractions \(n("retractions"))")
    }

    /// Prints every failure to standard error as `Error: file:line: message`.
    func printFailures() {
        for failure in failures { printError("Error: \(failure.location): \(failure.message)") }
    }

    // MARK: - Reading a shard's report

    /// A shard's report read back from `run --shard k/n --json` output, checked against
    /// itself before any of its numbers sizes anything.
    /// - Throws: ``ReportError`` naming the file and the field that is missing, wrong or
    ///   contradicts another.
    init(json value: JSONValue, source: String) throws {
        func fail(_ field: String?, _ reason: String) -> ReportError {
            ReportError(source: source, field: field, reason: reason, kind: .shape, command: "run")
        }
        func inconsistent(_ field: String, _ reason: String) -> ReportError {
            ReportError(source: source, field: field, reason: reason, kind: .inconsistent, command: "run")
        }
        guard case let .object(object) = value else { throw fail(nil, "not a JSON object") }
        func int(_ value: JSONValue?, _ name: String) throws -> Int {
            guard case let .number(number)? = value, number >= 0, number <= Double(VerifyVerdict.maxWhole), number == number.rounded() else {
                throw fail(name, "is not a whole number from 0 to \(VerifyVerdict.maxWhole)")
            }
            return Int(number)
        }
        var totals: [String: Int] = [:]
        for key in Self.ledgerKeys + Self.counterKeys { totals[key] = try int(object[key], key) }
        self.totals = totals
        guard case .object? = object["first_ink_ms"] else { throw fail("first_ink_ms", "is not an object") }
        guard case let .object(shard)? = object["shard"] else {
            throw fail("shard", "is missing: merge-reports joins the reports of 'run --shard k/n --json' (a whole run's 'run --json' lists no positions to join by)")
        }
        self.shard = Shard(index: try int(shard["index"], "shard.index"), count: try int(shard["count"], "shard.count"))
        total = try int(shard["sessions_total"], "shard.sessions_total")
        guard case let .string(settings)? = shard["options"] else { throw fail("shard.options", "is not a string") }
        self.settings = settings
        guard case let .array(failureItems)? = object["failures"] else { throw fail("failures", "is not an array") }
        failures = try failureItems.map { item in
            guard case let .object(failure) = item, case let .string(file)? = failure["file"],
                  case let .string(message)? = failure["message"] else { throw fail("failures", "has an entry without file and message") }
            return VerifyVerdict.Failure(session: try int(failure["session"], "failures.session"), file: file,
                                         line: try failure["line"].map { try int($0, "failures.line") }, message: message)
        }
        guard case let .array(rows)? = object["per_session"] else { throw fail("per_session", "is not an array") }
        // The rows are parsed already (the report is read to 64 MiB at most); their number is
        // checked against 'sessions' and the shard before anything is sized by either.
        sessions = try rows.map { row in
            guard case let .object(entry) = row, case let .string(file)? = entry["file"] else { throw fail("per_session", "has an entry without its file") }
            guard case let .bool(verified)? = entry["verified"] else { throw fail("per_session.verified", "is not true or false") }
            guard case let .array(pairs)? = entry["first_ink_us"] else { throw fail("per_session.first_ink_us", "is not an array") }
            var counts = LatencyCounts()
            var previous: Int64?
            for pair in pairs {
                // Microseconds as recorded: a whole number, saturated at the ends of Int64
                // (2^63 reads back as Int64.max: the Double it prints as).
                guard case let .array(items) = pair, items.count == 2, case let .number(us) = items[0],
                      us == us.rounded(), us >= -9.223372036854775808e18, us <= 9.223372036854775808e18 else {
                    throw fail("per_session.first_ink_us", "has an entry that is not [whole microseconds, count]")
                }
                let microseconds = us >= 9.223372036854775807e18 ? Int64.max : Int64(us)
                let count = try int(items[1], "per_session.first_ink_us")
                guard count >= 1, previous.map({ $0 < microseconds }) ?? true else {
                    throw inconsistent("per_session.first_ink_us", "lists \(microseconds) with count \(count) (each latency once, ascending, counted at least once)")
                }
                guard counts.count <= VerifyVerdict.maxWhole - count else {
                    throw inconsistent("per_session.first_ink_us", "counts more than \(VerifyVerdict.maxWhole) latencies")
                }
                counts.record(microseconds: microseconds, count: count)
                previous = microseconds
            }
            return Session(index: try int(entry["session"], "per_session.session"), file: file,
                           ledger: try Self.ledgerKeys.dropFirst().map { try int(entry[$0], "per_session.\($0)") },
                           firstInk: counts, verified: verified)
        }
        try checkConsistency(object, source: source)
    }

    /// Refuses a shard's report whose fields contradict each other, as no `run --json`
    /// writes one: the ledger's parts against `samples`, the sessions' rows against the
    /// totals, each session's first-ink percentiles against its latencies (and the run's
    /// against all of them), the sessions' positions against the shard, and `failures`
    /// against the sessions that did not verify.
    private func checkConsistency(_ object: JSONObject, source: String) throws {
        func fail(_ field: String, _ reason: String) -> ReportError {
            ReportError(source: source, field: field, reason: reason, kind: .inconsistent, command: "run")
        }
        let ledger = value("inked") + value("released") + value("cancelled") + value("refused") + value("dropped")   // each at most 2^53 - 1
        guard ledger == value("samples") else {
            throw fail("samples", "is \(value("samples")), but inked + released + cancelled + refused + dropped is \(ledger)")
        }
        try ShardReports.check(self, sessions: value("sessions"), source: source, command: "run")
        for key in Self.ledgerKeys.dropFirst() {
            var sum = 0
            for session in sessions {
                let (added, overflow) = sum.addingReportingOverflow(session.value(key))
                guard !overflow, added <= value(key) else { sum = -1; break }
                sum = added
            }
            guard sum == value(key) else {
                throw fail(key, "is \(value(key)), but the sessions' rows ('per_session') do not add up to it")
            }
        }
        var rows: [JSONValue] = []
        if case let .array(list)? = object["per_session"] { rows = list }
        for (row, session) in zip(rows, sessions) {
            guard session.firstInk.count <= session.value("touches") else {
                throw fail("per_session.first_ink_us", "counts \(session.firstInk.count) latencies in session \(session.index), more than its \(session.value("touches")) touches")
            }
            guard case let .object(entry) = row, entry["first_ink_ms"] == Summary.latencyJSON(session.firstInk.percentiles) else {
                throw fail("per_session.first_ink_ms", "of session \(session.index) is not what its latencies ('first_ink_us') give")
            }
        }
        guard object["first_ink_ms"] == Summary.latencyJSON(firstInk.percentiles) else {
            throw fail("first_ink_ms", "is not what the sessions' latencies ('per_session.first_ink_us') give")
        }
        let own = Set(sessions.map(\.index))
        let unverified = Set(sessions.filter { !$0.verified }.map(\.index))
        var named = Set<Int>()
        for failure in failures {
            guard own.contains(failure.session) else {
                throw fail("failures.session", "names session \(failure.session), which is not one of the report's")
            }
            guard unverified.contains(failure.session) else {
                throw fail("failures.session", "names session \(failure.session), which 'per_session' says verified")
            }
            named.insert(failure.session)
        }
        if let silent = unverified.subtracting(named).min() {
            throw fail("failures", "names no line for session \(silent), which 'per_session' says did not verify")
        }
    }

    /// The report of one run made of its shards' reports, each already consistent.
    /// - Throws: ``CommandFailure`` when the reports are not the shards of one run
    ///   (``ShardReports/join(_:summing:)``).
    static func merged(_ parts: [(source: String, report: RunReport)]) throws -> RunReport {
        guard var merged = parts.first?.report else { throw UsageError(message: "missing <report.json>") }
        let sums = try ShardReports.join(parts, summing: ledgerKeys + counterKeys)
        merged.totals = sums
        merged.sessions = parts.flatMap(\.report.sessions).sorted { $0.index < $1.index }
        // The run's order: by session position; a session's own lines keep their order.
        merged.failures = parts.flatMap(\.report.failures).enumerated()
            .sorted { ($0.element.session, $0.offset) < ($1.element.session, $1.offset) }.map(\.element)
        merged.shard = nil
        merged.settings = ""
        return merged
    }
}
