import Foundation
import Testing
@_spi(Tooling) @testable import InkCore
@_spi(Tooling) import HitTestBridge
@_spi(Tooling) @testable import InkRecording

/// The one policy for every file the tools write: a temporary file beside the target,
/// renamed over a regular file only; nothing else replaced, nothing deleted, nothing left.
@Suite("Output files: written beside the target, renamed over a regular file only")
struct OutputFileTests {
    enum Target: CaseIterable { case absent, regular, directory, linkToFile, linkToDirectory, danglingLink, fifo }

    /// What a directory holds, recursively, without following links: path → kind and content.
    static func snapshot(_ root: String) -> [String: String] {
        var result: [String: String] = [:]
        let manager = FileManager.default
        guard let names = try? manager.contentsOfDirectory(atPath: root) else { return result }
        for name in names {
            let path = root + "/" + name
            let type = (try? manager.attributesOfItem(atPath: path))?[.type] as? FileAttributeType
            switch type {
            case .typeSymbolicLink?: result[name] = "link → " + ((try? manager.destinationOfSymbolicLink(atPath: path)) ?? "?")
            case .typeDirectory?:
                result[name] = "directory"
                for (inner, value) in snapshot(path) { result[name + "/" + inner] = value }
            case .typeRegular?: result[name] = "file: " + String(decoding: manager.contents(atPath: path) ?? Data(), as: UTF8.self)
            default: result[name] = "other"
            }
        }
        return result
    }

    /// A fresh directory with `target` made as `kind`, and a file and a directory it may point at.
    static func setUp(_ kind: Target) throws -> (directory: String, target: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("output-file-\(UUID().uuidString)").path
        let manager = FileManager.default
        try manager.createDirectory(atPath: directory + "/elsewhere", withIntermediateDirectories: true)
        try "keep me".write(toFile: directory + "/elsewhere/file.txt", atomically: false, encoding: .utf8)
        let target = directory + "/out.jsonl"
        switch kind {
        case .absent: break
        case .regular: try "old content".write(toFile: target, atomically: false, encoding: .utf8)
        case .directory:
            try manager.createDirectory(atPath: target, withIntermediateDirectories: false)
            try "inside".write(toFile: target + "/precious.txt", atomically: false, encoding: .utf8)
        case .linkToFile: try manager.createSymbolicLink(atPath: target, withDestinationPath: directory + "/elsewhere/file.txt")
        case .linkToDirectory: try manager.createSymbolicLink(atPath: target, withDestinationPath: directory + "/elsewhere")
        case .danglingLink: try manager.createSymbolicLink(atPath: target, withDestinationPath: directory + "/nowhere")
        case .fifo: #expect(mkfifo(target, 0o644) == 0)
        }
        return (directory, target)
    }

    @Test("every kind of target, success and failure at every stage: only a regular file or nothing is replaced, and nothing is left behind",
          arguments: Target.allCases)
    func policy(kind: Target) throws {
        var random = SplitMix64(seed: UInt64(Target.allCases.firstIndex(of: kind)!) + 11)
        for round in 0..<12 {
            let (directory, target) = try Self.setUp(kind)
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let before = Self.snapshot(directory)
            let chunks = (0..<Int(random.next() % 6)).map { i in String(repeating: "\(round)-\(i);", count: Int(random.next() % 30_000)) }
            let failAfter = random.next() % 3 == 0 ? Int(random.next() % UInt64(chunks.count + 1)) : nil   // the producer fails
            var written = false
            do {
                var file = try OutputFile(path: target, inputs: [])
                do {
                    for (i, chunk) in chunks.enumerated() {
                        if i == failAfter { throw CancellationError() }
                        try file.write(chunk)
                    }
                    if failAfter == chunks.count { throw CancellationError() }
                    try file.commit()
                    written = true
                } catch {
                    file.discard()
                }
            } catch {
                // refused at creation: the target is not a regular file
            }
            let after = Self.snapshot(directory)
            let replaceable = kind == .absent || kind == .regular
            #expect(written == (replaceable && failAfter == nil), "\(kind), round \(round)")
            if written {
                var expected = before
                expected["out.jsonl"] = "file: " + chunks.joined()
                #expect(after == expected, "\(kind), round \(round)")
            } else {
                #expect(after == before, "\(kind), round \(round): \(after.keys.sorted())")
            }
        }
    }

    @Test("a target named with 83 three-byte letters is written: its temporary name is cut in bytes, within NAME_MAX (it was 'File name too long', issue 40)",
          arguments: [String(repeating: "あ", count: 83) + ".svg", String(repeating: "😀", count: 60), String(repeating: "é", count: 120), "a" + String(repeating: "あ", count: 84)])
    func longLetterNames(name: String) throws {
        #expect(name.utf8.count <= 255)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("output-file-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let target = directory + "/" + name
        var file = try OutputFile(path: target, inputs: [])
        let temporaryName = String(file.temporaryPath.dropFirst(directory.count + 1))
        #expect(temporaryName.utf8.count <= 255 && temporaryName.unicodeScalars.allSatisfy { $0.value < 0x10_FF80 }, "\(temporaryName)")
        #expect(temporaryName.hasPrefix("." + String(name.prefix(10))))
        try file.write("x")
        try file.commit()
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "x")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == [name])
    }

    @Test("a device node is refused before anything is created beside it")
    func device() {
        #expect(throws: OutputFileError.self) { try OutputFile.write("x", to: "/dev/null", inputs: []) }
        #expect(FileManager.default.fileExists(atPath: "/dev/null"))
    }

    @Test("the session-log writer follows the same policy: an existing directory named like the log is left alone")
    func sessionLogWriter() throws {
        let (directory, target) = try Self.setUp(.directory)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let before = Self.snapshot(directory)
        #expect(throws: SessionLogWriterError.self) {
            _ = try SessionLogWriter(path: target, header: SessionHeader(canvas: CanvasSize(width: 10, height: 10)))
        }
        #expect(Self.snapshot(directory) == before)
    }

    @Test("a file is replaced only by whoever made it: of two writers to one path, one wins; the other, and a writer whose target was replaced, keep their temporary files and say so (issue 53)")
    func concurrentWritersToOnePath() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("output-race-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let target = directory + "/out.jsonl"
        // Both begin while the target is absent; the first to finish wins.
        var first = try OutputFile(path: target, inputs: [])
        var second = try OutputFile(path: target, inputs: [])
        try first.write("first\n")
        try second.write("second\n")
        try first.commit()
        do {
            try second.commit()
            Issue.record("the second writer replaced the first's file")
        } catch {
            #expect(error.message.contains("changed since this command began (a file appeared there); not replaced: the output is kept in \(second.temporaryPath)"), "\(error)")
        }
        second.discard()   // a kept file stays
        #expect(second.isKept)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "first\n")
        #expect(try String(contentsOfFile: second.temporaryPath, encoding: .utf8) == "second\n")
        // A target that was there at the start and was replaced by another file since.
        var third = try OutputFile(path: target, inputs: [])
        try third.write("third\n")
        try OutputFile.write("fourth\n", to: target, inputs: [])   // another writer replaced it meanwhile
        do {
            try third.commit()
            Issue.record("the third writer replaced a file it did not make")
        } catch {
            #expect(error.message.contains("changed since this command began (another file is there now)"), "\(error)")
        }
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "fourth\n")
        #expect(try String(contentsOfFile: third.temporaryPath, encoding: .utf8) == "third\n")
        // A target unchanged since the start is replaced, as always.
        var fifth = try OutputFile(path: target, inputs: [])
        try fifth.write("fifth\n")
        try fifth.commit()
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "fifth\n")
    }
}
