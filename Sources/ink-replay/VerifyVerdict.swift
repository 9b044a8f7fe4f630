@_spi(Tooling) @_spi(FrontEnd) import HitTestBridge
@_spi(Tooling) import InkRecording
@_spi(Tooling) import SessionReplay

/// What `verify` prints, made from replay reports or from the `--json` reports of shards
/// (`merge-reports`), so a merged verdict is the verdict of one run, byte for byte.
struct VerifyVerdict: Equatable {
    /// One line `verify` prints on standard error: `Error: <location>: <message>`.
    struct Failure: Equatable {
        /// The session's position among all the sessions of the run (0-based).
        var session: Int
        var file: String
        var line: Int?
        var message: String

        var location: String { (file.isEmpty ? "<log>" : PathText.shown(file)) + (line.map { ":\($0)" } ?? "") }
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
            + notes.map { "\n\($0.location): \($0.message)" }.joined()
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
                item.append("message", .string(failure.message))
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

    /// A verdict read back from `verify --json` output.
    /// - Throws: ``CommandFailure`` naming what is missing or wrong.
    init(json value: JSONValue, source: String) throws {
        func fail(_ what: String) -> CommandFailure { CommandFailure(message: "\(source): not a 'verify --json' report: \(what)") }
        guard case let .object(object) = value else { throw fail("not a JSON object") }
        func int(_ value: JSONValue?, _ name: String) throws -> Int {
            guard case let .number(number)? = value, number >= 0, number <= 9e15, number == number.rounded() else {
                throw fail("'\(name)' is not a whole number")
            }
            return Int(number)
        }
        var counts: [String: Int] = [:]
        for key in Self.totals { counts[key] = try int(object[key], key) }
        self.counts = counts
        failedSessions = try int(object["failed_sessions"], "failed_sessions")
        func list(_ name: String) throws -> [Failure] {
            guard case let .array(items)? = object[name] else { throw fail("'\(name)' is not an array") }
            return try items.map { item in
                guard case let .object(failure) = item, case let .string(file)? = failure["file"],
                      case let .string(message)? = failure["message"] else { throw fail("an entry of '\(name)' without file and message") }
                return Failure(session: try int(failure["session"], "session"), file: file,
                               line: try failure["line"].map { try int($0, "line") }, message: message)
            }
        }
        failures = try list("failures")
        notes = try list("notes")
        guard case let .object(shard)? = object["shard"] else {
            self.shard = nil
            total = counts["sessions"] ?? 0
            return
        }
        self.shard = Shard(index: try int(shard["index"], "shard.index"), count: try int(shard["count"], "shard.count"))
        total = try int(shard["sessions_total"], "shard.sessions_total")
        guard case let .string(settings)? = shard["options"] else { throw fail("'shard.options' is not a string") }
        self.settings = settings
        guard case let .array(files)? = shard["files"] else { throw fail("'shard.files' is not an array") }
        self.files = try files.map { item in
            guard case let .object(entry) = item, case let .string(file)? = entry["file"] else { throw fail("a shard file without its name") }
            return (try int(entry["session"], "session"), file)
        }
        guard self.files.count == counts["sessions"] else { throw fail("'shard.files' does not list its \(counts["sessions"] ?? 0) sessions") }
    }

    /// The verdict of one run made of its shards' verdicts.
    /// - Throws: ``CommandFailure`` when the reports are not the shards of one run: split
    ///   differently, a shard given twice or missing, or sessions overlapping or missing.
    static func merged(_ parts: [(source: String, verdict: VerifyVerdict)]) throws -> VerifyVerdict {
        guard let first = parts.first else { throw UsageError(message: "missing <report.json>") }
        let shards = parts.map { $0.verdict.shard ?? Shard(index: 1, count: 1) }
        let count = shards[0].count
        if let other = parts.indices.first(where: { shards[$0].count != count }) {
            throw CommandFailure(message: "\(parts[other].source) is shard \(shards[other].text), but \(first.source) is \(shards[0].text): the reports split the run differently")
        }
        var seen: [Int: String] = [:]
        for (part, shard) in zip(parts, shards) {
            if let earlier = seen[shard.index] {
                throw CommandFailure(message: "shard \(shard.text) given twice (\(earlier) and \(part.source)): the shards overlap")
            }
            seen[shard.index] = part.source
        }
        let missing = (1...count).filter { seen[$0] == nil }
        guard missing.isEmpty else {
            throw CommandFailure(message: "missing shard\(missing.count == 1 ? "" : "s") \(missing.map { "\($0)/\(count)" }.joined(separator: ", ")): "
                + "the verdict of the whole run needs every shard's report")
        }
        let total = parts[0].verdict.total
        if let other = parts.first(where: { $0.verdict.total != total }) {
            throw CommandFailure(message: "\(other.source) counts \(other.verdict.total) sessions in the run, \(first.source) \(total): the reports are not of one run")
        }
        if let other = parts.first(where: { $0.verdict.settings != first.verdict.settings }) {
            throw CommandFailure(message: "\(other.source) was replayed with '\(other.verdict.settings)', \(first.source) with '\(first.verdict.settings)': the reports are not of one run")
        }
        var owner = [String?](repeating: nil, count: total)
        for part in parts where part.verdict.shard != nil {
            for (index, _) in part.verdict.files {
                guard index >= 0, index < total else { throw CommandFailure(message: "\(part.source): session \(index) is outside the run's \(total)") }
                if let other = owner[index] {
                    throw CommandFailure(message: "session \(index) is in both \(other) and \(part.source): the shards overlap")
                }
                owner[index] = part.source
            }
        }
        let sessions = parts.reduce(0) { $0 + ($1.verdict.counts["sessions"] ?? 0) }
        guard sessions == total, count == 1 || !owner.contains(nil) else {
            throw CommandFailure(message: "the reports hold \(sessions) of the run's \(total) sessions: sessions are missing")
        }
        var merged = first.verdict
        merged.shard = nil
        merged.files = []
        merged.settings = ""
        merged.total = total
        for key in totals { merged.counts[key] = parts.reduce(0) { $0 + ($1.verdict.counts[key] ?? 0) } }
        merged.failedSessions = parts.reduce(0) { $0 + $1.verdict.failedSessions }
        // The run's order: by session position; a session's own lines keep their order.
        merged.failures = parts.flatMap(\.verdict.failures).enumerated()
            .sorted { ($0.element.session, $0.offset) < ($1.element.session, $1.offset) }.map(\.element)
        merged.notes = parts.flatMap(\.verdict.notes).sorted { $0.session < $1.session }
        return merged
    }
}

/// `ink-replay merge-reports`: the shards' `verify --json` reports as one verdict.
enum MergeReportsCommand: Command {
    static let name = "merge-reports"
    static let synopsis = "<report.json>..."
    static let overview = """
        OVERVIEW: Join the 'verify --shard k/n --json' reports of every shard of a run into the
        verdict of the whole run: the same line (or JSON object with --json), the same
        failures on standard error and the same exit code as one 'verify' over all the
        sessions. Refuses (exit 1) reports that are not every shard of one run, exactly
        once: a shard missing or given twice, shards of different splits, sessions
        overlapping or missing.
        """
    static let details = """
        ARGUMENTS:
          <report.json>           The shards' reports ('verify --json' output), in any order.
        """
    static let options = OptionTable([ReplayOptions.json("Print the JSON object 'verify --json' prints instead of the verdict line.")])

    static func run(_ arguments: inout ArgumentList) throws -> Int32 {
        guard !arguments.positional.isEmpty else { throw UsageError(message: "missing <report.json>") }
        var parts: [(source: String, verdict: VerifyVerdict)] = []
        for path in arguments.positional {
            let bytes = try SessionFiles.contents(of: path)
            guard bytes.count <= 1 << 30 else { throw CommandFailure(message: "\(path): larger than 1 GiB, not a report") }
            let value: JSONValue
            do { value = try JSONParser.parse(bytes) } catch { throw CommandFailure(message: "\(path): not JSON: \(error)") }
            parts.append((path, try VerifyVerdict(json: value, source: path)))
        }
        let verdict = try VerifyVerdict.merged(parts)
        print(arguments.flag("--json") ? verdict.json().serialized() : verdict.text)
        verdict.printFailures()
        return verdict.verified ? 0 : 1
    }
}
