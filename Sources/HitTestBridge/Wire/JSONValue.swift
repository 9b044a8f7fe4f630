@_spi(Tooling) import InkCore
/// A parsed JSON value. Objects keep their keys in document order (and the parser refuses
/// duplicate keys), so a value written by ``JSONValue/serialized()`` reads back identically.
///
/// Shared by the session-log reader and writer and by the bridge's wire messages; not
/// public API.
package enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// A short name of the value's type, for error messages.
    package var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

/// A JSON object with its keys in document order.
package struct JSONObject: Sendable, Equatable {
    package var members: [(key: String, value: JSONValue)]
    /// The keys whose number the parser read from a text that is not a whole number, though
    /// the `Double` it gives is one (`4503599627370496.5` reads as 4503599627370496,
    /// `0.99999999999999999999` as 1): an id or a count must not be taken from them
    /// (issue 40). Not part of equality (a value built in code has none).
    package var roundedToWhole: [String] = []

    package init(_ members: [(key: String, value: JSONValue)] = []) { self.members = members }

    /// The value for `key`, or `nil` when absent.
    package subscript(key: String) -> JSONValue? {
        members.first(where: { $0.key == key })?.value
    }

    /// Appends a member (the caller keeps keys unique).
    package mutating func append(_ key: String, _ value: JSONValue) {
        members.append((key, value))
    }

    /// Appends a member when `value` is not `nil`.
    package mutating func append(_ key: String, ifPresent value: JSONValue?) {
        if let value { members.append((key, value)) }
    }

    package static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.members.count == rhs.members.count
            && zip(lhs.members, rhs.members).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }
}

extension JSONValue {
    /// Compact JSON text with no insignificant white space. Numbers use the shortest
    /// representation that reads back to the same `Double`; integral values print without a
    /// fraction. Non-finite numbers (which JSON cannot represent) print as `null`.
    package func serialized() -> String {
        var out = ""
        write(to: &out)
        return out
    }

    package func write(to out: inout some JSONTextOutput) {
        switch self {
        case .null: out.write(ascii: "null")
        case let .bool(value): if value { out.write(ascii: "true") } else { out.write(ascii: "false") }
        case let .number(value): out.write(number: value)
        case let .string(value): JSONValue.writeString(value, to: &out)
        case let .array(values):
            out.write(ascii: "[")
            for (i, value) in values.enumerated() {
                if i > 0 { out.write(ascii: ",") }
                value.write(to: &out)
            }
            out.write(ascii: "]")
        case let .object(object):
            out.write(ascii: "{")
            for (i, member) in object.members.enumerated() {
                if i > 0 { out.write(ascii: ",") }
                JSONValue.writeString(member.key, to: &out)
                out.write(ascii: ":")
                member.value.write(to: &out)
            }
            out.write(ascii: "}")
        }
    }

    /// `a - b` as a number's text (``format(_:)``), also where the difference of two finite
    /// values passes the largest double (a jump from -1e308 to 1e308, which `format(_:)`
    /// writes `null`): then it is the text of half of it, `a / 2 - b / 2` (always finite),
    /// doubled digit by digit: `2.7e+308`. A non-finite `a` or `b` is written as `format(_:)`
    /// writes it.
    package static func format(differenceOf a: Double, minus b: Double) -> String {
        let difference = a - b
        guard !difference.isFinite, a.isFinite, b.isFinite else { return format(difference) }
        return doubled(format(a / 2 - b / 2))
    }

    /// A decimal number's text multiplied by two, exactly, in the form `d.ddd…e+x`.
    static func doubled(_ text: String) -> String {
        var text = Substring(text)
        let negative = text.first == "-"
        if negative { text = text.dropFirst() }
        let parts = text.split(separator: "e", maxSplits: 1)
        var exponent = parts.count > 1 ? Int(parts[1].drop { $0 == "+" }) ?? 0 : 0
        let mantissa = parts[0]
        let point = mantissa.firstIndex(of: ".")
        var digits = Array(mantissa.filter { $0 != "." }.utf8).map { Int($0) - 48 }
        exponent += (point.map { mantissa.distance(from: mantissa.startIndex, to: $0) } ?? mantissa.count) - 1
        var carry = 0
        for i in digits.indices.reversed() {
            let d = digits[i] * 2 + carry
            digits[i] = d % 10
            carry = d / 10
        }
        if carry > 0 { digits.insert(carry, at: 0); exponent += 1 }
        while digits.count > 1, digits.first == 0 { digits.removeFirst(); exponent -= 1 }
        while digits.count > 1, digits.last == 0 { digits.removeLast() }
        let shown = digits.map { String($0) }
        return (negative ? "-" : "") + shown[0] + (shown.count > 1 ? "." + shown.dropFirst().joined() : "")
            + "e" + (exponent < 0 ? "-" : "+") + String(abs(exponent))
    }

    package static func format(_ value: Double) -> String {
        var out = ""
        out.write(number: value)
        return out
    }

    private static func writeString(_ value: String, to out: inout some JSONTextOutput) {
        out.write(ascii: "\"")
        // Most strings need no escape: copy them whole.
        let plain = value.utf8.withContiguousStorageIfAvailable { bytes in
            !bytes.contains(where: { $0 == 0x22 || $0 == 0x5C || $0 < 0x20 })
        } ?? !value.utf8.contains(where: { $0 == 0x22 || $0 == 0x5C || $0 < 0x20 })
        if plain {
            out.write(value)
            out.write(ascii: "\"")
            return
        }
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out.write(ascii: "\\\"")
            case "\\": out.write(ascii: "\\\\")
            case "\n": out.write(ascii: "\\n")
            case "\r": out.write(ascii: "\\r")
            case "\t": out.write(ascii: "\\t")
            // Short escapes for backspace and form feed too: a recorder's text of a page's
            // string is then never longer than the page's (issue 53; `\u0008` was 4 more).
            case "\u{08}": out.write(ascii: "\\b")
            case "\u{0C}": out.write(ascii: "\\f")
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out.write("\\u" + String(repeating: "0", count: 4 - hex.count) + hex)
            default: out.write(scalar: scalar)
            }
        }
        out.write(ascii: "\"")
    }
}
