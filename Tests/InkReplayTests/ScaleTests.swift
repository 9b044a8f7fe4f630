import Foundation
@_spi(Tooling) import InkRecording
import Testing
@testable import ink_replay

/// CI at scale (issue 30, item 5): `--jobs`, `--shard` with `merge-reports`, `--junit`, on a
/// corpus with one broken log whose name needs escaping.
@Suite("verify and run at scale: jobs, shards, JUnit")
struct ScaleTests {
    static let brokenName = "bro<ken> & \"quoted\".jsonl"

    /// Two copies of the fixtures and one log cut off mid-line.
    static func corpus() throws -> URL {
        let directory = try CLITests.temporaryDirectory()
        for copy in ["a", "b"] {
            let target = directory.appendingPathComponent(copy)
            try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
            for file in try FileManager.default.contentsOfDirectory(atPath: CLITests.fixtures) where file.hasSuffix(".jsonl") {
                try FileManager.default.copyItem(atPath: CLITests.fixtures + "/" + file, toPath: target.appendingPathComponent(file).path)
            }
        }
        let whole = try Data(contentsOf: URL(fileURLWithPath: CLITests.fixtures + "/long-stroke.jsonl"))
        try whole.prefix(3_000).write(to: directory.appendingPathComponent("b").appendingPathComponent(brokenName))
        return directory
    }

    @Test("--jobs 2 prints what --jobs 1 prints, byte for byte, with the same exit code", arguments: [["verify"], ["verify", "--json"], ["run"], ["run", "--json"]])
    func jobs(command: [String]) throws {
        let corpus = try Self.corpus()
        defer { try? FileManager.default.removeItem(at: corpus) }
        let one = try CLITests.run(command + [corpus.path, "--jobs", "1"])
        let two = try CLITests.run(command + [corpus.path, "--jobs", "2"])
        let many = try CLITests.run(command + [corpus.path, "-j", "7"])
        #expect(one.status == 1)
        #expect(one.stderr.contains(Self.brokenName))
        for other in [two, many] {
            #expect(other.status == one.status)
            #expect(other.stdout == one.stdout)
            #expect(other.stderr == one.stderr)
        }
    }

    @Test("--progress still counts every session with --jobs 2")
    func progressWithJobs() throws {
        let corpus = try Self.corpus()
        defer { try? FileManager.default.removeItem(at: corpus) }
        let result = try CLITests.run("verify", corpus.path, "--jobs", "2", "--progress")
        let sessions = try SessionFiles.expand([corpus.path]).count
        let last = try #require(result.stderr.split(separator: "\n").last { $0.hasPrefix("verify: ") })
        #expect(last.hasPrefix("verify: \(sessions) of \(sessions) sessions, "))
    }

    @Test("the shards partition the sorted sessions: each once, in runs of nearly equal length")
    func partition() {
        let files = (0..<23).map { "f\(($0 * 7) % 23)" }
        for count in [1, 2, 3, 5, 23, 30] {
            let shares = (1...count).map { CIOptions.share(of: files, shard: Shard(index: $0, count: count)) }
            #expect(shares.flatMap { $0 }.sorted() == Array(files.indices))
            let sizes = shares.map(\.count)
            #expect((sizes.max() ?? 0) - (sizes.min() ?? 0) <= 1)
            // Consecutive in path order: every path of shard k sorts before every path of shard k+1.
            for (a, b) in zip(shares, shares.dropFirst()) {
                if let last = a.map({ files[$0] }).max(), let first = b.map({ files[$0] }).min() { #expect(last < first) }
            }
        }
    }

    @Test("merge-reports of every shard equals one full run (text, JSON, failures, exit code); a missing or repeated shard is refused")
    func shardsMerge() throws {
        let corpus = try Self.corpus()
        defer { try? FileManager.default.removeItem(at: corpus) }
        var reports: [String] = []
        for k in 1...3 {
            let shard = try CLITests.run("verify", corpus.path, "--shard", "\(k)/3", "--json")
            let path = corpus.appendingPathComponent("shard-\(k).json").path
            try shard.stdout.write(toFile: path, atomically: true, encoding: .utf8)
            reports.append(path)
        }
        let full = try CLITests.run("verify", corpus.path)
        let merged = try CLITests.run(["merge-reports"] + reports.reversed())
        #expect(full.status == 1 && merged.status == 1)
        #expect(merged.stdout == full.stdout)
        #expect(merged.stderr == full.stderr)
        let fullJSON = try CLITests.run("verify", corpus.path, "--json")
        let mergedJSON = try CLITests.run(["merge-reports", "--json"] + reports)
        #expect(mergedJSON.stdout == fullJSON.stdout && mergedJSON.status == fullJSON.status)

        let missing = try CLITests.run(["merge-reports"] + reports.dropLast())
        #expect(missing.status == 1 && missing.stderr.contains("missing shard 3/3"))
        let twice = try CLITests.run(["merge-reports"] + reports + [reports[0]])
        #expect(twice.status == 1 && twice.stderr.contains("shard 1/3 given twice"))
        let other = try CLITests.run("verify", corpus.path, "--shard", "1/2", "--json")
        let otherPath = corpus.appendingPathComponent("other.json").path
        try other.stdout.write(toFile: otherPath, atomically: true, encoding: .utf8)
        let mixed = try CLITests.run("merge-reports", reports[1], reports[2], otherPath)
        #expect(mixed.status == 1 && mixed.stderr.contains("split the run differently"))
        let cached = try CLITests.run("verify", corpus.path, "--shard", "3/3", "--json", "--cache", "on")
        let cachedPath = corpus.appendingPathComponent("cached.json").path
        try cached.stdout.write(toFile: cachedPath, atomically: true, encoding: .utf8)
        let unlike = try CLITests.run("merge-reports", reports[0], reports[1], cachedPath)
        #expect(unlike.status == 1 && unlike.stderr.contains("replayed with '--cache on'"), "\(unlike.stderr)")
    }

    @Test("merge-reports of every shard of 'run --json' (n = 1, 2, 3) equals one full run: table, JSON, failures, exit code; with replay options too",
          arguments: [[String](), ["--oracle", "regions", "--cache", "on"]])
    func runShardsMerge(options: [String]) throws {
        let corpus = try Self.corpus()
        defer { try? FileManager.default.removeItem(at: corpus) }
        let full = try CLITests.run(["run", corpus.path] + options)
        let fullJSON = try CLITests.run(["run", corpus.path, "--json"] + options)
        #expect(full.status == 1 && fullJSON.status == 1 && full.stderr.contains(Self.brokenName))
        for n in 1...3 {
            var reports: [String] = []
            for k in 1...n {
                let shard = try CLITests.run(["run", corpus.path, "--shard", "\(k)/\(n)", "--json"] + options)
                let path = corpus.appendingPathComponent("run-\(k)-of-\(n).json").path
                try shard.stdout.write(toFile: path, atomically: true, encoding: .utf8)
                reports.append(path)
            }
            let merged = try CLITests.run(["merge-reports"] + reports.reversed())
            #expect(merged.stdout == full.stdout, "n = \(n): \(merged.stderr)")
            #expect(merged.stderr == full.stderr && merged.status == full.status, "n = \(n)")
            let mergedJSON = try CLITests.run(["merge-reports", "--json"] + reports)
            #expect(mergedJSON.stdout == fullJSON.stdout && mergedJSON.stderr == fullJSON.stderr && mergedJSON.status == fullJSON.status,
                    "n = \(n): \(mergedJSON.stderr)")
            if n == 3 {
                let missing = try CLITests.run(["merge-reports"] + reports.dropLast())
                #expect(missing.status == 1 && missing.stderr.contains("missing shard 3/3"), "\(missing.stderr)")
                let twice = try CLITests.run(["merge-reports"] + reports + [reports[1]])
                #expect(twice.status == 1 && twice.stderr.contains("shard 2/3 given twice"), "\(twice.stderr)")
            }
        }
    }

    @Test("merge-reports refuses 'verify' and 'run' reports together, and a whole run's 'run --json', naming the file")
    func mixedReportsRefused() throws {
        let corpus = try Self.corpus()
        defer { try? FileManager.default.removeItem(at: corpus) }
        func report(_ words: [String], _ name: String) throws -> String {
            let path = corpus.appendingPathComponent(name).path
            try CLITests.run(words + [corpus.path]).stdout.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        let verify1 = try report(["verify", "--json", "--shard", "1/2"], "verify-1.json")
        let run2 = try report(["run", "--json", "--shard", "2/2"], "run-2.json")
        let run1 = try report(["run", "--json", "--shard", "1/2"], "run-1.json")
        let verify2 = try report(["verify", "--json", "--shard", "2/2"], "verify-2.json")
        let mixed = try CLITests.run("merge-reports", verify1, run2)
        #expect(mixed.status == 1 && mixed.stdout.isEmpty)
        #expect(mixed.stderr.contains("\(run2): a 'run --json' report, but \(verify1) is a 'verify --json' report"), "\(mixed.stderr)")
        let other = try CLITests.run("merge-reports", run1, verify2, "--json")
        #expect(other.status == 1 && other.stdout.isEmpty)
        #expect(other.stderr.contains("\(verify2): a 'verify --json' report, but \(run1) is a 'run --json' report"), "\(other.stderr)")
        let whole = try report(["run", "--json"], "run-whole.json")
        let unsharded = try CLITests.run("merge-reports", whole)
        #expect(unsharded.status == 1 && unsharded.stderr.contains("\(whole): a whole run's 'run --json' report (no --shard)"), "\(unsharded.stderr)")
    }

    @Test("--junit writes one test case per session, parses as XML, and names the broken log with its line and sentence")
    func junit() throws {
        let corpus = try Self.corpus()
        defer { try? FileManager.default.removeItem(at: corpus) }
        let path = corpus.appendingPathComponent("junit.xml").path
        let result = try CLITests.run("verify", corpus.path, "--junit", path, "--jobs", "2")
        #expect(result.status == 1)
        var parser = XMLPullParser(source: try FileByteSource(path: path))
        var cases: [[String: String]] = []
        var failures: [(attributes: [String: String], text: String)] = []
        var inFailure = false
        var text: [UInt8] = []
        while let event = try parser.next() {
            switch event {
            case let .start(tag) where tag.name == "testcase": cases.append(tag.attributes)
            case let .start(tag) where tag.name == "failure":
                failures.append((tag.attributes, ""))
                inFailure = true
                text = []
            case let .text(bytes, _) where inFailure: text += bytes
            case let .end(name, _) where name == "failure":
                failures[failures.count - 1].text = String(decoding: text, as: UTF8.self)
                inFailure = false
            default: break
            }
        }
        let sessions = try SessionFiles.expand([corpus.path]).count
        #expect(cases.count == sessions)
        #expect(failures.count == 1)
        let broken = try #require(cases.first { $0["name"] == Self.brokenName })
        #expect(broken["classname"]?.hasSuffix(".b") == true)
        // The sentence verify prints (after "Error: "), file and line included.
        let printed = try #require(result.stderr.split(separator: "\n").first { $0.contains(Self.brokenName) })
        #expect(failures.first?.attributes["message"] == String(printed.dropFirst("Error: ".count)))
        #expect(failures.first?.text == String(printed.dropFirst("Error: ".count)))
        // Never over an input.
        let input = corpus.appendingPathComponent("a/tap-button.jsonl").path
        let before = try Data(contentsOf: URL(fileURLWithPath: input))
        let refused = try CLITests.run("verify", corpus.appendingPathComponent("a").path, "--junit", input)
        #expect(refused.status == 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == before)
    }
}
