import Testing
@_spi(Tooling) @testable import HitTestBridge

@Suite("JSON parsing and writing")
struct JSONParserTests {
    @Test("values parse into the right cases")
    func values() throws {
        let value = try JSONParser.parse(#" {"a": [1, -2.5e2, true, false, null, "x\n\u00e9\ud83d\ude00"], "b": {}} "#)
        guard case let .object(object) = value else { Issue.record("not an object"); return }
        #expect(object["a"] == .array([.number(1), .number(-250), .bool(true), .bool(false), .null, .string("x\né😀")]))
        #expect(object["b"] == .object(JSONObject()))
        #expect(object.members.map(\.key) == ["a", "b"])
    }

    @Test("serialization reads back to the same value")
    func roundTrip() throws {
        let text = #"{"z":1,"a":[0.1,-3,1e-7,"q\"\\\t\u0001"],"m":{"k":null}}"#
        let value = try JSONParser.parse(text)
        #expect(try JSONParser.parse(value.serialized()) == value)
        #expect(JSONValue.number(3).serialized() == "3")
        #expect(JSONValue.number(.nan).serialized() == "null")
    }

    @Test("malformed input is refused with a column", arguments: [
        ("{", "expected a string key"),
        ("", "unexpected end of input, expected a value"),
        (#"{"a":1,}"#, "expected a string key"),
        (#"{"a":1 "b":2}"#, "expected ',' or '}' in an object"),
        ("[1,2", "unexpected end of input inside an array"),
        ("01", "unexpected characters after the value"),
        ("1.", "invalid number: digits expected after '.'"),
        ("tru", "invalid literal"),
        (#""\x""#, "invalid escape"),
        (#""\ud800""#, "unpaired surrogate in \\u escape"),
        ("\"a\u{01}\"", "control character in a string"),
        (#"{"a":1,"a":2}"#, "duplicate key \"a\""),
        ("[1] x", "unexpected characters after the value"),
    ])
    func malformed(text: String, message: String) {
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(text) }
        do {
            _ = try JSONParser.parse(text)
        } catch {
            #expect(error.message == message)
            #expect(error.column >= 1)
        }
    }

    @Test("deep nesting is refused before it can exhaust the stack")
    func nesting() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(deep) }
        let ok = String(repeating: "[", count: 32) + String(repeating: "]", count: 32)
        #expect((try? JSONParser.parse(ok)) != nil)
    }

    @Test("invalid UTF-8 is refused", arguments: [[0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xE2, 0x82]] as [[UInt8]])
    func invalidUTF8(bytes: [UInt8]) {
        let text: [UInt8] = [0x22] + bytes + [0x22]
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(text) }
    }

    @Test("booleans sent as 0 and 1 are accepted where a boolean is expected")
    func booleanAsNumber() throws {
        let fields = try JSONFieldReader(try JSONParser.parse(#"{"a":1,"b":0,"c":true,"d":2}"#))
        #expect(try fields.bool("a") == true)
        #expect(try fields.bool("b") == false)
        #expect(try fields.bool("c") == true)
        #expect(throws: JSONShapeError.self) { try fields.bool("d") }
    }
}
