import HitTestBridge
import InkCore
import Testing

/// The one view-to-page rule every front end uses: the viewport script's result read once,
/// one validation, the inverse written once.
@Suite("The view-to-page rule, written once")
struct PageTransformRuleTests {
    @Test("the viewport script's result: [zoom, pageLeft, pageTop] is page = view / zoom + offset; anything else is nil")
    func viewportResult() {
        #expect(PageTransform(viewportResult: "[2,10,20.5]") == PageTransform(scale: 0.5, offsetX: 10, offsetY: 20.5))
        #expect(PageTransform(viewportResult: "[1,0,0]") == .identity)
        for bad in ["[0,0,0]", "[-1,0,0]", "[1,0]", "[1,0,0,0]", "null", "", "[1,\"0\",0]", "{\"scale\":1}", "[1e-320,0,0]", "[1,1e400,0]"] {
            #expect(PageTransform(viewportResult: bad) == nil, "\(bad)")
        }
    }

    @Test("isValid is the engine's rule: a finite positive scale and finite offsets")
    func validity() {
        #expect(PageTransform.identity.isValid && PageTransform(scale: 3, offsetX: -5, offsetY: 1e300).isValid)
        for bad in [PageTransform(scale: 0, offsetX: 0, offsetY: 0), PageTransform(scale: .infinity, offsetX: 0, offsetY: 0),
                    PageTransform(scale: 1, offsetX: .nan, offsetY: 0), PageTransform(scale: -1, offsetX: 0, offsetY: 0)] {
            #expect(!bad.isValid)
        }
    }

    @Test("pageToCanvas is canvasPoint(for:) as an affine map, and the inverse of pagePoint(for:)")
    func inverse() {
        let t = PageTransform(scale: 0.8, offsetX: 120, offsetY: -40)
        let m = t.pageToCanvas
        for p in [PagePoint(x: 0, y: 0), PagePoint(x: 333.5, y: 1_000), PagePoint(x: -12, y: 7)] {
            let canvas = t.canvasPoint(for: p)
            #expect(abs(p.x * m.a + m.tx - canvas.x) < 1e-9 && abs(p.y * m.a + m.ty - canvas.y) < 1e-9)
            let back = t.pagePoint(for: canvas)
            #expect(abs(back.x - p.x) < 1e-9 && abs(back.y - p.y) < 1e-9)
        }
    }
}
