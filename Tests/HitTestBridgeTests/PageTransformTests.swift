@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkCore
import Testing

@Suite("PageTransform: canvas and page coordinates, both ways")
struct PageTransformTests {
    static let transforms = [
        PageTransform.identity, PageTransform(scale: 2, offsetX: 0, offsetY: 1_200),
        PageTransform(scale: 0.75, offsetX: -40, offsetY: 3.5), PageTransform(scale: 1.25, offsetX: 1e6, offsetY: -2e5),
    ]

    @Test("a canvas point goes to the page and back (canvas → page → canvas), and a page point the other way", arguments: transforms)
    func roundTrip(transform: PageTransform) {
        var random = SplitMix64(seed: 29)
        for _ in 0..<1_000 {
            let canvas = CanvasPoint(x: Double(random.next() % 20_000) / 7 - 500, y: Double(random.next() % 20_000) / 3 - 900)
            let page: PagePoint = transform.pagePoint(for: canvas)
            let back: CanvasPoint = transform.canvasPoint(for: page)
            #expect(abs(back.x - canvas.x) <= 1e-9 * max(1, abs(canvas.x), abs(transform.offsetX)))
            #expect(abs(back.y - canvas.y) <= 1e-9 * max(1, abs(canvas.y), abs(transform.offsetY)))
            #expect(page == PagePoint(x: canvas.x * transform.scale + transform.offsetX, y: canvas.y * transform.scale + transform.offsetY))

            let pagePoint = PagePoint(x: Double(random.next() % 40_000) / 9 - 800, y: Double(random.next() % 40_000) / 11 + 300)
            let shown = transform.canvasPoint(for: pagePoint)
            #expect(shown == CanvasPoint(x: (pagePoint.x - transform.offsetX) / transform.scale,
                                         y: (pagePoint.y - transform.offsetY) / transform.scale))
            let again = transform.pagePoint(for: shown)
            #expect(abs(again.x - pagePoint.x) <= 1e-9 * max(1, abs(pagePoint.x), abs(transform.offsetX)))
            #expect(abs(again.y - pagePoint.y) <= 1e-9 * max(1, abs(pagePoint.y), abs(transform.offsetY)))
        }
    }

    @Test("a rectangle maps as its corner points do, both ways, and what it contains stays inside", arguments: transforms)
    func rectangles(transform: PageTransform) {
        let rect = CanvasRect(minX: 10, minY: 20, maxX: 110, maxY: 70)
        let page: PageRect = transform.pageRect(for: rect)
        let low = transform.pagePoint(for: CanvasPoint(x: rect.minX, y: rect.minY))
        let high = transform.pagePoint(for: CanvasPoint(x: rect.maxX, y: rect.maxY))
        #expect(page == PageRect(minX: low.x, minY: low.y, maxX: high.x, maxY: high.y))
        #expect(page.width == high.x - low.x && page.height == high.y - low.y)
        let shown: CanvasRect = transform.canvasRect(for: page)
        let shownLow = transform.canvasPoint(for: PagePoint(x: page.minX, y: page.minY))
        let shownHigh = transform.canvasPoint(for: PagePoint(x: page.maxX, y: page.maxY))
        #expect(shown == CanvasRect(minX: shownLow.x, minY: shownLow.y, maxX: shownHigh.x, maxY: shownHigh.y))
        #expect(abs(shown.minX - rect.minX) < 1e-6 && abs(shown.minY - rect.minY) < 1e-6)
        #expect(abs(shown.maxX - rect.maxX) < 1e-6 && abs(shown.maxY - rect.maxY) < 1e-6)
        // A canvas point in the rectangle lands in its page rectangle; one outside, outside.
        var random = SplitMix64(seed: 41)
        for _ in 0..<500 {
            let point = CanvasPoint(x: Double(random.next() % 1_400) / 10, y: Double(random.next() % 1_000) / 10)
            let inside = point.x > rect.minX + 1e-6 && point.x < rect.maxX - 1e-6 && point.y > rect.minY + 1e-6 && point.y < rect.maxY - 1e-6
            let outside = point.x < rect.minX - 1e-6 || point.x > rect.maxX + 1e-6 || point.y < rect.minY - 1e-6 || point.y > rect.maxY + 1e-6
            if inside { #expect(page.contains(transform.pagePoint(for: point)), "\(point)") }
            if outside { #expect(!page.contains(transform.pagePoint(for: point)), "\(point)") }
        }
    }

    @Test("a region's rectangle is its page coordinates; the canvas areas routed at touch-down are those rectangles through the inverse")
    func regionsOnTheCanvas() {
        let transform = PageTransform(scale: 2, offsetX: 30, offsetY: 400)
        let region = PageRegion(x: 130, y: 500, width: 60, height: 20)
        #expect(region.rect == PageRect(minX: 130, minY: 500, maxX: 190, maxY: 520))
        #expect(region.contains(PagePoint(x: 190, y: 520)) && !region.contains(PagePoint(x: 190.5, y: 520)))
        var engine = InkEngine(configuration: InkEngineConfiguration(routing: .decideAtTouchDown), transform: transform, seed: 1)
        var events: [EngineEvent] = []
        let snapshot = RegionSnapshot(generation: PageScript.firstGeneration, maxAge: 10, regions: [region])
        engine.take(.pageMessage(snapshot.json), now: 1, into: &events)
        let routed = engine.touchDownRegions(now: 1)
        #expect(routed?.rects == [transform.canvasRect(for: region.rect)])
        #expect(routed?.rects == [CanvasRect(minX: 50, minY: 50, maxX: 80, maxY: 60)])
        // The canvas point in the middle of that area routes to the page; the same numbers
        // read as a page point would not.
        #expect(engine.route(at: CanvasPoint(x: 65, y: 55), tool: .finger, now: 1) == .page)
        #expect(!region.contains(PagePoint(x: 65, y: 55)))
    }
}
