import Testing
@_spi(Tooling) import InkCore
@_spi(Tooling) @testable import HitTestBridge

@Suite("PageViewInput: the view inputs' one wire form, encoder beside decoder")
struct PageViewInputTests {
    static let inputs: [PageViewInput] = [
        .layout(PageTransform(scale: 1.5, offsetX: 12, offsetY: -3), generation: 7),
        .layout(PageTransform(scale: 1, offsetX: 0, offsetY: 40), generation: nil),
        .newDocument(PageTransform(scale: 2, offsetX: 0, offsetY: 0)),
        .viewResized(PageTransform(scale: 1, offsetX: 5, offsetY: 600)),
    ]

    @Test("each input's line reads back as the same input, and as the same EngineInput", arguments: inputs)
    func roundTrip(input: PageViewInput) throws {
        let text = input.line(time: 2.5).serialized()
        let object = try JSONFieldReader(try JSONParser.parse(Array(text.utf8)))
        let kind = try object.string("kind")
        #expect(PageViewInput.kinds.contains(kind))
        #expect(try object.double("t") == 2.5)
        let read = try #require(try PageViewInput.decode(kind: kind, object))
        #expect(read == input)
        #expect(PageViewInput(read.input) == input)
    }

    @Test("the kinds are the cases': every kind reads, and a line of another kind is not a view input")
    func kinds() throws {
        #expect(Set(Self.inputs.map(\.kind)) == PageViewInput.kinds)
        let touch = try JSONFieldReader(try JSONParser.parse(Array(#"{"kind":"touch","t":1}"#.utf8)))
        #expect(try PageViewInput.decode(kind: "touch", touch) == nil)
        #expect(PageViewInput(.tick) == nil)
    }
}
