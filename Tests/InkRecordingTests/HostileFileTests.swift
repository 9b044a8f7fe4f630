import Foundation
import InkRecording
import Testing

/// Issue 29, classes 2 and 4, at the library's level: reading stops at the line cap, and
/// the one output-file policy never replaces one of the command's inputs.
@Suite("Hostile files: the line cap stops reading; an output never replaces an input")
struct HostileFileLibraryTests {
    @Test("an over-long line stops the reading at the cap: the rest of it is not read (a link to /dev/zero used to spin forever counting it)")
    func overlongLineStopsReading() throws {
        let path = FileManagerPaths.temporaryFile("endless.jsonl")
        defer { unlink(path) }
        let header = #"{"format":"scratchpad-ink-session","version":1,"canvas":{"width":10,"height":10}}"#
        let long = String(repeating: "x", count: 8 << 20)   // 8 MiB without a newline
        try (header + "\n" + long).write(toFile: path, atomically: false, encoding: .utf8)
        var read = 0
        var events = SessionLogEvents(contentsOf: path, onRead: { read += $0 })
        while events.next() != nil {}
        #expect(events.failure?.line == 2)
        #expect(events.failure?.message.contains("longer than the limit of \(SessionLog.maxLineBytes) bytes") == true,
                "\(events.failure?.description ?? "")")
        #expect(read <= SessionLog.maxLineBytes + 3 * (1 << 16), "read \(read) bytes of an 8 MiB line")
    }
}
