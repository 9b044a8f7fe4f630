import Testing
@_spi(Tooling) @testable import InkCore
@_spi(Tooling) import HitTestBridge
@_spi(Tooling) @testable import InkRecording

@Suite("Streaming XML reader")
struct XMLPullParserTests {
    static func events(_ text: String, chunkSize: Int = 1 << 16) throws(XMLSyntaxError) -> [XMLEvent] {
        var parser = XMLPullParser(source: MemoryByteSource(text, chunkSize: chunkSize))
        var events: [XMLEvent] = []
        while let event = try parser.next() { events.append(event) }
        return events
    }

    static func failure(_ text: String) -> XMLSyntaxError? {
        do { _ = try events(text); return nil } catch { return error }
    }

    static let document = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE ink [ <!ENTITY x "y"> ]>
        <inkml:ink xmlns:inkml="http://www.w3.org/2003/InkML">
          <!-- a comment with <tags> & ampersands -->
          <trace xml:id='t1' contextRef="#a&amp;b">1 2, 3 &lt;4&gt; &#65;&#x42;<![CDATA[ <raw> & ]]></trace>
          <empty a = "1"/>
        </inkml:ink>
        """

    @Test("elements, attributes, references, CDATA and comments; prefixes stripped from element names")
    func wellFormed() throws {
        let events = try Self.events(Self.document)
        let starts = events.compactMap { event -> XMLStartTag? in if case let .start(tag) = event { return tag }; return nil }
        #expect(starts.map(\.name) == ["ink", "trace", "empty"])
        #expect(starts[1].attributes == ["xml:id": "t1", "contextRef": "#a&b"])
        #expect(starts[1].line == 5)
        #expect(starts[2].attributes == ["a": "1"])
        let texts = events.compactMap { event -> String? in
            if case let .text(bytes, _) = event { return String(decoding: bytes, as: UTF8.self) }
            return nil
        }
        #expect(texts.contains("1 2, 3 <4> AB <raw> & "))
        let ends = events.compactMap { event -> String? in if case let .end(name, _) = event { return name }; return nil }
        #expect(ends == ["trace", "empty", "ink"])
    }

    @Test("every chunk size gives the same events (boundaries inside tags, references and CDATA)", arguments: [1, 2, 3, 5, 7, 64])
    func chunkBoundaries(chunkSize: Int) throws {
        #expect(try Self.events(Self.document, chunkSize: chunkSize) == Self.events(Self.document))
    }

    @Test("a fault is reported with its line", arguments: [
        ("<ink>\n<trace>\n</ink>", 3, "</ink> does not match <trace> (opened at line 2)"),
        ("<ink>\n<trace>1 2", 2, "the input ends inside <trace> (opened at line 2)"),
        ("<ink>\n&nbsp;</ink>", 2, "unknown entity &nbsp; (only the five predefined entities and character references are expanded)"),
        ("<ink>\n<a b=\"1\" b=\"2\"/></ink>", 2, "attribute b appears twice in <a>"),
        ("<ink>\n<a b=1/></ink>", 2, "the value of attribute b in <a> is not quoted"),
        ("<ink/>\n<ink/>", 2, "a second root element"),
        ("<ink/>\ntext", 2, "text after the root element"),
        ("<ink>\n<!-- never closed", 2, "unterminated comment (opened at line 2)"),
        ("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><ink/>", 1, "the document declares encoding \"iso-8859-1\"; only UTF-8 is supported"),
        ("<ink>\n<1a/></ink>", 2, "a name cannot start with '1'"),
        ("<ink>\n a & b</ink>", 2, "a bare '&' (write &amp;)"),
        ("", 1, "no root element"),
        ("<ink>\n</trace>", 2, "</trace> does not match <ink> (opened at line 1)"),
        ("<ink>&#0;</ink>", 1, "invalid character reference &#0;"),
    ])
    func faults(text: String, line: Int, message: String) {
        let error = Self.failure(text)
        #expect(error?.line == line)
        #expect(error?.message == message)
    }

    @Test("UTF-16 input is refused, not misread")
    func utf16() {
        var parser = XMLPullParser(source: MemoryByteSource([0xFF, 0xFE, 0x3C, 0x00]))
        #expect(throws: XMLSyntaxError(line: 1, message: "UTF-16 input is not supported; convert the file to UTF-8")) { try parser.next() }
    }

    @Test("nesting deeper than the limit is refused (hostile input cannot grow the stack)")
    func depthLimit() {
        let text = String(repeating: "<a>", count: 100) + String(repeating: "</a>", count: 100)
        #expect(Self.failure(text)?.message == "elements nested deeper than 64")
    }
}
