@_spi(Tooling) import InkCore
@_spi(Tooling) import HitTestBridge
/// Why an XML text is not well formed (or uses something this reader refuses).
package struct XMLSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The 1-based line where the problem was found.
    package var line: Int
    /// What was wrong.
    package var message: String

    package var description: String { "line \(line): \(message)" }
}

/// The start of an element.
package struct XMLStartTag: Sendable, Hashable {
    /// The name without its namespace prefix (`trace` for `inkml:trace`).
    package var name: String
    /// Attributes by their names as written (`xml:id`, `contextRef`), values with entity
    /// and character references replaced.
    package var attributes: [String: String]
    /// The 1-based line of the `<`.
    package var line: Int
}

/// One step through an XML document.
package enum XMLEvent: Sendable, Hashable {
    /// An element starts (an empty-element tag gives `start` then `end`).
    case start(XMLStartTag)
    /// An element ends: its local name and the line of its end.
    case end(name: String, line: Int)
    /// Character data inside an element, references replaced, CDATA included, as UTF-8
    /// bytes (one event per run of text between two tags; comments split no runs).
    case text([UInt8], line: Int)
}

/// A streaming (pull) XML reader over a ``ByteSource``: it holds a small window of the
/// input, the stack of open elements and the current run of text, never the document.
///
/// It checks well-formedness as it goes (matched tags, quoted attributes, no duplicate
/// attributes, known entity references, one root, nothing but white space, comments and
/// processing instructions outside it) and reports the line of any fault. It reads UTF-8
/// (and ASCII); a declaration of another encoding, or a UTF-16 byte order mark, is refused
/// with an error rather than misread. DOCTYPE declarations are skipped; entities they
/// declare are not expanded (a reference to one is an error), which also shuts out
/// entity-expansion attacks.
package struct XMLPullParser<Source: ByteSource> {
    private var source: Source
    private var buffer: [UInt8] = []
    private var position = 0
    private var atEndOfInput = false
    private var line = 1
    private var openElements: [(name: String, line: Int)] = []
    private var pendingEnd: (name: String, line: Int)?
    private var pendingText: [UInt8] = []
    private var textLine = 1
    private var sawRoot = false
    private var finished = false
    /// Deepest nesting accepted.
    package let maxDepth: Int
    /// Longest run of text accepted, in bytes.
    package let maxTextBytes: Int

    /// The 1-based line the reader has reached.
    package var currentLine: Int { line }
    /// The largest number of input bytes held at once so far.
    package private(set) var peakBufferedBytes = 0

    package init(source: Source, maxDepth: Int = 64, maxTextBytes: Int = 512 << 20) {
        self.source = source
        self.maxDepth = maxDepth
        self.maxTextBytes = maxTextBytes
    }

    // MARK: Input window

    /// Makes at least `count` bytes available from `position`, unless the input ends.
    private mutating func fill(_ count: Int) throws(XMLSyntaxError) -> Bool {
        while buffer.count - position < count {
            if atEndOfInput { return false }
            if position > 0 && position >= buffer.count / 2 {
                buffer.removeFirstBounded(position)
                position = 0
            }
            let chunk: [UInt8]
            do { chunk = try source.read(upTo: 1 << 16) } catch {
                throw XMLSyntaxError(line: line, message: error.message)
            }
            if chunk.isEmpty { atEndOfInput = true; return buffer.count - position >= count }
            buffer.append(contentsOf: chunk)
            peakBufferedBytes = max(peakBufferedBytes, buffer.count)
        }
        return true
    }

    private mutating func peek() throws(XMLSyntaxError) -> UInt8? {
        guard try fill(1) else { return nil }
        return buffer[position]
    }

    private mutating func take() throws(XMLSyntaxError) -> UInt8? {
        guard try fill(1) else { return nil }
        let byte = buffer[position]
        position += 1
        if byte == 0x0A { line += 1 }
        return byte
    }

    /// Whether the input continues with `literal` (consumed when it does).
    private mutating func skip(_ literal: String) throws(XMLSyntaxError) -> Bool {
        let bytes = Array(literal.utf8)
        guard try fill(bytes.count) else { return false }
        for (i, byte) in bytes.enumerated() where buffer[position + i] != byte { return false }
        for _ in bytes { _ = try take() }
        return true
    }

    private func fault(_ message: String, at line: Int? = nil) -> XMLSyntaxError {
        XMLSyntaxError(line: line ?? self.line, message: message)
    }

    // MARK: Events

    /// The next event, or `nil` at the end of a well-formed document.
    package mutating func next() throws(XMLSyntaxError) -> XMLEvent? {
        if let end = pendingEnd {
            pendingEnd = nil
            return try closeElement(end.name, line: end.line)
        }
        if finished { return nil }
        if position == 0 && buffer.isEmpty && line == 1 { try checkByteOrderMark() }
        while true {
            guard let byte = try peek() else { return try endOfInput() }
            if byte == UInt8(ascii: "<") {
                if try skip("<!--") { try skipComment(); continue }
                if try skip("<![CDATA[") { try readCDATA(); continue }
                if try skip("<?") { try skipProcessingInstruction(); continue }
                if try skip("<!DOCTYPE") { try skipDoctype(); continue }
                if !pendingText.isEmpty, !openElements.isEmpty {
                    let text = pendingText
                    pendingText = []
                    return .text(text, line: textLine)
                }
                pendingText = []
                if try skip("</") { return try readEndTag() }
                _ = try take()
                return try readStartTag()
            }
            try readCharacterData()
        }
    }

    private mutating func checkByteOrderMark() throws(XMLSyntaxError) {
        if try fill(4), (buffer[0] == 0xFF && buffer[1] == 0xFE && buffer[2] == 0 && buffer[3] == 0)
            || (buffer[0] == 0 && buffer[1] == 0 && buffer[2] == 0xFE && buffer[3] == 0xFF) {
            throw fault("UTF-32 input is not supported; convert the file to UTF-8")
        }
        guard try fill(2) else { return }
        if (buffer[0] == 0xFE && buffer[1] == 0xFF) || (buffer[0] == 0xFF && buffer[1] == 0xFE) {
            throw fault("UTF-16 input is not supported; convert the file to UTF-8")
        }
        if try fill(3), buffer[0] == 0xEF, buffer[1] == 0xBB, buffer[2] == 0xBF { position = 3 }
    }

    private mutating func endOfInput() throws(XMLSyntaxError) -> XMLEvent? {
        if let open = openElements.last {
            throw fault("the input ends inside <\(open.name)> (opened at line \(open.line))")
        }
        guard sawRoot else { throw fault("no root element") }
        finished = true
        return nil
    }

    private mutating func readCharacterData() throws(XMLSyntaxError) {
        if pendingText.isEmpty { textLine = line }
        while let byte = try peek(), byte != UInt8(ascii: "<") {
            if byte == UInt8(ascii: "&") {
                _ = try take()
                pendingText.append(contentsOf: try readReference())
            } else {
                _ = try take()
                if openElements.isEmpty && !xmlIsSpace(byte) {
                    throw fault(sawRoot ? "text after the root element" : "text before the root element")
                }
                pendingText.append(byte)
            }
            if pendingText.count > maxTextBytes {
                throw fault("a run of text longer than \(maxTextBytes) bytes", at: textLine)
            }
        }
    }

    private mutating func readCDATA() throws(XMLSyntaxError) {
        guard !openElements.isEmpty else { throw fault("CDATA outside the root element") }
        if pendingText.isEmpty { textLine = line }
        let start = line
        while true {
            if try skip("]]>") { return }
            guard let byte = try take() else { throw fault("unterminated CDATA section (opened at line \(start))") }
            pendingText.append(byte)
        }
    }

    private mutating func skipComment() throws(XMLSyntaxError) {
        let start = line
        while true {
            if try skip("-->") { return }
            guard try take() != nil else { throw fault("unterminated comment (opened at line \(start))") }
        }
    }

    private mutating func skipProcessingInstruction() throws(XMLSyntaxError) {
        let start = line
        var content: [UInt8] = []
        while true {
            if try skip("?>") { break }
            guard let byte = try take() else { throw fault("unterminated processing instruction (opened at line \(start))") }
            if content.count < 512 { content.append(byte) }
        }
        let text = String(decoding: content, as: UTF8.self)
        guard text.hasPrefix("xml ") || text.hasPrefix("xml\t") || text.hasPrefix("xml\n") || text.hasPrefix("xml\r") else { return }
        if let range = Self.find("encoding", in: text) {
            let rest = text[range...].drop { $0 == " " || $0 == "=" }
            let quote = rest.first
            let value = rest.dropFirst().prefix { $0 != quote }.lowercased()
            guard ["utf-8", "utf8", "us-ascii", "ascii"].contains(value) else {
                throw fault("the document declares encoding \"\(value)\"; only UTF-8 is supported", at: start)
            }
        }
    }

    private mutating func skipDoctype() throws(XMLSyntaxError) {
        let start = line
        var brackets = 0
        var quote: UInt8?
        while true {
            // Comments and processing instructions in the internal subset may hold quotes,
            // brackets and '>' of their own.
            if quote == nil, brackets > 0 {
                if try skip("<!--") { try skipComment(); continue }
                if try skip("<?") { try skipProcessingInstruction(); continue }
            }
            guard let byte = try take() else { break }
            if let q = quote { if byte == q { quote = nil }; continue }
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "'"): quote = byte
            case UInt8(ascii: "["): brackets += 1
            case UInt8(ascii: "]"): brackets -= 1
            case UInt8(ascii: ">") where brackets <= 0: return
            default: break
            }
        }
        throw fault("unterminated DOCTYPE (opened at line \(start))")
    }

    /// After `&`: the replacement bytes of an entity or character reference.
    private mutating func readReference() throws(XMLSyntaxError) -> [UInt8] {
        var name: [UInt8] = []
        while let byte = try take() {
            if byte == UInt8(ascii: ";") {
                let text = String(decoding: name, as: UTF8.self)
                switch text {
                case "lt": return [UInt8(ascii: "<")]
                case "gt": return [UInt8(ascii: ">")]
                case "amp": return [UInt8(ascii: "&")]
                case "quot": return [UInt8(ascii: "\"")]
                case "apos": return [UInt8(ascii: "'")]
                default:
                    if text.hasPrefix("#") {
                        let digits = text.dropFirst()
                        let value = digits.hasPrefix("x") ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
                        guard let value, let scalar = Unicode.Scalar(value), value != 0 else {
                            throw fault("invalid character reference &\(text);")
                        }
                        return Array(String(Character(scalar)).utf8)
                    }
                    throw fault("unknown entity &\(text); (only the five predefined entities and character references are expanded)")
                }
            }
            guard name.count < 16, !xmlIsSpace(byte), byte != UInt8(ascii: "<") else { break }
            name.append(byte)
        }
        throw fault("a bare '&' (write &amp;)")
    }

    private mutating func readName() throws(XMLSyntaxError) -> String {
        var bytes: [UInt8] = []
        while let byte = try peek(), !xmlIsSpace(byte), byte != UInt8(ascii: ">"), byte != UInt8(ascii: "/"),
              byte != UInt8(ascii: "="), byte != UInt8(ascii: "<"), byte != UInt8(ascii: "\""), byte != UInt8(ascii: "'") {
            _ = try take()
            bytes.append(byte)
            if bytes.count > 256 { throw fault("a name longer than 256 bytes") }
        }
        guard let first = bytes.first else { throw fault("expected a name") }
        if first == UInt8(ascii: "-") || first == UInt8(ascii: ".") || (0x30...0x39).contains(first) {
            throw fault("a name cannot start with \(InputText.byte(first))")
        }
        guard let name = strictUTF8String(bytes) else { throw fault("a name that is not valid UTF-8") }
        return name
    }

    private mutating func skipSpace() throws(XMLSyntaxError) {
        while let byte = try peek(), xmlIsSpace(byte) { _ = try take() }
    }

    private mutating func readStartTag() throws(XMLSyntaxError) -> XMLEvent {
        let tagLine = line
        if sawRoot && openElements.isEmpty { throw fault("a second root element") }
        let name = try readName()
        var attributes: [String: String] = [:]
        while true {
            let next = try peek()
            let hadSpace = next.map { xmlIsSpace($0) } ?? false
            try skipSpace()
            guard let byte = try peek() else { throw fault("the input ends inside the tag <\(name)", at: tagLine) }
            if byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/") { break }
            guard hadSpace else { throw fault("expected white space before attribute in <\(name)>") }
            let attribute = try readName()
            try skipSpace()
            guard try take() == UInt8(ascii: "=") else { throw fault("expected '=' after attribute \(attribute) in <\(name)>") }
            try skipSpace()
            guard let quote = try take(), quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
                throw fault("the value of attribute \(attribute) in <\(name)> is not quoted")
            }
            var value: [UInt8] = []
            while true {
                guard let byte = try take() else { throw fault("unterminated value of attribute \(attribute)", at: tagLine) }
                if byte == quote { break }
                if byte == UInt8(ascii: "<") { throw fault("'<' inside the value of attribute \(attribute)") }
                if byte == UInt8(ascii: "&") { value.append(contentsOf: try readReference()); continue }
                value.append(xmlIsSpace(byte) ? UInt8(ascii: " ") : byte)
                if value.count > 1 << 20 { throw fault("the value of attribute \(attribute) is longer than 1 MiB") }
            }
            guard attributes[attribute] == nil else { throw fault("attribute \(attribute) appears twice in <\(name)>") }
            guard let text = strictUTF8String(value) else {
                throw fault("the value of attribute \(attribute) is not valid UTF-8")
            }
            attributes[attribute] = text
        }
        let selfClosing = try skip("/")
        guard try take() == UInt8(ascii: ">") else { throw fault("expected '>' to close <\(name)") }
        guard openElements.count < maxDepth else { throw fault("elements nested deeper than \(maxDepth)") }
        let local = Self.localName(name)
        openElements.append((name, tagLine))
        sawRoot = true
        if selfClosing { pendingEnd = (name, line) }
        return .start(XMLStartTag(name: local, attributes: attributes, line: tagLine))
    }

    private mutating func readEndTag() throws(XMLSyntaxError) -> XMLEvent {
        let endLine = line
        let name = try readName()
        try skipSpace()
        guard try take() == UInt8(ascii: ">") else { throw fault("expected '>' to close </\(name)") }
        return try closeElement(name, line: endLine)
    }

    private mutating func closeElement(_ name: String, line endLine: Int) throws(XMLSyntaxError) -> XMLEvent {
        guard let open = openElements.popLast() else { throw fault("</\(name)> closes nothing", at: endLine) }
        guard open.name == name else {
            throw fault("</\(name)> does not match <\(open.name)> (opened at line \(open.line))", at: endLine)
        }
        return .end(name: Self.localName(name), line: endLine)
    }

    private static func localName(_ name: String) -> String {
        guard let colon = name.lastIndex(of: ":") else { return name }
        return String(name[name.index(after: colon)...])
    }

    /// The index just past the first occurrence of `word` in `text`.
    private static func find(_ word: String, in text: String) -> String.Index? {
        var index = text.startIndex
        while index < text.endIndex {
            if text[index...].hasPrefix(word) { return text.index(index, offsetBy: word.count) }
            index = text.index(after: index)
        }
        return nil
    }
}

func xmlIsSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
}
