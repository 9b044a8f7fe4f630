import Foundation
import Testing

/// Issue 29, class 4: an output path that names an input replaced the input (`render
/// s.jsonl -o s.jsonl` turned the recording into an SVG and exited 0).
extension HostileFileTests {
    /// A directory with the recording `s.jsonl` and its bytes, to check it is untouched.
    static func recording() throws -> (directory: URL, input: String, bytes: Data) {
        let directory = try CLITests.temporaryDirectory()
        let input = directory.appendingPathComponent("s.jsonl").path
        try FileManager.default.copyItem(atPath: decimal, toPath: input)
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("sub"), withIntermediateDirectories: true)
        return (directory, input, try Data(contentsOf: URL(fileURLWithPath: input)))
    }

    @Test("render, timeline and export refuse an output that is the input: the same path, sub/../, a hard link; the recording is untouched",
          arguments: ["render", "timeline", "export"])
    func outputIsInput(command: String) throws {
        let (directory, input, bytes) = try Self.recording()
        defer { try? FileManager.default.removeItem(at: directory) }
        let hardLink = directory.appendingPathComponent("hard.jsonl").path
        #expect(link(input, hardLink) == 0)
        for output in [input, directory.appendingPathComponent("sub/../s.jsonl").path, hardLink] {
            let (result, _) = try Self.run([command, input, "-o", output])
            #expect(result.status == 1, "\(command) -o \(output): \(result.stderr)")
            #expect(result.stderr.contains("\(output): is the same file as the input \(input)"), "\(result.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == bytes)
        }
        // The hard link named as the input, the original as the output: refused too.
        let (reverse, _) = try Self.run([command, hardLink, "-o", input])
        #expect(reverse.status == 1 && reverse.stderr.contains("is the same file as the input \(hardLink)"), "\(reverse.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == bytes)
        #expect(OutputPathTests.listing(directory) == ["hard.jsonl", "s.jsonl", "sub"])
    }

    @Test("smooth in -o in is refused, the strokes untouched")
    func smoothInPlace() throws {
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("strokes.jsonl").path
        let text = "[[0,0,0],[1,1,8],[2,2,16]]\n"
        try text.write(toFile: input, atomically: true, encoding: .utf8)
        let (result, _) = try Self.run(["smooth", input, "-o", input])
        #expect(result.status == 1 && result.stderr.contains("\(input): is the same file as the input \(input)"), "\(result.stderr)")
        #expect(try String(contentsOfFile: input, encoding: .utf8) == text)
    }

    @Test("bench --plot naming one of its session logs is refused, the log untouched")
    func benchPlotOverInput() throws {
        let (directory, input, bytes) = try Self.recording()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (result, _) = try Self.run(["bench", "strategies", directory.path, "--strokes", "1", "--latencies", "0", "--plot", input], within: 120)
        #expect(result.status == 1 && result.stderr.contains("\(input): is the same file as the input \(input)"), "\(result.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == bytes)
    }

    @Test("convert refuses to write a session log over its own input (InkML named plain.jsonl; a Quick, Draw! file named like its drawing's log)")
    func convertOverInput() throws {
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let inkml = directory.appendingPathComponent("plain.jsonl").path
        let ink = #"<ink xmlns="http://www.w3.org/2003/InkML"><trace>0 0, 1 1, 2 2</trace></ink>"#
        try ink.write(toFile: inkml, atomically: true, encoding: .utf8)
        let (first, _) = try Self.run(["convert", inkml, "--format", "inkml", "-o", directory.path])
        #expect(first.status == 1 && first.stderr.contains("\(inkml): is the same file as the input \(inkml)"), "\(first.stderr)")
        #expect(try String(contentsOfFile: inkml, encoding: .utf8) == ink)
        let quick = directory.appendingPathComponent("quickdraw-cat-7.jsonl").path
        let drawing = #"{"word":"cat","key_id":"7","drawing":[[[0,1,2],[0,1,2],[0,10,20]]]}"# + "\n"
        try drawing.write(toFile: quick, atomically: true, encoding: .utf8)
        let (second, _) = try Self.run(["convert", quick, "--format", "quickdraw", "-o", directory.path])
        #expect(second.status == 1 && second.stderr.contains("is the same file as the input \(quick)"), "\(second.stderr)")
        #expect(try String(contentsOfFile: quick, encoding: .utf8) == drawing)
        #expect(OutputPathTests.listing(directory) == ["plain.jsonl", "quickdraw-cat-7.jsonl"])
    }
}
