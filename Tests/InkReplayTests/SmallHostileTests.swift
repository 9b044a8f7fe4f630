import Foundation
import Testing

/// The smaller findings of hostile input, round three: enormous but finite numbers in
/// stroke files and statistics, a fixture folder holding a link, an empty latency list.
@Suite("ink-replay: enormous numbers, links among fixtures, empty lists")
struct SmallHostileTests {
    static func file(_ name: String, _ text: String) throws -> URL {
        let url = try CLITests.temporaryDirectory().appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    @Test("smooth and bench strokes refuse a stroke whose geometry overflows, naming the file, the line and the point; nothing is written")
    func hugeCoordinates() throws {
        let input = try Self.file("huge-strokes.jsonl", "[[1,1,0],[2,2,8],[3,3,16]]\n[[1e300,1e300,0],[1.1e300,1e300,8],[1.2e300,1e300,16]]\n")
        let output = input.deletingLastPathComponent().appendingPathComponent("out.jsonl")
        let smooth = try CLITests.run("smooth", input.path, "-o", output.path)
        #expect(smooth.status == 1 && smooth.stderr.contains("huge-strokes.jsonl:2: point "), "\(smooth.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output.path))
        // Where even the geometry's bounds overflow (±1e308), both refuse at the point.
        let wider = try Self.file("wider.jsonl", "[[1,1,0],[2,2,8]]\n[[1e308,0,0],[-1e308,5,10],[3,4,20]]\n")
        for command in [["smooth", wider.path, "-o", output.path], ["bench", "strokes", wider.path, "--passes", "1"]] {
            let result = try CLITests.run(command)
            #expect(result.status == 1 && result.stderr.contains("wider.jsonl:2: point 1 "), "\(command[0]): \(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    @Test("smooth writes enormous but finite times as the numbers they are, never null")
    func hugeTimes() throws {
        let input = try Self.file("huge-times.jsonl", "[[1,1,1e308],[2,2,1.5e308],[3,3,1.7e308]]\n")
        let output = input.deletingLastPathComponent().appendingPathComponent("out.jsonl")
        let smooth = try CLITests.run("smooth", input.path, "-o", output.path)
        #expect(smooth.status == 0, "\(smooth.stderr)")
        let text = try String(contentsOf: output, encoding: .utf8)
        #expect(!text.contains("null") && !text.contains("inf") && text.contains("e+308"), "\(text)")
    }

    @Test("stats prints no 300-digit number and no inf in its table, and no null in its JSON, for a log with enormous times")
    func hugeStats() throws {
        let log = try Self.file("huge-times-log.jsonl", [
            #"{"format":"scratchpad-ink-session","version":1,"canvas":{"width":100,"height":100}}"#,
            #"{"kind":"touch","t":0,"touch":1,"phase":"began","samples":[{"t":0,"x":1,"y":1}]}"#,
            #"{"kind":"touch","t":1e306,"touch":1,"phase":"ended","samples":[{"t":1e306,"x":2,"y":2}]}"#,
            #"{"kind":"touch","t":1.5e306,"touch":2,"phase":"began","samples":[{"t":1.5e306,"x":1,"y":1}]}"#,
            #"{"kind":"touch","t":1.6e306,"touch":2,"phase":"ended","samples":[{"t":1.6e306,"x":2,"y":2}]}"#,
        ].joined(separator: "\n") + "\n")
        let table = try CLITests.run("stats", log.path)
        #expect(table.status == 0, "\(table.stderr)")
        #expect(!table.stdout.contains("inf") && table.stdout.split(separator: "\n").allSatisfy { $0.count < 160 }, "\(table.stdout)")
        let json = try CLITests.run("stats", log.path, "--json")
        #expect(json.status == 0 && !json.stdout.contains("null"), "\(json.stdout)")
        #expect((try? JSONSerialization.jsonObject(with: Data(json.stdout.utf8))) != nil)
    }

    @Test("fixtures into a folder holding a symbolic link named like a fixture: the sentence names the file, and no fixture is written")
    func fixturesOverALink() throws {
        let directory = try CLITests.temporaryDirectory()
        let target = directory.appendingPathComponent("elsewhere.txt")
        try "keep me\n".write(to: target, atomically: true, encoding: .utf8)
        let link = directory.appendingPathComponent("decimal-point.jsonl")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        let result = try CLITests.run("fixtures", directory.path)
        #expect(result.status == 1, "\(result.stdout)")
        #expect(result.stderr.contains("decimal-point.jsonl: is a symbolic link") && !result.stderr.contains("OutputFileError"), "\(result.stderr)")
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(left == ["decimal-point.jsonl", "elsewhere.txt"], "\(left)")
        #expect(try String(contentsOf: target, encoding: .utf8) == "keep me\n")
    }

    @Test("bench --latencies with an empty item is a usage error", arguments: [",,,", "0,,30", "30,", ""])
    func emptyLatencies(list: String) throws {
        let result = try CLITests.run("bench", "--strokes", "5", "--latencies", list)
        #expect(result.status == 64 && result.stderr.contains("'--latencies' takes"), "\(result.stdout) \(result.stderr)")
    }
}
