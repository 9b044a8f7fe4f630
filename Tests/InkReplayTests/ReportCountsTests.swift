import Foundation
import Testing

/// Issue 40, classes 1 and 8: numbers read from a report or a recording's header taken on
/// trust before they were checked (a trap, a loop that never ends, an allocation of
/// petabytes, limits above the engine's), and reports that contradict themselves accepted.
/// Each case ends at once with exit 1 and a message naming the file and the field.
@Suite("merge-reports and recording headers: counts checked before they size anything; inconsistent reports refused")
struct ReportCountsTests {
    /// A `verify --json` report with these fields (the rest consistent and zero).
    static func report(sessions: Int = 0, totals: [String: Int] = [:], verified: Bool = true, failedSessions: Int = 0,
                       failures: String = "[]", shard: (index: Int, count: Int, total: Int)? = nil, files: String = "[]") -> String {
        var fields = ["sessions": sessions]
        for key in ["touches", "samples", "inked", "released", "cancelled", "refused", "dropped", "recordings", "identical"] {
            fields[key] = totals[key] ?? 0
        }
        let order = ["sessions", "touches", "samples", "inked", "released", "cancelled", "refused", "dropped", "recordings", "identical"]
        var text = "{" + order.map { "\"\($0)\":\(fields[$0] ?? 0)" }.joined(separator: ",")
        text += ",\"verified\":\(verified),\"failed_sessions\":\(failedSessions),\"failures\":\(failures),\"notes\":[]"
        if let shard {
            text += ",\"shard\":{\"index\":\(shard.index),\"count\":\(shard.count),\"sessions_total\":\(shard.total),\"options\":\"\",\"files\":\(files)}"
        }
        return text + "}"
    }

    static func write(_ text: String, _ name: String, in directory: URL) throws -> String {
        let path = directory.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Runs `script` in bash with `$0` the tool (``CLITests/shell(_:_:stdin:)``).
    static func shell(_ script: String, _ arguments: [String] = []) throws -> CLITests.Output {
        try CLITests.shell(script, arguments)
    }

    @Test("shard 0 of 0 (it trapped), shard 1 of 9e15 (it listed the missing shards forever), 9e15 sessions (it asked for 144 PB): refused naming the field")
    func hugeAndZeroCounts() throws {
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cases: [(String, String, String)] = [
            ("zero.json", Self.report(shard: (0, 0, 0)), "'shard.count' is 0; a run is cut into 1 to 100000 shards"),
            ("index.json", Self.report(shard: (4, 3, 0)), "'shard.index' is 4, outside 1 to 3"),
            ("many-shards.json", Self.report(shard: (1, 9_000_000_000_000_000, 0)), "'shard.count' is 9000000000000000"),
            ("many-sessions.json", Self.report(sessions: 9_000_000_000_000_000, shard: (1, 1, 9_000_000_000_000_000)),
             "'shard.files' lists 0 sessions, but 'sessions' is 9000000000000000"),
            ("total.json", Self.report(shard: (1, 2, 9_000_000_000_000_000)),
             "'sessions' is 0, but shard 1/2 of a run of 9000000000000000 sessions ('shard.sessions_total') holds 4500000000000000"),
            ("whole.json", Self.report(totals: ["touches": 9_007_199_254_740_992]), "'touches' is not a whole number from 0 to 9007199254740991"),
        ]
        for (name, text, message) in cases {
            let path = try Self.write(text, name, in: directory)
            let result = try CLITests.run("merge-reports", path)
            #expect(result.status == 1, "\(name): \(result.status) \(result.stderr)")
            #expect(result.stderr.contains("\(path): ") && result.stderr.contains(message), "\(name): \(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
        // The largest split there is: every missing shard is not listed, only the first ten.
        let first = try Self.write(Self.report(shard: (1, 100_000, 0)), "first.json", in: directory)
        let result = try CLITests.run("merge-reports", first)
        #expect(result.status == 1 && result.stderr.contains("missing shards 2/100000, 3/100000"), "\(result.stderr)")
        #expect(result.stderr.contains("11/100000 and 99989 more: "), "\(result.stderr)")
    }

    /// The messages name these through `PathText` and `InputText`, and the error printer
    /// escapes whatever else a message holds: either alone keeps the terminal safe (this
    /// passed before the messages named them so; it guards both).
    @Test("what a report says and what it is called reach the terminal escaped: a name with a control character, options and files carrying an escape sequence")
    func reportTextIsEscaped() throws {
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // A report that is not JSON, named with an escape character.
        let named = try Self.write("not json", "r\u{1B}[31m.json", in: directory)
        var result = try CLITests.run("merge-reports", named)
        #expect(result.status == 1 && result.stderr.contains("r\\u{1B}[31m.json: not JSON"), "\(result.stderr)")
        #expect(!result.stderr.contains("\u{1B}"))
        // Two shards whose options differ, one carrying an escape sequence.
        let first = try Self.write(Self.report(shard: (1, 2, 0)), "a.json", in: directory)
        let second = try Self.write(Self.report(shard: (2, 2, 0)).replacingOccurrences(of: #""options":"""#, with: #""options":"\u001b[2J""#),
                                    "b.json", in: directory)
        result = try CLITests.run("merge-reports", first, second)
        #expect(result.status == 1 && result.stderr.contains("'\\u{1B}[2J'") && !result.stderr.contains("\u{1B}"), "\(result.stderr)")
        // Shards out of order, their files carrying an escape sequence.
        let one = #"[{"session":0,"file":"z\u001b[2J.jsonl"}]"#
        let two = #"[{"session":1,"file":"a\u001b[2J.jsonl"}]"#
        let third = try Self.write(Self.report(sessions: 1, shard: (1, 2, 2), files: one), "c.json", in: directory)
        let fourth = try Self.write(Self.report(sessions: 1, shard: (2, 2, 2), files: two), "d.json", in: directory)
        result = try CLITests.run("merge-reports", third, fourth)
        #expect(result.status == 1 && result.stderr.contains("which sorts before z\\u{1B}[2J.jsonl"), "\(result.stderr)")
        #expect(!result.stderr.contains("\u{1B}"))
    }

    @Test("a report without 'shard' claiming 9e15 sessions (it was accepted: it lists none) is refused naming the field; 100,000,000 is taken")
    func unshardedSessionCount() throws {
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let huge = try Self.write(Self.report(sessions: 9_000_000_000_000_000), "huge.json", in: directory)
        let result = try CLITests.run("merge-reports", huge)
        #expect(result.status == 1 && result.stdout.isEmpty, "\(result.status) \(result.stdout)")
        #expect(result.stderr.contains("\(huge): an inconsistent report: 'sessions' is 9000000000000000, more than the 100000000 a report without 'shard' may claim"),
                "\(result.stderr)")
        let largest = try Self.write(Self.report(sessions: 100_000_000), "largest.json", in: directory)
        let taken = try CLITests.run("merge-reports", largest)
        #expect(taken.status == 0 && taken.stdout.hasPrefix("verified 100000000 sessions"), "\(taken.stderr)")
    }

    @Test("a 'run --shard --json' report that contradicts itself (percentiles, rows, failures, positions) is refused naming the file and the field")
    func inconsistentRunReports() throws {
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fixtures = ["decimal-point.jsonl", "never-answered.jsonl", "long-stroke.jsonl"].map { CLITests.fixtures + "/" + $0 }
        let genuine = try CLITests.run(["run", "--json", "--shard", "1/1"] + fixtures)
        #expect(genuine.status == 0)
        let text = genuine.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(text.contains(#""first_ink_us":[[30000,2]]"#) && text.contains(#""first_ink_ms":{"p50":30,"p95":250,"max":250,"count":4}"#), "\(text)")
        let cases: [(String, String, String, String)] = [
            ("latency.json", #""first_ink_us":[[30000,2]]"#, #""first_ink_us":[[31000,2]]"#,
             "'per_session.first_ink_ms' of session 0 is not what its latencies ('first_ink_us') give"),
            ("run-p95.json", #""first_ink_ms":{"p50":30,"p95":250,"max":250,"count":4}"#, #""first_ink_ms":{"p50":30,"p95":30,"max":250,"count":4}"#,
             "'first_ink_ms' is not what the sessions' latencies"),
            ("unsorted.json", #""first_ink_us":[[30000,2]]"#, #""first_ink_us":[[30000,1],[30000,1]]"#,
             "'per_session.first_ink_us' lists 30000 with count 1"),
            ("rows.json", #""touches":2,"samples":89,"inked":89"#, #""touches":3,"samples":89,"inked":89"#,
             "'touches' is "),
            ("positions.json", #""verified":true,"session":1"#, #""verified":true,"session":0"#,
             "'per_session' lists session 0 after session 0"),
            ("unverified.json", #""verified":true,"session":2"#, #""verified":false,"session":2"#,
             "'failures' names no line for session 2"),
            ("whole.json", #""report":"run","#, "", "a whole run's 'run --json' report (no --shard)"),
            ("kind.json", #""report":"run","#, #""report":"stats","#, "not a 'verify --json' report: 'report' is not"),
            ("share.json", #""sessions_total":3"#, #""sessions_total":9000000000000000"#,
             "'sessions' is 3, but shard 1/1 of a run of 9000000000000000 sessions"),
        ]
        for (name, old, new, message) in cases {
            #expect(text.contains(old), "\(name)")
            let path = try Self.write(text.replacingOccurrences(of: old, with: new), name, in: directory)
            let result = try CLITests.run("merge-reports", path)
            #expect(result.status == 1, "\(name): \(result.status) \(result.stdout) \(result.stderr)")
            #expect(result.stderr.contains("\(path): ") && result.stderr.contains(message), "\(name): \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(name)")
        }
    }

    @Test("totals that add past 2^53 - 1, or past Int (1,025 shards: it trapped on overflow), are refused naming the report and the field")
    func totalsOverflow() throws {
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let big = 9_000_000_000_000_000
        let paths = try (1...1_025).map { k in
            try Self.write(Self.report(totals: ["touches": big], shard: (k, 1_025, 0)), "shard-\(k).json", in: directory)
        }
        let all = try CLITests.run(["merge-reports"] + paths)
        #expect(all.status == 1, "\(all.status) \(all.stderr)")
        #expect(all.stderr.contains("shard-2.json: 'touches' takes the reports' total past 9007199254740991 (2^53 - 1)"), "\(all.stderr)")
        // Two shards whose samples add to 2^53: past what JSON carries exactly (it printed 9007199254740992).
        let half = 4_503_599_627_370_496
        let two = try (1...2).map { k in
            try Self.write(Self.report(totals: ["samples": half, "inked": half], shard: (k, 2, 0)), "half-\(k).json", in: directory)
        }
        let pair = try CLITests.run(["merge-reports"] + two)
        #expect(pair.status == 1 && pair.stderr.contains("half-2.json: 'samples' takes the reports' total past"), "\(pair.stdout) \(pair.stderr)")
    }

    @Test("a report over 64 MiB on a pipe is refused once the reading passes the limit, not read whole first")
    func pipeOverLimit() throws {
        let result = try Self.shell(#"head -c 100000000 /dev/zero | "$0" merge-reports /dev/stdin"#)
        #expect(result.status == 1, "\(result.status) \(result.stderr)")
        #expect(result.stderr.contains("/dev/stdin: larger than 64 MiB; not a report"), "\(result.stderr)")
        // A stroke file for smooth or bench strokes has the whole-session bound.
        // (A regular target: smooth refuses /dev/null as an output before it reads anything.)
        let smooth = try Self.shell(#"out="$(mktemp -d)/smoothed.jsonl"; head -c 100000000 /dev/zero | "$0" smooth /dev/stdin -o "$out""#)
        #expect(smooth.status == 1 && smooth.stderr.contains("/dev/stdin: larger than 64 MiB; 'smooth' holds a whole stroke file"), "\(smooth.stderr)")
        let bench = try Self.shell(#"head -c 100000000 /dev/zero | "$0" bench strokes /dev/stdin --passes 1"#)
        #expect(bench.status == 1 && bench.stderr.contains("/dev/stdin: larger than 64 MiB; 'bench strokes' holds"), "\(bench.stderr)")
    }

    @Test("a report that contradicts itself (verified false with 0 failed sessions: it exited 0) is refused naming the file and the field")
    func inconsistentReports() throws {
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let failure = #"[{"file":"a.jsonl","line":2,"message":"touch 1: no such active touch","session":0}]"#
        let cases: [(String, String, String)] = [
            ("unverified.json", Self.report(sessions: 1, verified: false), "'verified' is false, but 'failed_sessions' is 0"),
            ("verified.json", Self.report(sessions: 1, failedSessions: 1, failures: failure), "'verified' is true, but 'failed_sessions' is 1"),
            ("no-lines.json", Self.report(sessions: 1, verified: false, failedSessions: 1), "'failed_sessions' is 1, but 'failures' names 0 sessions"),
            ("more-failed.json", Self.report(sessions: 0, verified: false, failedSessions: 1, failures: failure),
             "'failed_sessions' is 1, more than the report's 0 sessions"),
            ("ledger.json", Self.report(sessions: 1, totals: ["samples": 5, "inked": 3]), "'samples' is 5, but inked + released + cancelled + refused + dropped is 3"),
            ("identical.json", Self.report(sessions: 1, totals: ["recordings": 1, "identical": 2]), "'identical' is 2, more than its 1 recordings"),
            ("stranger.json", Self.report(sessions: 1, verified: false, failedSessions: 1,
                                          failures: #"[{"file":"a.jsonl","message":"x","session":7}]"#),
             "'failures.session' names session 7, which is not one of the report's"),
            ("twice.json", Self.report(sessions: 2, shard: (1, 1, 2), files: #"[{"session":1,"file":"a"},{"session":1,"file":"b"}]"#),
             "'shard.files' lists session 1 after session 1"),
            ("outside.json", Self.report(sessions: 1, shard: (1, 1, 1), files: #"[{"session":5,"file":"a"}]"#),
             "'shard.files' names session 5, outside the run's 1 sessions"),
        ]
        for (name, text, message) in cases {
            let path = try Self.write(text, name, in: directory)
            let result = try CLITests.run("merge-reports", path)
            #expect(result.status == 1, "\(name): \(result.status) \(result.stdout) \(result.stderr)")
            #expect(result.stderr.contains("\(path): an inconsistent report: \(message)"), "\(name): \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(name)")
        }
    }

    /// `x` followed by U+001B sorts before `x0`, but the reports show it as `x\u{1B}`, which
    /// sorts after `x0`: the check read the shown names and refused this run as cut from two.
    @Test("the shards of one run whose names escape differently from how they sort still merge; shards of two runs with escaped names are still refused")
    func escapedNamesKeepTheirOrder() throws {
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let corpus = directory.appendingPathComponent("run")
        try FileManager.default.createDirectory(at: corpus, withIntermediateDirectories: true)
        for name in ["x\u{1B}.jsonl", "x0.jsonl"] {
            try FileManager.default.copyItem(atPath: CLITests.fixtures + "/decimal-point.jsonl", toPath: corpus.appendingPathComponent(name).path)
        }
        var paths: [String] = []
        for k in 1...2 {
            let shard = try CLITests.run("verify", corpus.path, "--shard", "\(k)/2", "--json")
            #expect(shard.status == 0, "\(shard.stderr)")
            paths.append(try Self.write(shard.stdout, "shard-\(k).json", in: directory))
        }
        #expect(try String(contentsOfFile: paths[0], encoding: .utf8).contains(#"x\\u{1B}.jsonl"#))
        let merged = try CLITests.run(["merge-reports"] + paths)
        let full = try CLITests.run("verify", corpus.path)
        #expect(merged.status == 0 && merged.stdout == full.stdout, "\(merged.stderr)")
        // Shard 1 holds `x0` and shard 2 `x` followed by an escape: the names could stand
        // in either order (what follows the escape is not known), so nothing is claimed.
        let escaped = #"[{"session":1,"file":"x\\u{1B}.jsonl"}]"#
        let x0 = try Self.write(Self.report(sessions: 1, shard: (1, 2, 2), files: #"[{"session":0,"file":"x0.jsonl"}]"#), "s1.json", in: directory)
        let second = try Self.write(Self.report(sessions: 1, shard: (2, 2, 2), files: escaped), "s2.json", in: directory)
        var result = try CLITests.run("merge-reports", x0, second)
        #expect(result.status == 0, "\(result.stderr)")
        // Decided by the text before the escape: `y` sorts after `x` and anything after it,
        // and so does `z` followed by an escape.
        for (name, json, file) in [("y", "y.jsonl", "y.jsonl"), ("z", #"z\\u{7F}.jsonl"#, "z\\u{7F}.jsonl")] {
            let first = try Self.write(Self.report(sessions: 1, shard: (1, 2, 2), files: #"[{"session":0,"file":""# + json + #""}]"#), "\(name).json", in: directory)
            result = try CLITests.run("merge-reports", first, second)
            #expect(result.status == 1 && result.stderr.contains("holds x\\u{1B}.jsonl (session 1), which sorts before \(file)"), "\(name): \(result.stderr)")
        }
    }

    @Test("shards of two runs of the same size are refused: the sessions of one run are cut in path order")
    func partsOfDifferentRuns() throws {
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for corpus in ["a", "b"] {
            let target = directory.appendingPathComponent(corpus)
            try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
            for file in ["decimal-point.jsonl", "tap-button.jsonl", "drag-block.jsonl", "long-stroke.jsonl"] {
                try FileManager.default.copyItem(atPath: CLITests.fixtures + "/" + file, toPath: target.appendingPathComponent(file).path)
            }
        }
        var paths: [String] = []
        for (corpus, k) in [("b", 1), ("a", 2)] {
            let shard = try CLITests.run("verify", directory.appendingPathComponent(corpus).path, "--shard", "\(k)/2", "--json")
            paths.append(try Self.write(shard.stdout, "\(corpus)-\(k).json", in: directory))
        }
        let result = try CLITests.run(["merge-reports"] + paths)
        #expect(result.status == 1, "\(result.stdout) \(result.stderr)")
        #expect(result.stderr.contains("the shards are not cut from one run's sessions"), "\(result.stderr)")
        // The shards of one run still merge.
        var same: [String] = []
        for k in 1...2 {
            let shard = try CLITests.run("verify", directory.appendingPathComponent("a").path, "--shard", "\(k)/2", "--json")
            same.append(try Self.write(shard.stdout, "a-\(k)-of-2.json", in: directory))
        }
        let merged = try CLITests.run(["merge-reports"] + same)
        #expect(merged.status == 0 && merged.stdout.hasPrefix("verified 4 sessions"), "\(merged.stderr)")
    }

    /// A live recording (format version 2, no chain) whose header names `configuration`,
    /// with `touches` touches that begin and never end.
    static func recording(configuration: String, touches: Int) -> String {
        var text = #"{"format":"scratchpad-ink-session","version":2,"canvas":{"width":1024,"height":768},"recorder":{"engine":"1.0","configuration":{"#
            + configuration + "}}}\n"
        for i in 0..<touches {
            let t = 1 + Double(i) * 0.01
            text += #"{"kind":"touch","t":\#(t),"touch":\#(i + 1),"phase":"began","tool":"pencil","samples":[{"t":\#(t),"x":100,"y":100}]}"# + "\n"
        }
        return text
    }

    @Test("a recording whose header lifts the engine's limits (active_touches 2^31 - 1, round_trips_in_flight, decision_timeout 1e300) is refused naming line 1 and the field",
          arguments: [
              (#""limits":{"active_touches":2147483647}"#, "recorder.configuration.limits.active_touches: must be 1 to 64 (the engine's maximum), not 2147483647"),
              (#""limits":{"round_trips_in_flight":2147483647}"#, "recorder.configuration.limits.round_trips_in_flight: must be 1 to 256"),
              (#""limits":{"queued_samples_per_touch":8193}"#, "recorder.configuration.limits.queued_samples_per_touch: must be 1 to 8192"),
              (#""limits":{"message_bytes":4194305}"#, "recorder.configuration.limits.message_bytes: must be 1 to 4194304"),
              (#""limits":{"regions":80001}"#, "recorder.configuration.limits.regions: must be 1 to 80000"),
              (#""decision_timeout":1e300"#, "recorder.configuration.decision_timeout: must be at most 3600 seconds (the engine's maximum)"),
          ])
    func headerAboveTheEngine(configuration: String, message: String) throws {
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try Self.write(Self.recording(configuration: configuration, touches: 200), "lifted.jsonl", in: directory)
        for command in [["verify"], ["run"], ["stats"]] {
            let result = try CLITests.run(command + [path])
            #expect(result.status == 1, "\(command): \(result.status) \(result.stderr)")
            #expect(result.stderr.contains("\(path):1: \(message)"), "\(command): \(result.stderr)")
        }
        // At the engine's maximum the header is taken.
        let most = try Self.write(Self.recording(configuration: #""decision_timeout":3600,"limits":{"active_touches":64,"round_trips_in_flight":256,"queued_samples_per_touch":8192}"#, touches: 200),
                                  "most.jsonl", in: directory)
        let taken = try CLITests.run("stats", most)
        #expect(taken.status == 0, "\(taken.stderr)")
    }
}
