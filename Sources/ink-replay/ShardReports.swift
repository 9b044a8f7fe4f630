@_spi(Tooling) import HitTestBridge

/// A shard's `--json` report as `merge-reports` checks it, whatever command wrote it
/// (`verify`, `run`): which shard, of how many sessions, with which options, and its
/// sessions' positions and files.
protocol ShardPart {
    var shard: Shard? { get }
    /// How many sessions the whole run holds (every shard's).
    var total: Int { get }
    /// The replay options the shard was run with (`--cache on`), the same for every shard.
    var settings: String { get }
    /// With a shard: its sessions' positions in the whole run and their files.
    var files: [(index: Int, file: String)] { get }
    /// A total that adds up over the shards (`sessions`, `touches`, …).
    func value(_ key: String) -> Int
}

/// The checks `merge-reports` makes of shard reports of any kind: each report's shard
/// against its own counts (before they size anything), then the reports against each other.
enum ShardReports {
    /// The most sessions a report without `shard` (a whole run's) may claim: it lists none
    /// of them, so nothing else bounds its count. One process replays a whole run and holds
    /// every session's report and path (about 1 KB each: `verify` over 20,000 sessions peaks
    /// 8.7 MB above 11,111; some 100 GB at this number); a larger run is sharded, and a
    /// shard lists its sessions.
    static let maxUnshardedSessions = 100_000_000

    /// Refuses a shard whose index, count, share of the run and list of sessions contradict
    /// each other or its `sessions`, or a whole run's report past ``maxUnshardedSessions``.
    /// Every number is checked before it sizes anything.
    static func check(_ part: some ShardPart, sessions: Int, source: String, command: String) throws {
        func fail(_ field: String, _ reason: String) -> ReportError {
            ReportError(source: source, field: field, reason: reason, kind: .inconsistent, command: command)
        }
        guard let shard = part.shard else {
            guard sessions <= maxUnshardedSessions else {
                throw fail("sessions", "is \(sessions), more than the \(maxUnshardedSessions) a report without 'shard' may claim "
                    + "(it lists none of them; a run that large is sharded, and each shard lists its sessions)")
            }
            return
        }
        guard shard.count >= 1, shard.count <= Shard.maxCount else {
            throw fail("shard.count", "is \(shard.count); a run is cut into 1 to \(Shard.maxCount) shards")
        }
        guard shard.index >= 1, shard.index <= shard.count else {
            throw fail("shard.index", "is \(shard.index), outside 1 to \(shard.count) (its 'shard.count')")
        }
        let share = shard.range(of: part.total).count
        guard sessions == share else {
            throw fail("sessions", "is \(sessions), but shard \(shard.text) of a run of \(part.total) sessions ('shard.sessions_total') holds \(share)")
        }
        let files = part.files
        guard files.count == sessions else {
            throw fail(command == "run" ? "per_session" : "shard.files", "lists \(files.count) sessions, but 'sessions' is \(sessions)")
        }
        let list = command == "run" ? "per_session" : "shard.files"
        for (previous, entry) in zip(files, files.dropFirst()) where entry.index <= previous.index {
            throw fail(list, "lists session \(entry.index) after session \(previous.index) (a shard lists each of its sessions once, in order)")
        }
        if let last = files.last, last.index >= part.total {
            throw fail(list, "names session \(last.index), outside the run's \(part.total) sessions ('shard.sessions_total')")
        }
    }

    /// The totals named by `keys` over every report, once the reports are every shard of
    /// one run exactly once (`keys` holds `sessions`).
    /// - Throws: ``CommandFailure`` when the reports are not the shards of one run: split
    ///   differently, a shard given twice or missing, sessions overlapping or missing, or
    ///   totals past 2^53 - 1.
    static func join<Part: ShardPart>(_ parts: [(source: String, report: Part)], summing keys: [String]) throws -> [String: Int] {
        guard let first = parts.first else { throw UsageError(message: "missing <report.json>") }
        let shards = parts.map { $0.report.shard ?? Shard(index: 1, count: 1) }
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
        // Every shard index is within 1...count (each report was checked), and none twice.
        guard seen.count == count else {
            let missing = (1...count).lazy.filter { seen[$0] == nil }
            let named = missing.prefix(10).map { "\($0)/\(count)" }
            let more = count - seen.count - named.count
            throw CommandFailure(message: "missing shard\(count - seen.count == 1 ? "" : "s") \(named.joined(separator: ", "))"
                + (more > 0 ? " and \(more) more" : "") + ": the verdict of the whole run needs every shard's report")
        }
        let total = first.report.total
        if let other = parts.first(where: { $0.report.total != total }) {
            throw CommandFailure(message: "\(other.source) counts \(other.report.total) sessions in the run, \(first.source) \(total): the reports are not of one run")
        }
        if let other = parts.first(where: { $0.report.settings != first.report.settings }) {
            throw CommandFailure(message: "\(other.source) was replayed with \(InputText.quoted(other.report.settings, limit: 200)), \(first.source) with \(InputText.quoted(first.report.settings, limit: 200)): the reports are not of one run")
        }
        // The totals, added with a check: no report's number is trusted to fit with the others'.
        var sums: [String: Int] = [:]
        for key in keys {
            var sum = 0
            for part in parts {
                let (added, overflow) = sum.addingReportingOverflow(part.report.value(key))
                guard !overflow, added <= VerifyVerdict.maxWhole else {
                    throw CommandFailure(message: "\(part.source): '\(key)' takes the reports' total past \(VerifyVerdict.maxWhole) (2^53 - 1): the reports are not of one run")
                }
                sum = added
            }
            sums[key] = sum
        }
        // Each shard's sessions are its share of the run's (checked per report), so the shares
        // add up to the run's; the list of owners is as long as the files the reports list.
        guard sums["sessions"] == total else {
            throw CommandFailure(message: "the reports hold \(sums["sessions"] ?? 0) of the run's \(total) sessions: sessions are missing")
        }
        if count > 1 {
            var owner = [String?](repeating: nil, count: total)
            for part in parts {
                for (index, _) in part.report.files {
                    if let other = owner[index] {
                        throw CommandFailure(message: "session \(index) is in both \(other) and \(part.source): the shards overlap")
                    }
                    owner[index] = part.source
                }
            }
            // The run's sessions sorted by path were cut into the shards in order: the last
            // file of a shard sorts before the first of the next (a shard of another corpus
            // of the same size does not). Reports show names escaped, so the order is read
            // only where the shown names decide it (`ShownName`): nothing is refused on a
            // guess.
            let ordered = parts.sorted { ($0.report.shard?.index ?? 1) < ($1.report.shard?.index ?? 1) }
            var previous: (source: String, ends: ShownName.Ends)?
            for part in ordered {
                guard let ends = ShownName.Ends(part.report.files) else { continue }
                if let previous {
                    for low in ends.lows {
                        for high in previous.ends.highs where low.surelyBefore(high) {
                            throw CommandFailure(message: "\(part.source) holds \(PathText.shown(low.shown)) (session \(low.session)), which sorts before \(PathText.shown(high.shown)) "
                                + "(session \(high.session)) of \(previous.source), an earlier shard: the shards are not cut from one run's sessions")
                        }
                    }
                }
                previous = (part.source, ends)
            }
        }
        return sums
    }
}

/// A session's file name as a report shows it (``PathText/shown(_:)``), read for the order
/// in which the run sorted its sessions (by path, then position). Showing a name is not
/// reversible and can move it in that order: `x` followed by an escape character (U+001B,
/// which sorts before `0`) is shown as `x\u{1B}`, which sorts after `x0`. So a name is known exactly
/// only up to its first escape (`\u{…}`, `\x{…}`), and an order the shown text does not
/// decide is not claimed.
struct ShownName {
    let shown: String
    let session: Int
    /// The shown text before the first escape: the whole name when ``isExact``.
    let known: Substring
    let isExact: Bool

    init(shown: String, session: Int) {
        self.shown = shown
        self.session = session
        let escape = InputText.firstEscape(in: shown)
        known = shown[..<(escape ?? shown.endIndex)]
        isExact = escape == nil
    }

    /// Whether the run sorted this session before `other`, whatever names the two shown
    /// names stand for: `false` when the shown text does not decide it. A name that is not
    /// exact is its ``known`` text followed by more.
    func surelyBefore(_ other: ShownName) -> Bool {
        switch (isExact, other.isExact) {
        case (true, true):
            return (known, session) < (other.known, other.session)
        case (true, false):
            // Before anything that starts with `other.known` and goes on, unless it starts
            // with it too and goes on differently.
            return known == other.known || (!known.hasPrefix(other.known) && known < other.known)
        case (false, _):
            // Everything that starts with `known` sorts before `other` when `other` does not
            // start with it and sorts after it.
            return !other.known.hasPrefix(known) && known < other.known
        }
    }

    /// A shard's first and last sessions as far as the shown names tell: the first and last
    /// of its exact names, and of its other names by their known text.
    struct Ends {
        let lows: [ShownName]
        let highs: [ShownName]

        init?(_ files: [(index: Int, file: String)]) {
            var exactLow: ShownName?, exactHigh: ShownName?, otherLow: ShownName?, otherHigh: ShownName?
            for (index, file) in files {
                let name = ShownName(shown: file, session: index)
                if name.isExact {
                    if exactLow.map({ (name.known, index) < ($0.known, $0.session) }) ?? true { exactLow = name }
                    if exactHigh.map({ (name.known, index) > ($0.known, $0.session) }) ?? true { exactHigh = name }
                } else {
                    if otherLow.map({ name.known < $0.known }) ?? true { otherLow = name }
                    if otherHigh.map({ name.known > $0.known }) ?? true { otherHigh = name }
                }
            }
            lows = [exactLow, otherLow].compactMap { $0 }
            highs = [exactHigh, otherHigh].compactMap { $0 }
            if lows.isEmpty { return nil }
        }
    }
}
