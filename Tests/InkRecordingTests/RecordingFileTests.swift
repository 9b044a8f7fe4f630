import Foundation
import Testing
@_spi(Tooling) @testable import InkRecording

/// Issue 40, class 6: recordings lost. A target the final rename could not reach was refused
/// only after the whole session, and the complete recording deleted; up to 80 KiB of it was
/// held in memory (16 KiB in the recorder, 64 KiB in the file's buffer), so a kill left an
/// empty temporary file.
@Suite("Recording files: written through, checked at the start, never deleted")
struct RecordingFileTests {
    static func directory() throws -> String {
        let path = FileManagerPaths.temporaryFile("recording-file")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func listing(_ directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
    }

    @Test("each offer is in the temporary file when offer returns (nothing held in memory)")
    func writesThrough() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = try RecordingFile(path: directory + "/r.jsonl")
        var expected: [UInt8] = []
        for index in 0..<20 {
            let line = Array("{\"kind\":\"touch\",\"n\":\(index)}\n".utf8)
            #expect(file.offer(line))
            expected += line
            #expect(FileManager.default.contents(atPath: file.temporaryPath).map { [UInt8]($0) } == expected, "after offer \(index)")
        }
        #expect(file.linesWritten == 20 && file.linesLost == 0)
        try file.commit()
        #expect(Self.listing(directory) == ["r.jsonl"])
    }

    @Test("a name longer than the file system takes (in bytes, not characters) is refused at the start, naming it; nothing is created")
    func nameTooLong() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for name in [String(repeating: "x", count: 300), String(repeating: "é", count: 128)] {   // 300 bytes; 256 bytes in 128 characters
            let target = directory + "/" + name
            do {
                _ = try RecordingFile(path: target)
                Issue.record("\(name.utf8.count) bytes accepted")
            } catch {
                #expect(error.description.hasPrefix("\(target): a name of \(name.utf8.count) bytes in the path, longer than the 255"), "\(error)")
            }
            #expect(throws: OutputFileError.self) { try OutputFile.check(target, inputs: []) }
        }
        // 255 bytes is taken.
        let longest = directory + "/" + String(repeating: "y", count: 255)
        try OutputFile.write("ok", to: longest, inputs: [])
        #expect(Self.listing(directory) == [String(repeating: "y", count: 255)])
    }

    @Test("in a sticky directory, a file another user owns is refused unless the user owns the directory or is root")
    func stickyDirectory() {
        let sticky = mode_t(S_IFDIR) | mode_t(S_ISVTX) | 0o777, plain = mode_t(S_IFDIR) | 0o777
        #expect(OutputFile.stickyForbids(directoryMode: sticky, directoryOwner: 0, targetOwner: 1000, user: 1001))
        #expect(!OutputFile.stickyForbids(directoryMode: sticky, directoryOwner: 0, targetOwner: 1001, user: 1001))   // the user's own file
        #expect(!OutputFile.stickyForbids(directoryMode: sticky, directoryOwner: 1001, targetOwner: 1000, user: 1001))   // the user's directory
        #expect(!OutputFile.stickyForbids(directoryMode: sticky, directoryOwner: 0, targetOwner: 1000, user: 0))   // root
        #expect(!OutputFile.stickyForbids(directoryMode: plain, directoryOwner: 0, targetOwner: 1000, user: 1001))   // not sticky
    }

    @Test("when the final rename is refused (the target became a directory meanwhile), the whole recording is kept in the temporary file, named in the error")
    func renameRefusedKeepsRecording() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let target = directory + "/r.jsonl"
        let file = try RecordingFile(path: target)
        let text = "{\"format\":\"scratchpad-ink-session\"}\n{\"kind\":\"end\"}\n"
        file.offer(Array(text.utf8))
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: false)
        do {
            try file.commit()
            Issue.record("committed over a directory")
        } catch {
            // Since issue 53 a target that appeared is named as a change before what it is.
            #expect(error.description.contains("\(target): changed since this command began (a directory appeared there); not replaced; the whole recording (2 lines) is kept in \(file.temporaryPath)"), "\(error)")
        }
        #expect(try String(contentsOfFile: file.temporaryPath, encoding: .utf8) == text)
        #expect(Self.listing(directory).count == 2)
    }

    @Test("a target whose directory resolves to an input's is that input, even when it does not exist as a file to compare")
    func resolvedPath() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory + "/a", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: directory + "/b", withDestinationPath: directory + "/a")
        #expect(OutputFile.resolvedPath(directory + "/b/x.jsonl") == OutputFile.resolvedPath(directory + "/a/../a/x.jsonl"))
        #expect(OutputFile.resolvedPath(directory + "/b/x.jsonl") != OutputFile.resolvedPath(directory + "/a/y.jsonl"))
    }
}
