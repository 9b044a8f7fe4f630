import Testing
@_spi(Tooling) @testable import InkCore
@_spi(Tooling) import HitTestBridge
@_spi(Tooling) @testable import InkRecording

@Suite("Host input lines: a long line is refused alone, the lines around it survive")
struct LineSplitterTests {
    /// The lines of `text` as the host must see them, whatever the pieces.
    static func reference(_ lines: [[UInt8]], cap: Int) -> [LineSplitter.Piece] {
        lines.map { $0.count > cap ? .tooLong(bytes: $0.count) : .line($0) }
    }

    @Test("any lines, any chunking: every line once, in order; each over-long one reported once; the cap is exact",
          arguments: 0..<40)
    func property(seed: Int) {
        var random = SplitMix64(seed: UInt64(seed))
        let cap = 1 + Int(random.next() % 40)
        let lines: [[UInt8]] = (0..<Int(random.next() % 12)).map { _ in
            let length = [0, cap - 1, cap, cap + 1, Int(random.next() % UInt64(3 * cap + 1))][Int(random.next() % 5)]
            return (0..<max(0, length)).map { _ in UInt8(0x61 + random.next() % 26) }
        }
        let crlf = random.next() % 2 == 0
        let finalNewline = random.next() % 2 == 0
        var stream: [UInt8] = []
        for (i, line) in lines.enumerated() {
            stream += line
            if i < lines.count - 1 || finalNewline { stream += crlf ? [0x0D, 0x0A] : [0x0A] }
        }
        var splitter = LineSplitter(maxLineBytes: cap)
        var pieces: [LineSplitter.Piece] = []
        var start = 0
        while start < stream.count {
            let size = 1 + Int(random.next() % UInt64(2 * cap + 3))
            splitter.feed(stream[start..<min(stream.count, start + size)], into: &pieces)
            start += size
        }
        if let last = splitter.finish() { pieces.append(last) }
        var expected = Self.reference(lines, cap: cap)
        if !finalNewline, lines.last?.isEmpty == true { expected.removeLast() }   // nothing after the last newline
        #expect(pieces == expected, "cap \(cap), crlf \(crlf), final newline \(finalNewline)")
    }

    @Test("the lines that arrive in the same read as an over-long line's tail are kept (they were merged and refused)")
    func sameRead() {
        var splitter = LineSplitter(maxLineBytes: 8)
        var pieces: [LineSplitter.Piece] = []
        splitter.feed(Array("0123456789".utf8), into: &pieces)
        splitter.feed(Array("abc\nfirst\nsecond\n".utf8), into: &pieces)
        #expect(pieces == [.tooLong(bytes: 13), .line(Array("first".utf8)), .line(Array("second".utf8))])
        #expect(splitter.finish() == nil)
    }

    @Test("after a 900 KB line, the splitter holds storage for the line in progress only, and hands out lines sized by what they hold (issue 53)")
    func retainedStorageIsBoundedByTheLineHeld() {
        var splitter = LineSplitter(maxLineBytes: 1 << 20)
        var pieces: [LineSplitter.Piece] = []
        // The long line arrives in pieces, as a host reads it, so the splitter holds it.
        let long = [UInt8](repeating: 0x61, count: 900_000)
        for start in stride(from: 0, to: long.count, by: 1 << 16) {
            splitter.feed(long[start..<min(long.count, start + (1 << 16))], into: &pieces)
        }
        splitter.feed([0x0A], into: &pieces)
        #expect(pieces.count == 1)
        pieces.removeAll()
        var largest = 0
        for i in 0..<1_000 {
            splitter.feed(Array(#"{"kind":"tick","t":\#(i)}"#.utf8), into: &pieces)
            largest = max(largest, splitter.retainedBytes)
            splitter.feed([0x0A], into: &pieces)
            for case let .line(bytes) in pieces { largest = max(largest, bytes.capacity) }
            pieces.removeAll()
        }
        // Before: 900,000 bytes held after every line (and each line handed out that large).
        #expect(largest < 1_024, "the splitter held \(largest) bytes for lines of under 32")
        #expect(splitter.retainedBytes < 1_024)
    }
}
