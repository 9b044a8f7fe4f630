import Foundation
@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import SessionReplay
@_spi(Tooling) import InkCore

/// `ink-replay soak`: a long generated session through the engine and the bridge, in
/// simulated time, with a hostile and unreliable page; checks the ledger and the order of
/// every touch, and reports whether memory stays flat.
enum SoakCommand: Command {
    static let name = "soak"
    static let synopsis = ""
    static let overview = """
        OVERVIEW: Run a generated session of many simulated hours through the engine and the
        bridge (InkEngine): a student writing, dotting, tapping and two-finger scrolling
        with reused platform touch ids, some touches cancelled, late force updates; a page
        that answers on time, late or never, sends garbage, duplicates, answers for an old
        layout and forged answers, pushes region snapshots, stalls and scrolls. Every touch
        is audited as it finishes (all its samples delivered once, in order; its ledger).
        At each checkpoint: samples so far, the state the run holds (must stay small) and
        resident memory. Fails (exit 1) when a sample is dropped or pending at the end, the
        audit finds a problem, or resident memory grows by more than --max-growth between
        the first checkpoint and the last.
        """
    static let options = OptionTable(
        [Option("--hours", kind: .number("h", 0...1_000), help: "Simulated hours", default: "8"),
         Option("--seed", kind: .integer("n", 0...1_000_000_000_000_000), help: "Seed", default: "1"),
         Option("--checkpoint", kind: .number("minutes", 0.1...60_000), help: "Simulated minutes between checkpoints", default: "60"),
         Option("--max-growth", kind: .number("MiB", 0...100_000), help: "Allowed growth of resident memory", default: "16")],
        JobProgress.options(json: false), rules: [JobProgress.rule])

    static func run(_ arguments: inout ArgumentList) throws -> Int32 {
        guard arguments.positional.isEmpty else { throw UsageError(message: "unexpected argument '\(arguments.positional[0])'") }
        let hours = arguments.number("--hours") ?? 8
        let seed = arguments.integer("--seed").map { UInt64($0) } ?? 1
        let checkpoint = arguments.number("--checkpoint") ?? 60
        let maxGrowth = arguments.number("--max-growth") ?? 16
        var soak = SoakRun(
            configuration: SoakConfiguration(duration: hours * 3_600, seed: seed, checkpointInterval: checkpoint * 60),
            memoryProbe: ProcessMemory.residentBytes)
        let progress = try JobProgress.standardError(arguments, title: "soak", unit: "simulated hours", rateUnit: "simulated h/s",
                                                  decimals: 2, total: hours)
        let started = Date()
        let report = soak.run(progress: progress.map { progress in { progress.set(done: $0 / 3_600) } })
        let elapsed = Date().timeIntervalSince(started)
        progress?.finish()

        print("soak: \(format(hours)) simulated hours, seed \(seed), \(format(elapsed)) s of wall-clock time")
        print("  time      samples    touches   held   resident")
        for point in report.checkpoints {
            let resident = point.residentBytes.map { String(format: "%.1f MiB", Double($0) / 1_048_576) } ?? "-"
            print("  " + [pad(String(format: "%.2f h", point.time / 3_600), 8), pad("\(point.ledger.received)", 10),
                          pad("\(point.touches)", 9), pad("\(point.heldState)", 6), resident].joined(separator: " "))
        }
        let l = report.ledger
        print("ledger: received \(l.received) = inked \(l.inked) + released \(l.released) + cancelled \(l.cancelled) + pending \(l.pending); dropped \(l.dropped)")
        print("touches: \(report.touches) begun, \(report.touchesChecked) audited; evicted \(report.counters.touchesEvicted), cancelled \(report.counters.touchesCancelled), retracted \(report.counters.retractions)")
        let b = report.bridge
        print("bridge: \(b.queries) queries, \(b.cacheHits) from the cache, \(b.roundTrips) round trips, \(b.timeouts) timeouts, \(b.staleAnswers) stale, \(b.lateAnswers) late, \(b.duplicateAnswers) duplicate, \(b.unknownAnswers) unknown, \(b.refusedMessages) refused messages")
        print("page: " + report.pageBehaviour.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        let peak = ProcessMemory.peakResidentBytes()
        print("peak resident memory: " + String(format: "%.1f MiB", Double(peak) / 1_048_576))

        var failures = report.problems
        if report.problemCount > report.problems.count { failures.append("… \(report.problemCount - report.problems.count) more problems") }
        if !l.isBalanced { failures.append("the ledger does not balance: \(l.dropped) dropped, \(l.pending) pending") }
        let residents = report.checkpoints.compactMap(\.residentBytes)
        if residents.count < report.checkpoints.count {
            failures.append("resident memory could not be read at \(report.checkpoints.count - residents.count) checkpoints: the memory check cannot run")
        }
        if let first = residents.first, let last = residents.last, Double(last - first) > maxGrowth * 1_048_576 {
            failures.append(String(format: "resident memory grew by %.1f MiB (allowed %.1f)", Double(last - first) / 1_048_576, maxGrowth))
        }
        for failure in failures { printError("FAIL: \(failure)") }
        print(failures.isEmpty ? "soak: PASS" : "soak: FAIL")
        return failures.isEmpty ? 0 : 1
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
    }

    private static func format(_ value: Double) -> String { String(format: "%g", value) }
}
