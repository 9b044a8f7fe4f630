import Foundation
import Testing

/// Issue 53, class 4: a file is replaced only by whoever made it. Two `host --record` runs
/// writing one path both exited 0, and the recording that finished first was silently
/// replaced by the other.
@Suite("concurrent writers: two host --record runs to one path, one wins and the other says so")
struct ConcurrentWriterTests {
    @Test("two host --record runs to one path: the first to finish wins; the other exits 1 naming its kept temporary file, which verifies")
    func twoRecordersOnePath() throws {
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = directory.appendingPathComponent("live.jsonl").path
        let fixture = URL(fileURLWithPath: CLITests.fixtures).appendingPathComponent("tap-button.jsonl").path
        let lines = try String(contentsOfFile: fixture, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: true)
        // The first recorder starts and takes a line: its temporary file exists, its target
        // does not yet.
        let first = Process()
        first.executableURL = CLITests.binary
        first.arguments = ["host", "--seed", "1", "--record", target]
        let input = Pipe(), output = Pipe(), errors = Pipe()
        first.standardInput = input
        first.standardOutput = output
        first.standardError = errors
        try first.run()
        // Feed lines up to the first touch, which the host answers at once (a decision or a
        // question): once the answer is read, it has begun (its output is flushed per line).
        let touch = try #require(lines.firstIndex { $0.contains(#""kind":"touch""#) })
        for line in lines[...touch] { input.fileHandleForWriting.write(Data((line + "\n").utf8)) }
        let index = touch + 1
        let seen = output.fileHandleForReading.readData(ofLength: 1)
        #expect(!seen.isEmpty, "the first host never answered")
        // The second recorder runs to its end while the first is still open: it wins.
        let second = try CLITests.shell(#"exec "$0" host --seed 2 --record "$1" > /dev/null"#, [target], stdin: fixture)
        #expect(second.status == 0, "\(second.stderr)")
        let winner = try Data(contentsOf: URL(fileURLWithPath: target))
        // The first finishes: its target appeared since it began.
        for line in lines[index...] { input.fileHandleForWriting.write(Data((line + "\n").utf8)) }
        try input.fileHandleForWriting.close()
        _ = output.fileHandleForReading.readDataToEndOfFile()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        first.waitUntilExit()
        #expect(first.terminationStatus == 1, "the loser exited \(first.terminationStatus): \(stderr)")
        #expect(stderr.contains("changed since this command began (a file appeared there); not replaced; the whole recording ("), "\(stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == winner, "the winner's recording was replaced")
        // The loser's recording is kept, named, and whole.
        let kept = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".tmp") }
        #expect(kept.count == 1, "\(kept)")
        if let name = kept.first {
            #expect(stderr.contains(name), "\(stderr)")
            let verify = try CLITests.run("verify", directory.appendingPathComponent(name).path)
            #expect(verify.status == 0 && verify.stdout.contains("1 of 1 live recordings replayed identically"), "\(verify.stdout)\(verify.stderr)")
        }
    }
}
