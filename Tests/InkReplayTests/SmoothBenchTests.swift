import Foundation
import Testing

@Suite("ink-replay smooth and bench")
struct SmoothBenchTests {
    static let strokes = """
        [[10,10,0],[12,11,4.2],[14,11.5,8.3],[16,12.4,12.5],[18,13,16.7],[20,14.1,20.8],[22,15,25],[24,15.8,29.2],[26,17,33.3]]
        [[40,40,100]]

        [[50,50,200,0.5],[51,50.5,204.2,0.6],[53,51,208.3,0.7]]
        """

    static func points(_ line: Substring) throws -> [[Double]] {
        try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [[Double]])
    }

    @Test("smooth writes one line per stroke, keeping the first and last points exactly")
    func smooth() throws {
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("strokes.jsonl")
        try Self.strokes.write(to: input, atomically: true, encoding: .utf8)
        let output = directory.appendingPathComponent("out.jsonl")
        let result = try CLITests.run("smooth", input.path, "-o", output.path)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = try String(contentsOf: output, encoding: .utf8).split(separator: "\n")
        try #require(lines.count == 3)
        let first = try Self.points(lines[0])
        #expect(first.first == [10, 10, 0])
        #expect(first.last == [26, 17, 33.3])
        // Nodes and midpoints: 9 nodes, 8 midpoints.
        #expect(first.count == 17)
        #expect(try Self.points(lines[1]) == [[40, 40, 100]])
        #expect(try Self.points(lines[2]).count == 5)
    }

    @Test("smooth --tip writes what is drawn after each sample, stamped with the time it is shown for")
    func tip() throws {
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("strokes.jsonl")
        try Self.strokes.write(to: input, atomically: true, encoding: .utf8)
        let output = directory.appendingPathComponent("tip.jsonl")
        #expect(try CLITests.run("smooth", input.path, "-o", output.path, "--tip", "8").status == 0)
        let first = try Self.points(try String(contentsOf: output, encoding: .utf8).split(separator: "\n")[0])
        #expect(first.count == 9)
        #expect(first.map { $0[2] } == [8, 12.2, 16.3, 20.5, 24.7, 28.8, 33, 37.2, 41.3])
        // The predictor leads the pen: the last tip is ahead of the last sample along x.
        #expect(first[8][0] > 26)
        let bad = try CLITests.run("smooth", input.path, "-o", output.path, "--tip", "-1")
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("'--tip' takes milliseconds from 0 to 100, not '-1'"))
    }

    @Test("bench geometry measures recorded and generated strokes")
    func bench() throws {
        let result = try CLITests.run("bench", "geometry", CLITests.fixtures + "/decimal-point.jsonl",
                                      "--min-time", "0.001", "--json")
        #expect(result.status == 0, "\(result.stderr)")
        let rows = try result.stdout.split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        try #require(rows.count == 5)
        let verify = try CLITests.json(try CLITests.run("verify", CLITests.fixtures + "/decimal-point.jsonl", "--json").stdout)
        #expect(rows[0]["samples"] as? Int == verify["samples"] as? Int)
        #expect(rows.dropFirst().map { $0["samples"] as? Int } == [20_000, 20_000, 20_000, 20_000])
        for row in rows {
            let ns = try #require(row["ns_per_sample"] as? Double)
            #expect(ns > 0 && ns.isFinite)
        }
        #expect(try CLITests.run("bench", "geometry", "--min-time", "0").status == 64)
        let strategies = try CLITests.run("bench", "--strokes", "40", "--latencies", "0,30", "--json")
        #expect(strategies.status == 0, "\(strategies.stderr)")
        let results = try strategies.stdout.split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(results.map { $0["strategy"] as? String } == ["blocking", "blocking", "queued", "queued", "cached", "cached",
                                                                "speculative", "speculative"])
        #expect(results.map { $0["samples_lost"] as? Int }.enumerated().allSatisfy { i, lost in (i == 1) == ((lost ?? 0) > 0) })
        #expect(try CLITests.run("bench", "--latencies", "fast").status == 64)
        let regions = try CLITests.run("bench", "regions", "--min-time", "0.001", "--json")
        #expect(regions.status == 0)
        let counts = try regions.stdout.split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])["regions"] as? Int
        }
        #expect(counts == [1_000, 5_000, 20_000])
    }
}
