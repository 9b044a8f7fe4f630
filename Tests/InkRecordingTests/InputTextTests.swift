import Foundation
import Testing
@_spi(Tooling) @testable import HitTestBridge
@_spi(Tooling) import InkCore
@_spi(Tooling) @testable import InkRecording

@Suite("Input echoed in error messages: escaped, bounded; a byte order mark is taken")
struct InputTextTests {
    @Test("a terminal escape sequence in a log line is shown as escapes, never as the raw bytes")
    func escapeSequence() {
        let line = "\u{1B}[2J\u{1B}]0;owned\u{07}" + #"{"format":"scratchpad-ink-session"}"#
        let result = SessionLog.parse(line)
        let message = result.failure?.description ?? ""
        #expect(message.contains("byte 0x1B"), "\(message)")
        #expect(!message.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
    }

    @Test("a number of 5 MB in an InkML trace is quoted in 32 characters and its length")
    func hugeNumber() {
        let digits = String(repeating: "9", count: 5_000_000)
        var reader = InkMLReader(source: MemoryByteSource(#"<ink><trace>1 2, "# + digits + #" 3</trace></ink>"#), file: "big.inkml")
        var message = ""
        do { while try reader.next() != nil {} } catch { message = error.description }
        #expect(message.contains("(5000000 bytes)") && message.contains("is not a finite number"), "\(message.prefix(300))")
        #expect(message.count < 300)
    }

    @Test("quoted and printable escape C0, DEL and C1 controls and cut long text")
    func quoting() {
        #expect(InputText.quoted(Array("a\u{1B}b\u{9B}c\u{7F}".utf8)) == #"'a\u{1B}b\u{9B}c\u{7F}'"#)
        #expect(InputText.quoted(String(repeating: "x", count: 100), limit: 4) == "'xxxx…' (100 bytes)")
        #expect(InputText.byte(0xEF) == "byte 0xEF" && InputText.byte(0x41) == "'A'")
        let long = InputText.printable(String(repeating: "y", count: 5_000) + "\n\u{1B}")
        #expect(long.count < 2_100 && long.hasSuffix("(message cut at 2000 characters)"))
        #expect(InputText.printable("line\none") == #"line\u{A}one"#)
    }

    @Test("a UTF-8 byte order mark before the header is accepted; elsewhere JSON says what it is")
    func byteOrderMark() throws {
        let header = #"{"format":"scratchpad-ink-session","version":1,"canvas":{"width":10,"height":10}}"#
        let result = SessionLog.parse("\u{FEFF}" + header + "\n")
        #expect(result.failure == nil && result.log != nil)
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(Array("\u{FEFF}{}".utf8)) }
        do { _ = try JSONParser.parse(Array("\u{FEFF}{}".utf8)) } catch { #expect(error.message.contains("byte order mark")) }
    }
}

@Suite("Smaller hostile inputs: ids past 2^53, DOCTYPE comments, UTF-32")
struct SmallerHostileInputTests {
    static func header() -> String { #"{"format":"scratchpad-ink-session","version":1,"canvas":{"width":10,"height":10}}"# }

    @Test("touch ids above 2^53 - 1 are refused with the range (9007199254740992 and …993 used to collide), 2^53 - 1 is taken",
          arguments: ["9007199254740992", "9007199254740993", "9223372036854775807"])
    func largeIDs(id: String) {
        let log = Self.header() + "\n" + #"{"kind":"touch","t":1,"touch":\#(id),"phase":"began","samples":[{"t":1,"x":1,"y":1}]}"#
        let message = SessionLog.parse(log).failure?.description ?? ""
        #expect(message.contains("from 0 to 9007199254740991"), "\(message)")
        let largest = Self.header() + "\n" + #"{"kind":"touch","t":1,"touch":9007199254740991,"phase":"began","samples":[{"t":1,"x":1,"y":1}]}"#
        #expect(SessionLog.parse(largest).failure == nil)
    }

    /// Every field a log reads as an id, index, generation or version, each line read by the
    /// whole reader (fast path first) and by the general reader.
    static let idFields: [String] = [
        #"{"kind":"touch","t":1,"touch":ID,"phase":"began","samples":[{"t":1,"x":1,"y":1}]}"#,
        #"{"kind":"touch","t":1,"touch":ID,"phase":"moved","samples":[{"t":1,"x":1,"y":1}]}"#,
        #"{"kind":"touch","t":1,"touch":1,"phase":"moved","samples":[{"t":1,"x":1,"y":1,"update_index":ID}]}"#,
        #"{"kind":"touch","t":1,"touch":1,"phase":"moved","samples":[],"predicted":[{"t":1,"x":1,"y":1,"update_index":ID}]}"#,
        #"{"kind":"answer","t":1,"touch":ID,"verdict":"ink"}"#,
        #"{"kind":"update","t":1,"touch":ID,"update_index":1,"force":0.5,"final":true}"#,
        #"{"kind":"update","t":1,"touch":1,"update_index":ID,"force":0.5,"final":true}"#,
        #"{"kind":"regions","t":1,"generation":ID,"max_age":1,"regions":[]}"#,
    ]

    @Test("an id, index or generation that is not exactly a whole number is refused at every id field, though a Double rounds it to one (issue 40)",
          arguments: ["4503599627370496.5", "0.99999999999999999999", "2.0000000000000000001", "1e-400", "4503599627370497.5e0", "45035996273704965e-1"])
    func idsWithFractions(id: String) {
        for template in Self.idFields {
            let line = template.replacingOccurrences(of: "ID", with: id)
            let message = SessionLog.parse(Self.header() + "\n" + line).failure?.description ?? "taken"
            #expect(message.contains("found a number with a fraction"), "\(line): \(message)")
            SessionLineDecoderTests.compare(Array(line.utf8))
        }
    }

    @Test("ids written as whole numbers with a point or an exponent are taken, as before", arguments: ["7", "7.0", "7.000e0", "0.7e1", "700e-2", "0", "-0", "0.0e-9999"])
    func wholeIDs(id: String) {
        for template in Self.idFields {
            let line = template.replacingOccurrences(of: "ID", with: id)
            #expect(SessionLog.parse(Self.header() + "\n" + line).failure == nil, "\(line)")
            SessionLineDecoderTests.compare(Array(line.utf8))
        }
    }

    @Test("a DOCTYPE whose internal subset has a comment with '>', quotes and brackets is skipped")
    func doctypeComment() throws {
        let text = """
            <?xml version="1.0"?>
            <!DOCTYPE ink [ <!-- it's > [odd] " --> <?pi don't > ?> <!ENTITY x "y"> ]>
            <ink><trace>1 2, 3 4</trace></ink>
            """
        var parser = XMLPullParser(source: MemoryByteSource(text))
        var names: [String] = []
        while let event = try parser.next() { if case let .start(tag) = event { names.append(tag.name) } }
        #expect(names == ["ink", "trace"])
    }

    @Test("UTF-32 is named as UTF-32, not UTF-16", arguments: [[UInt8]([0xFF, 0xFE, 0, 0]), [0, 0, 0xFE, 0xFF]])
    func utf32(bom: [UInt8]) {
        var parser = XMLPullParser(source: MemoryByteSource(bom + Array("<\0\0\0".utf8)))
        var message = ""
        do { _ = try parser.next() } catch { message = error.description }
        #expect(message.contains("UTF-32"), "\(message)")
    }
}

@Suite("Memory bounds per format: what one reader holds")
struct MemoryBoundTests {
    @Test("a session log file is read a line at a time: a line 2 MiB over the cap is refused at the cap (its length unread), the lines before it kept")
    func sessionLogLine() throws {
        let path = FileManagerPaths.temporaryFile("long.jsonl")
        let header = #"{"format":"scratchpad-ink-session","version":1,"canvas":{"width":10,"height":10}}"#
        let down = #"{"kind":"touch","t":1,"touch":1,"phase":"began","samples":[{"t":1,"x":1,"y":1}]}"#
        let long = #"{"kind":"touch","pad":""# + String(repeating: "x", count: SessionLog.maxLineBytes + (2 << 20)) + #""}"#
        try (header + "\n" + down + "\n" + long + "\n" + down + "\n").write(toFile: path, atomically: false, encoding: .utf8)
        let result = SessionLog.read(contentsOf: path)
        #expect(result.log?.events.count == 1)
        #expect(result.failure?.line == 3)
        #expect(result.failure?.reason == .lineTooLong(bytes: nil, limit: SessionLog.maxLineBytes))
    }

    @Test("a file that cannot be opened says why (it used to say 'permission denied or not a regular file' for any failure)")
    func unreadable() {
        let result = SessionLog.read(contentsOf: "/nonexistent/log.jsonl")
        #expect(result.failure?.reason == .unreadable("no such file"))
    }

    @Test("a Quick, Draw! drawing over 1 MiB is refused before it is parsed (10^6 strokes took 1.2 GB)")
    func quickDrawDrawing() {
        let strokes = (0..<80_000).map { "[[1],[2],[\($0)]]" }.joined(separator: ",")
        let line = #"{"word":"x","key_id":"1","drawing":["# + strokes + "]}\n"
        #expect(line.utf8.count > QuickDrawStream<MemoryByteSource>.maxDrawingBytes)
        let result = QuickDrawReader.read(Array(line.utf8))
        #expect(result.drawings.isEmpty && result.faults.first?.message.contains("longer than 1048576 bytes") == true,
                "\(result.faults.map(\.message))")
    }

    @Test("an InkML trace of more than 500,000 points is refused, the traces around it still import (10^7 points took 4.1 GB)")
    func inkmlTrace() throws {
        let long = (0...InkMLTraceDecoder.maxPoints).map { "\($0 % 500) 1" }.joined(separator: ",")
        let text = "<ink><trace>1 2, 3 4</trace><trace>" + long + "</trace><trace>5 6</trace></ink>"
        var reader = InkMLReader(source: MemoryByteSource(text), file: "long.inkml")
        var strokes = 0, messages: [String] = []
        while true {
            do { guard try reader.next() != nil else { break }; strokes += 1 } catch {
                messages.append(error.description)
                if error.isFatal { break }
            }
        }
        #expect(strokes == 2)
        #expect(messages.count == 1 && messages[0].contains("more than 500000 points"), "\(messages)")
    }
}

enum FileManagerPaths {
    static func temporaryFile(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("memory-\(UUID().uuidString)-\(name)").path
    }
}
