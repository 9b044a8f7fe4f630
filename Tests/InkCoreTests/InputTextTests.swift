import Testing
@testable import InkCore

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
