import Foundation
import Testing

/// The tools never replace what they did not create (issue: convert deleted a directory,
/// export replaced a symlink and a device node, render wrote through a symlink and left a
/// truncated file on a full disk).
@Suite("ink-replay output paths: nothing overwritten, nothing deleted, nothing partial")
struct OutputPathTests {
    static let decimal = CLITests.fixtures + "/decimal-point.jsonl"

    static func listing(_ directory: URL) -> [String] {
        ((FileManager.default.enumerator(atPath: directory.path)?.allObjects as? [String]) ?? []).sorted()
    }

    @Test("convert leaves an existing directory named like its output alone, reports it and converts nothing into it")
    func convertKeepsDirectory() throws {
        let directory = try CLITests.temporaryDirectory()
        let out = directory.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out.appendingPathComponent("sum.jsonl"), withIntermediateDirectories: true)
        try "precious".write(to: out.appendingPathComponent("sum.jsonl/notes.txt"), atomically: true, encoding: .utf8)
        let output = try CLITests.run("convert", CLITests.root.appendingPathComponent("Fixtures/inkml/myscript/sum.inkml").path, "-o", out.path)
        #expect(output.status == 1)
        #expect(output.stderr.contains("sum.jsonl: is a directory; not replaced"), "\(output.stderr)")
        #expect(try String(contentsOf: out.appendingPathComponent("sum.jsonl/notes.txt"), encoding: .utf8) == "precious")
        #expect(Self.listing(out) == ["sum.jsonl", "sum.jsonl/notes.txt"])
    }

    @Test("render, export and timeline refuse a symbolic link and a device node, and change neither", arguments: ["render", "export", "timeline"])
    func linksAndDevices(command: String) throws {
        let directory = try CLITests.temporaryDirectory()
        let real = directory.appendingPathComponent("real.txt")
        try "mine".write(to: real, atomically: true, encoding: .utf8)
        let link = directory.appendingPathComponent("link.out")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: real.path)
        let viaLink = try CLITests.run(command, Self.decimal, "-o", link.path)
        #expect(viaLink.status == 1 && viaLink.stderr.contains("is a symbolic link; not replaced"), "\(viaLink.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == real.path)
        #expect(try String(contentsOf: real, encoding: .utf8) == "mine")
        let device = try CLITests.run(command, Self.decimal, "-o", "/dev/null")
        #expect(device.status == 1 && device.stderr.contains("/dev/null: exists and is not a regular file"), "\(device.stderr)")
        #expect(Self.listing(directory) == ["link.out", "real.txt"])
        // A regular file is replaced, through a temporary file beside it.
        let plain = try CLITests.run(command, Self.decimal, "-o", real.path)
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(try String(contentsOf: real, encoding: .utf8) != "mine")
        #expect(Self.listing(directory) == ["link.out", "real.txt"])
    }

    /// Whether this process (and so the tool built with it) runs under the thread sanitizer,
    /// whose runtime cannot start inside a 1 KiB file-size limit.
    static let underThreadSanitizer: Bool = {
        #if canImport(Darwin)
        let everywhere = UnsafeMutableRawPointer(bitPattern: -2)   // RTLD_DEFAULT
        #else
        let everywhere: UnsafeMutableRawPointer? = nil             // RTLD_DEFAULT
        #endif
        return dlsym(everywhere, "__tsan_init") != nil
    }()

    @Test("a write that fails half-way (a file-size limit) is reported, and leaves neither a truncated file nor a temporary one",
          .enabled(if: !underThreadSanitizer, "SKIPPED under the thread sanitizer: its runtime cannot start in a 1 KiB file-size limit (the plain `swift test` runs it)"))
    func failedWrite() throws {
        let directory = try CLITests.temporaryDirectory()
        let out = directory.appendingPathComponent("big.svg")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        // 2 blocks of 512 bytes: the SVG of a real session is larger.
        process.arguments = ["-c", "ulimit -f 2 && exec \"$0\" render \"$1\" -o \"$2\"", CLITests.binary.path,
                             CLITests.fixtures + "/real/myscript/1943.jsonl", out.path]
        let err = Pipe()
        process.standardError = err
        try process.run()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 1, "\(stderr)")
        #expect(stderr.contains("big.svg: cannot write"), "\(stderr)")
        #expect(Self.listing(directory).isEmpty)
    }
}

extension OutputPathTests {
    @Test("convert of an empty Quick, Draw! file or array is a fault, not a silent success", arguments: ["", "[]", "\n\n"])
    func convertEmpty(content: String) throws {
        let directory = try CLITests.temporaryDirectory()
        let input = directory.appendingPathComponent("empty.json")
        try content.write(to: input, atomically: true, encoding: .utf8)
        let output = try CLITests.run("convert", input.path, "-o", directory.appendingPathComponent("out").path)
        #expect(output.status == 1 && output.stderr.contains("empty.json: no drawings"), "\(output.stderr)")
    }

    @Test("convert refuses a FIFO before opening it (it used to hang on its second pass and leave a partial file)")
    func convertFIFO() throws {
        let directory = try CLITests.temporaryDirectory()
        let fifo = directory.appendingPathComponent("ink.inkml")
        #expect(mkfifo(fifo.path, 0o644) == 0)
        let out = directory.appendingPathComponent("out")
        let process = Process()
        process.executableURL = CLITests.binary
        process.arguments = ["convert", fifo.path, "-o", out.path]
        let err = Pipe()
        process.standardError = err
        try process.run()
        // No writer ever opens the FIFO: a convert that opened it would block. A guard, not a
        // measurement: give up after 20 s rather than hang the suite.
        var waited = 0
        while process.isRunning, waited < 2_000 { usleep(10_000); waited += 1 }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 1, "\(stderr)")
        #expect(stderr.contains("ink.inkml: is not a regular file"), "\(stderr)")
        #expect(Self.listing(directory) == ["ink.inkml", "out"])
    }
}

/// Real InkML whose traces are not in time order (issue: 254 of 352 strokes converted).
@Suite("convert: InkML traces out of time order keep every stroke")
struct InkMLOrderTests {
    static func inkml(_ traces: [String]) -> String {
        """
        <ink xmlns="http://www.w3.org/2003/InkML">
          <traceFormat><channel name="X"/><channel name="Y"/><channel name="T" units="ms"/></traceFormat>
        \(traces.map { "  <trace>\($0)</trace>" }.joined(separator: "\n"))
        </ink>
        """
    }

    static func convert(_ text: String, _ extra: String...) throws -> (output: CLITests.Output, log: String?, directory: String) {
        let directory = try CLITests.temporaryDirectory()
        let input = directory.appendingPathComponent("ink.inkml")
        try text.write(to: input, atomically: true, encoding: .utf8)
        let out = directory.appendingPathComponent("out")
        let output = try CLITests.run(["convert", input.path, "-o", out.path] + extra)
        let log = try? String(contentsOf: out.appendingPathComponent("ink.jsonl"), encoding: .utf8)
        return (output, log, out.path)
    }

    @Test("traces in layout order are sorted by time: every stroke and sample kept, the repair in the header; --strict refuses")
    func layoutOrder() throws {
        let text = Self.inkml(["300 10 2000, 310 12 2016, 320 14 2033", "10 10 0, 20 12 16, 30 14 33", "150 10 1000, 160 12 1016"])
        let (output, log, directory) = try Self.convert(text)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("(3 strokes, 8 samples)"), "\(output.stdout)")
        #expect(log?.contains("repaired: traces reordered by time (3 of 3 were not in time order") == true, "\(log ?? "")")
        #expect(try CLITests.run("verify", directory).status == 0)
        let strict = try Self.convert(text, "--strict")
        #expect(strict.output.status == 1 && strict.output.stderr.contains("not in time order"), "\(strict.output.stderr)")
        #expect(strict.log == nil)
    }

    @Test("traces that restart their T channel at 0 are laid end to end: both kept (1 of 2 used to convert)")
    func restartedClocks() throws {
        let (output, log, directory) = try Self.convert(Self.inkml(["10 10 0, 20 12 16, 30 14 33", "50 10 0, 60 12 16"]))
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("(2 strokes, 5 samples)"), "\(output.stdout)")
        #expect(log?.contains("per-trace clocks realigned") == true, "\(log ?? "")")
        #expect(try CLITests.run("verify", directory).status == 0)
    }
}
