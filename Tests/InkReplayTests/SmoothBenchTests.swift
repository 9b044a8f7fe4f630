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

    @Test("smooth writes one line per stroke: nodes and midpoints, the ends fitted close to the first and last samples")
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
        let start = try #require(first.first), end = try #require(first.last)
        #expect(hypot(start[0] - 10, start[1] - 10) < 0.2 && start[2] == 0)
        #expect(hypot(end[0] - 26, end[1] - 17) < 0.3 && end[2] == 33.3)
        // Nodes and midpoints: 9 nodes, 8 midpoints.
        #expect(first.count == 17)
        #expect(try Self.points(lines[1]) == [[40, 40, 100]])
        #expect(try Self.points(lines[2]).count == 5)
        // A bad point is refused with its line and point, not a type's debug dump.
        try "[[1,1,0],[2,null,4]]\n".write(to: input, atomically: true, encoding: .utf8)
        let refused = try CLITests.run("smooth", input.path, "-o", output.path)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("strokes.jsonl:1: point 1: expected [x, y, t_ms(, pressure)]"), "\(refused.stderr)")
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
        #expect(bad.stderr.contains("'--tip' takes a number from 0 to 100, not '-1'"))
    }

    @Test("bench strokes measures stroke files in the harness's format, and refuses bad ones by line")
    func benchStrokes() throws {
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("strokes.jsonl")
        try Self.strokes.write(to: input, atomically: true, encoding: .utf8)
        let result = try CLITests.run("bench", "strokes", input.path, "--passes", "3", "--json")
        #expect(result.status == 0, "\(result.stderr)")
        let row = try CLITests.json(result.stdout)
        #expect(row["strokes"] as? Int == 3)
        #expect(row["samples"] as? Int == 13)
        #expect(row["passes"] as? Int == 3)
        #expect((row["ns_per_sample"] as? Double ?? 0) > 0)
        let text = try CLITests.run("bench", "strokes", input.path, "--passes", "1")
        #expect(text.stdout.contains("append") && text.stdout.contains(input.path))

        let bad = directory.appendingPathComponent("bad.jsonl")
        try "[[1,1,0],[2,2,4]]\n[[1,1,10],[2,2,5]]\n".write(to: bad, atomically: true, encoding: .utf8)
        let refused = try CLITests.run("bench", "strokes", bad.path)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("bad.jsonl:2: point 1: time goes backwards"), "\(refused.stderr)")
        try "[[1,1,0],[2,\"x\",4]]\n".write(to: bad, atomically: true, encoding: .utf8)
        #expect(try CLITests.run("bench", "strokes", bad.path).stderr.contains("bad.jsonl:1: point 1: expected [x, y, t_ms(, pressure)]"))
        #expect(try CLITests.run("bench", "strokes").status == 64)
        #expect(try CLITests.run("bench", "strokes", directory.appendingPathComponent("missing.jsonl").path).status == 1)
    }

    @Test("bench geometry measures recorded and generated strokes")
    func bench() throws {
        let result = try CLITests.run("bench", "geometry", CLITests.fixtures + "/decimal-point.jsonl",
                                      "--passes", "1", "--json")
        #expect(result.status == 0, "\(result.stderr)")
        let rows = try result.stdout.split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        try #require(rows.count == 5)
        let verify = try CLITests.json(try CLITests.run("verify", CLITests.fixtures + "/decimal-point.jsonl", "--json").stdout)
        #expect(rows[0]["samples"] as? Int == verify["samples"] as? Int)
        #expect(rows.dropFirst().map { $0["samples"] as? Int } == [20_000, 20_000, 20_000, 20_000])
        for row in rows {
            for key in ["ns_per_sample", "ns_per_sample_with_outline", "ns_per_tail_read"] {
                let ns = try #require(row[key] as? Double, "\(key)")
                #expect(ns >= 0 && ns.isFinite)
            }
            #expect((row["tail_reads"] as? Int ?? 0) > 0)
        }
        #expect(try CLITests.run("bench", "geometry", "--min-time", "0").status == 64)
        #expect(try CLITests.run("bench", "geometry", "--passes", "0").status == 64)
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
