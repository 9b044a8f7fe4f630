@_spi(Tooling) @_spi(FrontEnd) import HitTestBridge
@_spi(Tooling) @_spi(FrontEnd) import InkCore
import Testing

@Suite("PageTransform: canvas and page coordinates, both ways")
struct PageTransformTests {
    @Test("canvasPoint(for:) undoes pagePoint(for:), and the rectangles map corner by corner", arguments: [
        PageTransform.identity, PageTransform(scale: 2, offsetX: 0, offsetY: 1_200),
        PageTransform(scale: 0.75, offsetX: -40, offsetY: 3.5), PageTransform(scale: 1.25, offsetX: 1e6, offsetY: -2e5),
    ])
    func inverse(transform: PageTransform) {
        var random = SplitMix64(seed: 29)
        for _ in 0..<1_000 {
            let canvas = CanvasPoint(x: Double(random.next() % 20_000) / 7 - 500, y: Double(random.next() % 20_000) / 3 - 900)
            let page = transform.pagePoint(for: canvas)
            let back = transform.canvasPoint(for: page)
            #expect(abs(back.x - canvas.x) <= 1e-9 * max(1, abs(canvas.x), abs(transform.offsetX)))
            #expect(abs(back.y - canvas.y) <= 1e-9 * max(1, abs(canvas.y), abs(transform.offsetY)))
            #expect(page.x == canvas.x * transform.scale + transform.offsetX)
        }
        let rect = CanvasRect(minX: 10, minY: 20, maxX: 110, maxY: 70)
        let page = transform.pageRect(for: rect)
        #expect(page.minX == transform.pagePoint(for: CanvasPoint(x: 10, y: 20)).x && page.maxY == transform.pagePoint(for: CanvasPoint(x: 110, y: 70)).y)
        let shown = transform.canvasRect(for: page)
        #expect(abs(shown.minX - rect.minX) < 1e-6 && abs(shown.maxY - rect.maxY) < 1e-6)
    }
}
