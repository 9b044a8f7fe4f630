import Testing
@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkCore

@Suite("The page's background")
struct PageBackgroundTests {
    @Test("computed-style colours parse: rgb, rgba, space syntax with a slash, percentages, the canvas fallbacks; anything else is nil")
    func parses() {
        #expect(PageBackground.color(css: "rgb(255, 255, 255)") == .white)
        #expect(PageBackground.color(css: " rgba(0, 0, 51, 0.5) ") == InkColor(red: 0, green: 0, blue: 0.2, alpha: 0.5))
        #expect(PageBackground.color(css: "rgb(0 0 0 / 25%)") == InkColor(red: 0, green: 0, blue: 0, alpha: 0.25))
        #expect(PageBackground.color(css: "canvas-dark") == PageBackground.darkCanvas)
        #expect(PageBackground.color(css: "canvas-light") == .white)
        for bad in ["", "transparent", "rgb(1, 2)", "rgb(a, b, c)", "hsl(0 0% 0%)", "rgb(1, 2, 3", "rgb(nan, 1, 1)"] {
            #expect(PageBackground.color(css: Substring(bad)) == nil, "\(bad)")
        }
    }

    @Test("the page's background is the colour most probed points share; nothing parsable is nil")
    func majority() {
        let dark = "rgb(17, 20, 31)", card = "rgb(250, 250, 250)"
        #expect(PageBackground.color(fromProbeResult: [card, dark, dark, card, dark, dark, dark, card, dark].joined(separator: "|"))
                == PageBackground.color(css: Substring(dark)))
        #expect(PageBackground.color(fromProbeResult: "canvas-light|\(dark)") == .white, "a tie goes to the first seen")
        #expect(PageBackground.color(fromProbeResult: "") == nil)
        #expect(PageBackground.color(fromProbeResult: "undefined") == nil)
    }

    @Test("a dark page gets the light ink, a light page the dark ink")
    func inkFor() throws {
        let dark = try #require(PageBackground.color(fromProbeResult: "rgb(17, 20, 31)"))
        #expect(InkColor.contrasting(with: dark) == .lightInk)
        let light = try #require(PageBackground.color(fromProbeResult: "rgb(251, 251, 246)"))
        #expect(InkColor.contrasting(with: light) == .darkInk)
    }

    @Test("the probe script is one JavaScript expression that returns the colours joined by |")
    func script() {
        let script = PageBackground.probeScript
        #expect(script.hasPrefix("(function () {") && script.hasSuffix("})()"))
        #expect(script.contains("elementFromPoint") && script.contains("getComputedStyle") && script.contains("join('|')"))
    }
}
