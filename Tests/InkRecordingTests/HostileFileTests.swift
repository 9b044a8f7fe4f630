import Foundation
@_spi(Tooling) import InkRecording
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
        let long = String(repeating: "x", count: 3 * SessionLog.maxLineBytes)   // three caps without a newline
        try (header + "\n" + long).write(toFile: path, atomically: false, encoding: .utf8)
        var read = 0
        var events = SessionLogEvents(contentsOf: path, onRead: { read += $0 })
        while events.next() != nil {}
        #expect(events.failure?.line == 2)
        #expect(events.failure?.message.contains("longer than the limit of \(SessionLog.maxLineBytes) bytes") == true,
                "\(events.failure?.description ?? "")")
        #expect(read <= SessionLog.maxLineBytes + 3 * (1 << 16), "read \(read) bytes of a line of three caps")
    }

    @Test("OutputFile refuses a target that is one of the inputs: the same path, another spelling, a hard link, an input named through a link; at the start and at the rename; the session-log writers too")
    func outputNeverReplacesAnInput() throws {
        let directory = FileManagerPaths.temporaryFile("outputs")
        try FileManager.default.createDirectory(atPath: directory + "/sub", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let input = directory + "/s.jsonl"
        try "recording".write(toFile: input, atomically: true, encoding: .utf8)
        #expect(link(input, directory + "/hard.jsonl") == 0)
        try FileManager.default.createSymbolicLink(atPath: directory + "/via-link.jsonl", withDestinationPath: input)
        for (target, inputs) in [(input, [input]), (directory + "/sub/../s.jsonl", [input]), (directory + "/hard.jsonl", [input]),
                                 (input, [directory + "/hard.jsonl"]), (input, [directory + "/via-link.jsonl"])] {
            #expect(throws: OutputFileError.self) { try OutputFile.write("svg", to: target, inputs: inputs) }
            do { try OutputFile.write("svg", to: target, inputs: ["/nonexistent", inputs[0]]) } catch {
                #expect(error.description == "\(target): is the same file as the input \(inputs[0]); not replaced (an output never replaces an input: name another path)")
            }
            #expect(throws: SessionLogWriterError.self) {
                _ = try SessionLogWriter(path: target, header: SessionHeader(canvas: CanvasSize(width: 1, height: 1)), inputs: inputs)
            }
            #expect(throws: OutputFileError.self) {
                try SessionLog(header: SessionHeader(canvas: CanvasSize(width: 1, height: 1))).write(to: target, inputs: inputs)
            }
        }
        // The input appears at the target between the start and the rename: refused then too.
        let late = directory + "/late.jsonl"
        var file = try OutputFile(path: late, inputs: [input])
        try file.write("svg")
        #expect(link(input, late) == 0)
        #expect(throws: OutputFileError.self) { try file.commit() }
        #expect(try String(contentsOfFile: input, encoding: .utf8) == "recording")
        // Since issue 53 a target that appeared since the start is a change: the output is
        // kept beside it, named in the error, and nothing is replaced.
        #expect(file.isKept)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
                == ["." + "late.jsonl." + file.temporaryPath.split(separator: ".").suffix(2).joined(separator: "."), "hard.jsonl", "late.jsonl", "s.jsonl", "sub", "via-link.jsonl"])
        // Another file is written as usual.
        try OutputFile.write("svg", to: directory + "/out.svg", inputs: [input])
        #expect(try String(contentsOfFile: directory + "/out.svg", encoding: .utf8) == "svg")
    }
}
