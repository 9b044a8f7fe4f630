import Foundation
import Testing

/// Issue 53, class 3: a recording holds every input the engine took. A 494 KB snapshot of
/// 10,500 regions at 1e15 (under the engine's 1 MiB message cap and 20,000-region limit),
/// which the engine took and decided a touch by, was re-encoded past the 1 MiB line cap and
/// dropped: `host` exited 0 blaming the file, `verify` blamed a sink "that was behind".
@Suite("recordings hold what the engine took: a snapshot within the engine's limits is recorded and verifies; a line no reader takes is named")
struct RecordingLimitTests {
    /// A host input: a snapshot of `regions` regions whose every number is `value`, then a
    /// touch inside them, decided by it.
    static func snapshotSession(regions: Int, value: String) -> String {
        var text = #"{"format":"scratchpad-ink-session","version":1,"canvas":{"width":1024,"height":768}}"# + "\n"
        let region = #"{"x":\#(value),"y":\#(value),"width":\#(value),"height":\#(value)}"#
        text += #"{"kind":"page","t":1,"message":{"type":"regions","generation":1,"maxAge":30000,"regions":["#
            + Array(repeating: region, count: regions).joined(separator: ",") + "]}}\n"
        text += #"{"kind":"touch","t":2,"touch":1,"phase":"began","tool":"finger","samples":[{"t":2,"x":\#(value),"y":\#(value)}]}"# + "\n"
        text += #"{"kind":"touch","t":2.05,"touch":1,"phase":"ended","samples":[{"t":2.05,"x":\#(value),"y":\#(value)}]}"# + "\n"
        return text
    }

    @Test("host --record of a snapshot the engine took (10,500 regions at 1e15, 494 KB; 20,000 at 1e14, 940 KB: a 1.8 MB line) exits 0 and the recording verifies identically")
    func snapshotsWithinTheLimitsAreRecorded() throws {
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for (regions, value) in [(10_500, "1e15"), (20_000, "1e14")] {
            let input = directory.appendingPathComponent("in-\(value).jsonl")
            try Data(Self.snapshotSession(regions: regions, value: value).utf8).write(to: input)
            let recording = directory.appendingPathComponent("live-\(value).jsonl").path
            let host = try CLITests.shell(#"exec "$0" host --seed 1 --record "$1""#, [recording], stdin: input.path)
            #expect(host.status == 0, "host: \(host.stderr)")
            #expect(host.stdout.contains(#""kind":"decided""#) && host.stdout.contains(#""reason":"regionCache""#), "the snapshot decided the touch")
            #expect(host.stderr.isEmpty, "\(host.stderr)")
            let verify = try CLITests.run("verify", recording)
            #expect(verify.status == 0, "verify: \(verify.stdout)\(verify.stderr)")
            #expect(verify.stdout.contains("identity: 1 of 1 live recordings replayed identically"), "\(verify.stdout)")
        }
    }

    @Test("a touch line whose recording would pass 8 MiB (250,000 samples at 1e14, natively the page's: 7.3 MB read, 15.5 MB in the recorder's text): host exits 1 naming the line and why; verify names the same reason")
    func unrecordableLineIsNamed() throws {
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var text = #"{"format":"scratchpad-ink-session","version":1,"canvas":{"width":1024,"height":768}}"# + "\n"
        let sample = #"{"t":1e14,"x":1e14,"y":1e14}"#
        text += #"{"kind":"touch","t":1e14,"touch":1,"phase":"began","tool":"finger","native_page":true,"samples":["#
            + Array(repeating: sample, count: 250_000).joined(separator: ",") + "]}\n"
        text += #"{"kind":"touch","t":1e14,"touch":1,"phase":"ended","native_page":true,"samples":[]}"# + "\n"
        let input = directory.appendingPathComponent("in.jsonl")
        try Data(text.utf8).write(to: input)
        let recording = directory.appendingPathComponent("live.jsonl").path
        let host = try CLITests.shell(#"exec "$0" host --seed 1 --record "$1" > /dev/null"#, [recording], stdin: input.path)
        #expect(host.status == 1, "host: \(host.status) \(host.stderr)")
        let reason = "because a line of 15500136 bytes is longer than the 8388608 bytes a session-log line may have"
        #expect(host.stderr.contains("input line 2 could not be recorded \(reason)"), "\(host.stderr)")
        let verify = try CLITests.run("verify", recording)
        #expect(verify.status == 1)
        #expect((verify.stdout + verify.stderr).contains(reason), "\(verify.stdout)\(verify.stderr)")
        #expect(!(verify.stdout + verify.stderr).contains("behind"), "\(verify.stdout)\(verify.stderr)")
    }
}
