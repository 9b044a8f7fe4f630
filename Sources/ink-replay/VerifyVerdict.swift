@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkRecording
@_spi(Tooling) import SessionReplay

/// What `verify` prints, made from replay reports or from the `--json` reports of shards
/// (`merge-reports`), so a merged verdict is the verdict of one run, byte for byte.
struct VerifyVerdict: Equatable, ShardPart {
    /// One line `verify` prints on standard error: `Error: <location>: <message>`.
    struct Failure: Equatable {
        /// The session's position among all the sessions of the run (0-based).
        var session: Int
        var file: String
        var line: Int?
        var message: String

        var location: String { (file.isEmpty ? "<log>" : PathText.shown(file)) + (line.map { ":\($0)" } ?? "") }
        /// The message as every output shows it: escaped as names are (``PathText/shown(_:)``;
        /// a shard report read by `merge-reports` may be crafted, issue 53: its note text
        /// reached standard output with its escape sequences raw). The tool's own messages
        /// quote their input escaped already, and escaped text shows as itself.
        var shownMessage: String { PathText.shown(message) }
    }

    /// The ledger totals, in the order `verify --json` prints them.
    /// `recordings`: the live recordings among the sessions; `identical`: those that are
    /// whole (an unbroken chain to their end line) and replayed identically
    /// (docs/session-format.md); an unchained or accepted incomplete one gets a note instead.
    static let totals = ["sessions", "touches", "samples", "inked", "released", "cancelled", "refused", "dropped", "recordings", "identical"]

    var counts: [String: Int]
    var failures: [Failure]
    /// Live recordings over which no identity is claimed though nothing diverged (the
    /// recorder's sink fell behind: lines are missing), each with the sentence saying so.
    var notes: [Failure] = []
    /// Sessions that did not verify (a session fails with at least one line).
    var failedSessions: Int
    var shard: Shard?
    /// How many sessions the whole run holds (every shard's).
    var total: Int
    /// With a shard: its sessions' positions in the whole run and their files.
    var files: [(index: Int, file: String)] = []
    /// With a shard: the replay options it was run with (`--cache on`), the same for every shard.
    var settings = ""

    var verified: Bool { failedSessions == 0 }

    func value(_ key: String) -> Int { key == "failed_sessions" ? failedSessions : counts[key] ?? 0 }

    static func == (a: VerifyVerdict, b: VerifyVerdict) -> Bool {
        a.counts == b.counts && a.failures == b.failures && a.notes == b.notes && a.failedSessions == b.failedSessions && a.shard == b.shard
            && a.total == b.total && a.settings == b.settings && a.files.map(\.index) == b.files.map(\.index) && a.files.map(\.file) == b.files.map(\.file)
    }

    init(_ replayed: ReplayedSessions) {
        let summary = Summary(reports: replayed.reports)
        counts = ["sessions": replayed.reports.count, "touches": summary.touches, "samples": summary.samples,
                  "inked": summary.inked, "released": summary.released, "cancelled": summary.cancelled,
                  "refused": summary.refused, "dropped": summary.dropped,
                  "recordings": replayed.reports.filter { $0.identity != nil }.count,
                  "identical": replayed.reports.filter(\.isProvenIdentical).count]
        // A recording that verified without proving identity: unchained (format version 2),
        // or incomplete and accepted. Said, not counted identical.
        notes = zip(replayed.indexes, replayed.reports).compactMap { index, report in
            guard let identity = report.identity, report.isVerified, !report.isProvenIdentical else { return nil }
            var line: Int?
            if case let .incomplete(at, _) = report.integrity { line = at }
            let prefix = "identical to the live recording: "
            let identical = identity.hasPrefix(prefix) ? "identical as far as it goes: " + identity.dropFirst(prefix.count) : identity
            let said = [report.integrity.sentence.map { $0 + (report.integrity.isIncomplete ? " (accepted)" : "") }, identical]
            return Failure(session: index, file: PathText.shown(report.file ?? ""), line: line, message: said.compactMap { $0 }.joined(separator: "; "))
        }
        failures = zip(replayed.indexes, replayed.reports).flatMap { index, report in
            Summary.failures(of: report).map { Failure(session: index, file: PathText.shown(report.file ?? ""), line: $0.line, message: $0.message) }
        }
        failedSessions = summary.failed.count
        shard = replayed.shard
        total = replayed.total
        if shard != nil {
            files = zip(replayed.indexes, replayed.reports).map { ($0, PathText.shown($1.file ?? "")) }
            settings = replayed.settings
        }
    }

    /// `verified 59 sessions, …` or `FAILED: …`.
    var text: String {
        func n(_ key: String) -> Int { counts[key] ?? 0 }
        return "\(verified ? "verified" : "FAILED:") \(n("sessions")) sessions, \(n("touches")) touches, "
            + "\(n("samples")) samples: inked \(n("inked")), released \(n("released")), "
            + "cancelled \(n("cancelled")), refused \(n("refused")), dropped \(n("dropped"))"
            + (shard.map { " (shard \($0.text) of \(total) sessions)" } ?? "")
            + (n("recordings") > 0 ? "\nidentity: \(n("identical")) of \(n("recordings")) live recordings replayed identically" : "")
            + notes.map { "\n\($0.location): \($0.shownMessage)" }.joined()
    }

    /// `verify --json`: the totals, the verdict, every failure (with its session's position),
    /// how many sessions failed, and, for a shard, which shard and its sessions.
    func json() -> JSONValue {
        var object = JSONObject(Self.totals.map { ($0, .number(Double(counts[$0] ?? 0))) })
        object.append("verified", .bool(verified))
        object.append("failed_sessions", .number(Double(failedSessions)))
        func items(_ list: [Failure]) -> JSONValue {
            .array(list.map { failure in
                var item = JSONObject([("file", .string(PathText.shown(failure.file)))])
                item.append("line", ifPresent: failure.line.map { .number(Double($0)) })
                item.append("message", .string(failure.shownMessage))
                item.append("session", .number(Double(failure.session)))
                return .object(item)
            })
        }
        object.append("failures", items(failures))
        object.append("notes", items(notes))
        if let shard {
            object.append("shard", .object(JSONObject([
                ("index", .number(Double(shard.index))), ("count", .number(Double(shard.count))),
                ("sessions_total", .number(Double(total))), ("options", .string(settings)),
                ("files", .array(files.map { .object(JSONObject([("session", .number(Double($0.index))), ("file", .string(PathText.shown($0.file)))])) })),
            ])))
        }
        return .object(object)
    }

    /// Prints every failure to standard error as `Error: file:line: message`.
    func printFailures() {
        for failure in failures { printError("Error: \(failure.location): \(failure.message)") }
    }

    /// The largest whole number a report holds: 2^53 - 1, the largest a JSON number carries
    /// exactly (merged totals are held to it too).
    static let maxWhole = 9_007_199_254_740_991

    /// A verdict read back from `verify --json` output, checked against itself before any of
    /// its numbers sizes anything (``checkConsistency(source:verified:)``).
    /// - Throws: ``ReportError`` naming the file and the field that is missing, wrong or
    ///   contradicts another.
    init(json value: JSONValue, source: String) throws {
        func fail(_ field: String?, _ reason: String) -> ReportError { ReportError(source: source, field: field, reason: reason, kind: .shape) }
        guard case let .object(object) = value else { throw fail(nil, "not a JSON object") }
        func int(_ value: JSONValue?, _ name: String) throws -> Int {
            guard case let .number(number)? = value, number >= 0, number <= Double(Self.maxWhole), number == number.rounded() else {
                throw fail(name, "is not a whole number from 0 to \(Self.maxWhole)")
            }
            return Int(number)
        }
        var counts: [String: Int] = [:]
        for key in Self.totals { counts[key] = try int(object[key], key) }
        self.counts = counts
        failedSessions = try int(object["failed_sessions"], "failed_sessions")
        guard case let .bool(verified)? = object["verified"] else { throw fail("verified", "is not true or false") }
        func list(_ name: String) throws -> [Failure] {
            guard case let .array(items)? = object[name] else { throw fail(name, "is not an array") }
            return try items.map { item in
                guard case let .object(failure) = item, case let .string(file)? = failure["file"],
                      case let .string(message)? = failure["message"] else { throw fail(name, "has an entry without file and message") }
                return Failure(session: try int(failure["session"], "\(name).session"), file: file,
                               line: try failure["line"].map { try int($0, "\(name).line") }, message: message)
            }
        }
        failures = try list("failures")
        notes = try list("notes")
        if case let .object(shard)? = object["shard"] {
            self.shard = Shard(index: try int(shard["index"], "shard.index"), count: try int(shard["count"], "shard.count"))
            total = try int(shard["sessions_total"], "shard.sessions_total")
            guard case let .string(settings)? = shard["options"] else { throw fail("shard.options", "is not a string") }
            self.settings = settings
            guard case let .array(files)? = shard["files"] else { throw fail("shard.files", "is not an array") }
            self.files = try files.map { item in
                guard case let .object(entry) = item, case let .string(file)? = entry["file"] else { throw fail("shard.files", "has an entry without its file") }
                return (try int(entry["session"], "shard.files.session"), file)
            }
        } else {
            if let other = object["shard"] { guard case .null = other else { throw fail("shard", "is not an object") } }
            shard = nil
            total = counts["sessions"] ?? 0
        }
        try checkConsistency(source: source, verified: verified)
    }

    /// Refuses a report whose fields contradict each other, as no `verify --json` writes
    /// one: `verified` against `failed_sessions`, the sessions that failed against those
    /// `failures` names, the ledger's parts against `samples`, recordings against sessions,
    /// and for a shard its index within its count, its sessions against its share of the
    /// run's (`sessions_total`), and its files (each session once, in order, in the run).
    /// Every number is checked before it sizes anything.
    private func checkConsistency(source: String, verified: Bool) throws {
        func fail(_ field: String, _ reason: String) -> ReportError { ReportError(source: source, field: field, reason: reason, kind: .inconsistent) }
        func n(_ key: String) -> Int { counts[key] ?? 0 }
        let sessions = n("sessions")
        guard verified == (failedSessions == 0) else {
            throw fail("verified", "is \(verified), but 'failed_sessions' is \(failedSessions)")
        }
        guard failedSessions <= sessions else {
            throw fail("failed_sessions", "is \(failedSessions), more than the report's \(sessions) sessions")
        }
        let ledger = n("inked") + n("released") + n("cancelled") + n("refused") + n("dropped")   // each at most 2^53 - 1: no overflow
        guard ledger == n("samples") else {
            throw fail("samples", "is \(n("samples")), but inked + released + cancelled + refused + dropped is \(ledger)")
        }
        guard n("recordings") <= sessions else {
            throw fail("recordings", "is \(n("recordings")), more than the report's \(sessions) sessions")
        }
        guard n("identical") <= n("recordings") else {
            throw fail("identical", "is \(n("identical")), more than its \(n("recordings")) recordings")
        }
        try ShardReports.check(self, sessions: sessions, source: source, command: "verify")
        // The sessions `failures` and `notes` name are the report's own; each failed session
        // has at least one failure line, and a note is for a recording that verified.
        let own = shard == nil ? nil : Set(files.map(\.index))
        func check(_ list: [Failure], _ name: String) throws -> Set<Int> {
            var named = Set<Int>()
            for entry in list {
                guard own?.contains(entry.session) ?? (entry.session < sessions) else {
                    throw fail("\(name).session", "names session \(entry.session), which is not one of the report's")
                }
                named.insert(entry.session)
            }
            return named
        }
        let failed = try check(failures, "failures")
        guard failed.count == failedSessions else {
            throw fail("failed_sessions", "is \(failedSessions), but 'failures' names \(failed.count) session\(failed.count == 1 ? "" : "s")")
        }
        let noted = try check(notes, "notes")
        if let both = noted.intersection(failed).min() {
            throw fail("notes.session", "names session \(both), which 'failures' names as failed (a note is for a recording that verified)")
        }
        guard noted.count <= n("recordings") - n("identical") else {
            throw fail("notes", "names \(noted.count) sessions, but only \(n("recordings") - n("identical")) of its recordings are not counted identical")
        }
    }

    /// The verdict of one run made of its shards' verdicts, each already consistent.
    /// - Throws: ``CommandFailure`` when the reports are not the shards of one run: split
    ///   differently, a shard given twice or missing, sessions overlapping or missing, or
    ///   totals past 2^53 - 1.
    static func merged(_ parts: [(source: String, verdict: VerifyVerdict)]) throws -> VerifyVerdict {
        guard let first = parts.first else { throw UsageError(message: "missing <report.json>") }
        let sums = try ShardReports.join(parts.map { ($0.source, $0.verdict) }, summing: totals + ["failed_sessions"])
        let total = first.verdict.total
        var merged = first.verdict
        merged.shard = nil
        merged.files = []
        merged.settings = ""
        merged.total = total
        for key in totals { merged.counts[key] = sums[key] ?? 0 }
        merged.failedSessions = sums["failed_sessions"] ?? 0
        // The run's order: by session position; a session's own lines keep their order.
        merged.failures = parts.flatMap(\.verdict.failures).enumerated()
            .sorted { ($0.element.session, $0.offset) < ($1.element.session, $1.offset) }.map(\.element)
        merged.notes = parts.flatMap(\.verdict.notes).sorted { $0.session < $1.session }
        return merged
    }
}

/// A `verify --json` or `run --json` report `merge-reports` refuses: the file, the field at fault, and why.
struct ReportError: Error, CustomStringConvertible {
    enum Kind {
        /// A field is missing or of the wrong kind: not what `verify --json` writes.
        case shape
        /// The fields contradict each other.
        case inconsistent
        /// A report `merge-reports` does not join with the others: of another command than
        /// the first report's (`verify`, `run`), or a whole run's `run --json`.
        case unjoinable
    }

    var source: String
    /// The field at fault (`failed_sessions`, `shard.index`), when one is.
    var field: String?
    var reason: String
    var kind: Kind
    /// The command whose `--json` report it claims to be: `verify` or `run`.
    var command = "verify"

    var description: String {
        "\(source): " + (kind == .shape ? "not a '\(command) --json' report: " : kind == .unjoinable ? "" : "an inconsistent report: ")
            + (field.map { "'\($0)' " } ?? "") + reason
    }
}

/// `ink-replay merge-reports`: the shards' `verify --json` reports as one verdict, or their
/// `run --json` reports as one run's report.
enum MergeReportsCommand: Command {
    static let name = "merge-reports"
    static let synopsis = "<report.json>..."
    static let overview = """
        OVERVIEW: Join the 'verify --shard k/n --json' reports of every shard of a run into the
        verdict of the whole run: the same line (or JSON object with --json), the same
        failures on standard error and the same exit code as one 'verify' over all the
        sessions. Joins the 'run --shard k/n --json' reports of every shard the same way, into
        what one 'run' over all the sessions prints (its table, or with --json its object).
        Refuses (exit 1) reports that are not every shard of one run, exactly once: a shard
        missing or given twice, shards of different splits or runs, sessions overlapping or
        missing, reports of 'verify' and of 'run' together; and a report that contradicts
        itself ('verified' against 'failed_sessions', a total against its parts, a shard
        outside its count), naming the file and the field. A report is read to 64 MiB at
        most.
        """
    static let details = """
        ARGUMENTS:
          <report.json>           The shards' reports ('verify --json' or 'run --json'
                                  output, all of one command), in any order.
        """
    static let options = OptionTable([ReplayOptions.json("Print the JSON object 'verify --json' (or 'run --json') prints instead of the verdict line (or the table).")])

    /// The largest report read, in bytes, counted as read (a pipe stops there): parsing holds
    /// about 6 times a report's size (a shard report of 600,000 sessions, 39 MB: 228 MB).
    static let maxReportBytes = 64 << 20

    /// What a report is a report of: `run` when it says so (`"report": "run"`, which a
    /// shard's `run --json` report begins with), else `verify` (whose reports carry no
    /// such field).
    /// - Throws: ``ReportError`` for a `report` that names neither, or a whole run's
    ///   `run --json` report (it holds no positions to join by).
    static func kind(of value: JSONValue, source: String) throws -> String {
        guard case let .object(object) = value else { return "verify" }
        switch object["report"] {
        case nil:
            if object["per_session"] != nil, object["verified"] == nil {
                throw ReportError(source: source, field: nil,
                                  reason: "a whole run's 'run --json' report (no --shard): merge-reports joins the reports of 'run --shard k/n --json' (use --shard 1/1 for a run of one shard)",
                                  kind: .unjoinable, command: "run")
            }
            return "verify"
        case .string("run")?: return "run"
        case .string("verify")?: return "verify"
        default:
            throw ReportError(source: source, field: "report",
                              reason: "is not \"run\" (a 'run --shard k/n --json' report) or absent (a 'verify --json' report)", kind: .shape)
        }
    }

    static func run(_ arguments: inout ArgumentList) throws -> Int32 {
        guard !arguments.positional.isEmpty else { throw UsageError(message: "missing <report.json>") }
        var verdicts: [(source: String, verdict: VerifyVerdict)] = []
        var runs: [(source: String, report: RunReport)] = []
        var first: (source: String, kind: String)?
        for path in arguments.positional {
            let bytes = try SessionFiles.contents(of: path, limit: maxReportBytes,
                                                  what: "not a report (that holds a shard of about 900,000 sessions)")
            // Every message names the report as the terminal should show it.
            let shown = PathText.shown(path)
            let value: JSONValue
            do { value = try JSONParser.parse(bytes) } catch { throw CommandFailure(message: "\(shown): not JSON: \(error)") }
            let kind = try kind(of: value, source: shown)
            if let first, first.kind != kind {
                throw ReportError(source: shown, field: nil,
                                  reason: "a '\(kind) --json' report, but \(first.source) is a '\(first.kind) --json' report: "
                                      + "merge-reports joins the shards of one command's run", kind: .unjoinable, command: kind)
            }
            first = first ?? (shown, kind)
            if kind == "run" {
                runs.append((shown, try RunReport(json: value, source: shown)))
            } else {
                verdicts.append((shown, try VerifyVerdict(json: value, source: shown)))
            }
        }
        if !runs.isEmpty {
            let report = try RunReport.merged(runs)
            if arguments.flag("--json") { print(report.json().serialized()) } else { report.printTable() }
            report.printFailures()
            return report.verified ? 0 : 1
        }
        let verdict = try VerifyVerdict.merged(verdicts)
        print(arguments.flag("--json") ? verdict.json().serialized() : verdict.text)
        verdict.printFailures()
        return verdict.verified ? 0 : 1
    }
}
