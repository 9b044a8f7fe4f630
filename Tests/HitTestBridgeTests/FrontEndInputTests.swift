import Testing
@_spi(Tooling) import InkCore
@_spi(Tooling) @testable import HitTestBridge

@Suite("FrontEndInput: the view and pencil inputs' one wire form, encoder beside decoder")
struct FrontEndInputTests {
    static let inputs: [FrontEndInput] = [
        .layout(PageTransform(scale: 1.5, offsetX: 12, offsetY: -3), generation: 7),
        .layout(PageTransform(scale: 1, offsetX: 0, offsetY: 40), generation: nil),
        .newDocument(PageTransform(scale: 2, offsetX: 0, offsetY: 0)),
        .viewResized(PageTransform(scale: 1, offsetX: 5, offsetY: 600)),
        .pencilHovering(true),
        .pencilHovering(false),
        .pencilOnly(true),
        .pencilOnly(false),
    ]

    @Test("each input's line reads back as the same input, and as the same EngineInput", arguments: inputs)
    func roundTrip(input: FrontEndInput) throws {
        let text = input.line(time: 2.5).serialized()
        let object = try JSONFieldReader(try JSONParser.parse(Array(text.utf8)))
        let kind = try object.string("kind")
        #expect(FrontEndInput.kinds.contains(kind))
        #expect(try object.double("t") == 2.5)
        let read = try #require(try FrontEndInput.decode(kind: kind, object))
        #expect(read == input)
        #expect(FrontEndInput(read.input) == input)
    }

    @Test("the kinds are the cases': every kind reads, and a line of another kind is not a view input")
    func kinds() throws {
        #expect(Set(Self.inputs.map(\.kind)) == FrontEndInput.kinds)
        let touch = try JSONFieldReader(try JSONParser.parse(Array(#"{"kind":"touch","t":1}"#.utf8)))
        #expect(try FrontEndInput.decode(kind: "touch", touch) == nil)
        #expect(FrontEndInput(.tick) == nil)
        // A pencil line without its field is refused with the field named.
        let bare = try JSONFieldReader(try JSONParser.parse(Array(#"{"kind":"pencil_hover","t":1}"#.utf8)))
        #expect(throws: JSONShapeError.self) { try FrontEndInput.decode(kind: "pencil_hover", bare) }
    }
}
