@_spi(Tooling) import InkCore
/// Why a JSON text could not be parsed.
package struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// 1-based byte column where the problem was found.
    package var column: Int
    /// What was wrong.
    package var message: String

    package var description: String { "column \(column): \(message)" }
}

/// A strict RFC 8259 JSON parser over UTF-8 bytes with a nesting limit, so hostile input
/// cannot exhaust the stack. Refuses duplicate object keys, invalid UTF-8, unpaired
/// surrogates, trailing garbage, and numbers that overflow a `Double`.
package struct JSONParser {
    /// Deepest array/object nesting accepted.
    package static let defaultMaxDepth = 32

    /// Parses exactly one JSON value (surrounding white space allowed).
    package static func parse<Bytes: Collection>(_ bytes: Bytes, maxDepth: Int = defaultMaxDepth) throws(JSONSyntaxError) -> JSONValue
    where Bytes.Element == UInt8 {
        let buffer = Array(bytes)
        return try buffer.withUnsafeBufferPointer { (pointer) throws(JSONSyntaxError) -> JSONValue in
            var parser = Cursor(bytes: pointer, maxDepth: maxDepth)
            parser.skipWhitespace()
            let value = try parser.parseValue(depth: 0)
            parser.skipWhitespace()
            guard parser.atEnd else { throw parser.error("unexpected characters after the value") }
            return value
        }
    }

    /// Parses a string's UTF-8.
    package static func parse(_ text: String, maxDepth: Int = defaultMaxDepth) throws(JSONSyntaxError) -> JSONValue {
        try parse(Array(text.utf8), maxDepth: maxDepth)
    }
}

private struct Cursor {
    let bytes: UnsafeBufferPointer<UInt8>
    let maxDepth: Int
    var index = 0
    /// Whether the last number parsed was a text with a fraction that the `Double` rounded
    /// to a whole number (see ``JSONObject/roundedToWhole``).
    var numberRoundedToWhole = false

    init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    var atEnd: Bool { index >= bytes.count }

    func error(_ message: String) -> JSONSyntaxError {
        JSONSyntaxError(column: index + 1, message: message)
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    mutating func parseValue(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard index < bytes.count else { throw error("unexpected end of input, expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectWord("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectWord("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectWord("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default:
            if index == 0, bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
                throw error("a UTF-8 byte order mark (EF BB BF) before the value")
            }
            throw error("unexpected \(InputText.byte(bytes[index])), expected a value")
        }
    }

    mutating func expectWord(_ word: StaticString) throws(JSONSyntaxError) {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw error("invalid literal") }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] {
            throw error("invalid literal")
        }
        index += count
    }

    mutating func parseObject(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard depth <= maxDepth else { throw error("nesting deeper than \(maxDepth)") }
        index += 1
        var object = JSONObject()
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(object) }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a string key") }
            let keyColumn = index
            let key = try parseString()
            if object[key] != nil {
                throw JSONSyntaxError(column: keyColumn + 1, message: "duplicate key \"\(key)\"")
            }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':' after a key") }
            index += 1
            skipWhitespace()
            numberRoundedToWhole = false
            object.append(key, try parseValue(depth: depth))
            if numberRoundedToWhole, case .number = object.members.last?.value { object.roundedToWhole.append(key) }
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input inside an object") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(object) }
            throw error("expected ',' or '}' in an object")
        }
    }

    mutating func parseArray(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard depth <= maxDepth else { throw error("nesting deeper than \(maxDepth)") }
        index += 1
        var values: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(values) }
        while true {
            skipWhitespace()
            values.append(try parseValue(depth: depth))
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input inside an array") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(values) }
            throw error("expected ',' or ']' in an array")
        }
    }

    mutating func parseNumber() throws(JSONSyntaxError) -> Double {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number: digits expected after '.'") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number: digits expected in the exponent") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw JSONSyntaxError(column: start + 1, message: "number \(InputText.quoted(text)) is out of range")
        }
        numberRoundedToWhole = value == value.rounded() && !Self.isWhole(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        return value
    }

    /// Whether a JSON number's text is a whole number, exactly: its digits, with the fraction
    /// and the exponent applied, leave no non-zero digit after the point (`12`, `1.50e1`,
    /// `0.0`; not `4503599627370496.5`, `1e-400`).
    static func isWhole(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        if i < text.count, text[i] == UInt8(ascii: "-") { i += 1 }
        var fractionDigits = 0, trailingZeros = 0, nonZero = false, inFraction = false
        while i < text.count, text[i] != UInt8(ascii: "e"), text[i] != UInt8(ascii: "E") {
            let byte = text[i]
            i += 1
            if byte == UInt8(ascii: ".") { inFraction = true; continue }
            if inFraction { fractionDigits += 1 }
            if byte == UInt8(ascii: "0") { trailingZeros += 1 } else { trailingZeros = 0; nonZero = true }
        }
        guard nonZero else { return true }   // zero, however written
        guard i < text.count else { return fractionDigits <= trailingZeros }
        i += 1
        let negative = text[i] == UInt8(ascii: "-")
        if negative || text[i] == UInt8(ascii: "+") { i += 1 }
        var exponent = 0
        while i < text.count {
            exponent = min(exponent * 10 + Int(text[i] &- UInt8(ascii: "0")), 1_000_000_000)   // beyond any line's digits
            i += 1
        }
        return (negative ? -exponent : exponent) - fractionDigits + trailingZeros >= 0
    }

    func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    mutating func parseString() throws(JSONSyntaxError) -> String {
        index += 1  // opening quote
        var scalars = String.UnicodeScalarView()
        while true {
            guard index < bytes.count else { throw error("unterminated string") }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(scalars)
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { throw error("unterminated escape") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    let high = try parseHex4()
                    if (0xD800...0xDBFF).contains(high) {
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                            throw error("unpaired surrogate in \\u escape")
                        }
                        index += 2
                        let low = try parseHex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw error("unpaired surrogate in \\u escape") }
                        let value = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
                        scalars.append(Unicode.Scalar(value)!)
                    } else {
                        guard let scalar = Unicode.Scalar(high) else { throw error("unpaired surrogate in \\u escape") }
                        scalars.append(scalar)
                    }
                default:
                    throw error("invalid escape")
                }
            case 0x00..<0x20:
                throw error("control character in a string")
            case 0x00..<0x80:
                scalars.append(Unicode.Scalar(byte))
                index += 1
            default:
                scalars.append(try parseUTF8Scalar())
            }
        }
    }

    mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("incomplete \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("invalid hex digit in \\u escape")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    /// Decodes one multi-byte UTF-8 sequence, refusing overlong forms and surrogates.
    mutating func parseUTF8Scalar() throws(JSONSyntaxError) -> Unicode.Scalar {
        let lead = bytes[index]
        let length: Int
        var value: UInt32
        switch lead {
        case 0xC2...0xDF: length = 2; value = UInt32(lead & 0x1F)
        case 0xE0...0xEF: length = 3; value = UInt32(lead & 0x0F)
        case 0xF0...0xF4: length = 4; value = UInt32(lead & 0x07)
        default: throw error("invalid UTF-8")
        }
        guard index + length <= bytes.count else { throw error("invalid UTF-8") }
        for offset in 1..<length {
            let byte = bytes[index + offset]
            guard byte & 0xC0 == 0x80 else { throw error("invalid UTF-8") }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        let minimum: UInt32 = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000
        guard value >= minimum, let scalar = Unicode.Scalar(value) else { throw error("invalid UTF-8") }
        index += length
        return scalar
    }
}
