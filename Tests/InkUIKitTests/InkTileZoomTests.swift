import Testing
@_spi(Tooling) import InkCore
@testable import InkUIKit

/// The iPad overlay's zoom rules (`InkTileZoom`, the one file of InkUIKit that is not
/// UIKit-only): which resolution tiles are drawn at, how many the overlay keeps, and when a
/// zoom rests. Time is moved by hand.
@Suite("iPad ink tiles under zoom")
struct InkTileZoomTests {
    /// A 12.9-inch iPad in landscape: 1366 × 1024 points at 2 pixels a point.
    static let width = 1_366.0, height = 1_024.0, display = 2.0, tile = 256.0

    @Test("at zoom 1 a tile is drawn at the screen's resolution; at zoom 5 at the side cap or less, never 2560 pixels")
    func resolutionIsCapped() {
        let atOne = InkTileZoom.resolution(forScale: 1, displayScale: Self.display, tileSize: Self.tile,
                                           tiles: InkTileZoom.tilesShown(viewWidth: Self.width, viewHeight: Self.height, scale: 1,
                                                                        tileSize: Self.tile, limit: 1_024))
        #expect(atOne == 2)
        #expect(InkTileZoom.pictureSide(resolution: atOne, tileSize: Self.tile) == 512)
        let kept = InkTileZoom.tilesShown(viewWidth: Self.width, viewHeight: Self.height, scale: 0.2, tileSize: Self.tile, limit: 1_024)
        #expect(kept == 3 * 2)
        let atFive = InkTileZoom.resolution(forScale: 0.2, displayScale: Self.display, tileSize: Self.tile, tiles: kept)
        let side = InkTileZoom.pictureSide(resolution: atFive, tileSize: Self.tile)
        #expect(side <= InkTileZoom.maxPictureSide)
        #expect(side == InkTileZoom.maxPictureSide, "2560, uncapped, at zoom 5 on a 2x screen")
        #expect(kept * side * side <= InkTileZoom.pixelBudget)
        // A few tiles only: the side cap alone binds.
        #expect(InkTileZoom.resolution(forScale: 0.2, displayScale: 2, tileSize: 256, tiles: 4) == 4)
    }

    @Test("the tiles a view shows, at most the bound, wherever the page is scrolled, and their pixels within the budget at any zoom")
    func boundHoldsAtEveryZoomAndScroll() {
        let layer = InkLayer(tileSize: Self.tile)
        var random = SystemRandomNumberGenerator()
        for zoom in [0.25, 0.5, 1, 1.5, 2, 3, 5, 8, 20] {
            let scale = 1 / zoom
            let kept = InkTileZoom.tilesShown(viewWidth: Self.width, viewHeight: Self.height, scale: scale, tileSize: Self.tile,
                                             limit: 1_024)
            for _ in 0..<200 {
                // The visible area, as the overlay asks for it.
                let x = Double.random(in: -5_000...5_000, using: &random), y = Double.random(in: -5_000...5_000, using: &random)
                let shown = CanvasRect(minX: x, minY: y, maxX: x + Self.width * scale, maxY: y + Self.height * scale)
                let covering = layer.tiles.tiles(covering: shown, limit: 1_024)?.count ?? 0
                #expect(covering <= kept, "zoom \(zoom) at (\(x), \(y))")
            }
            let resolution = InkTileZoom.resolution(forScale: scale, displayScale: 3, tileSize: Self.tile, tiles: kept)
            let side = InkTileZoom.pictureSide(resolution: resolution, tileSize: Self.tile)
            #expect(side <= InkTileZoom.maxPictureSide)
            #expect(kept * side * side <= InkTileZoom.pixelBudget, "zoom \(zoom)")
        }
        // A bound, not a count: a 256-point view overlaps at most three tiles a side (two here).
        #expect(InkTileZoom.tilesShown(viewWidth: 256, viewHeight: 256, scale: 1, tileSize: 256, limit: 1_024) == 9)
        #expect(InkTileIndex(tileSize: 256).tiles(covering: CanvasRect(minX: 0, minY: 0, maxX: 256, maxY: 256))?.count == 4)
        #expect(InkTileZoom.tilesShown(viewWidth: 1e9, viewHeight: 1e9, scale: 1, tileSize: 256, limit: 1_024) == 1_024)
    }

    @Test("the budget check: a picture fits while the pixels held and its own stay within the budget")
    func fits() {
        #expect(InkTileZoom.fits(adding: 1_024, to: InkTileZoom.pixelBudget - 1_024 * 1_024))
        #expect(!InkTileZoom.fits(adding: 1_024, to: InkTileZoom.pixelBudget - 1_024 * 1_024 + 1))
    }

    @Test("a zoom rests once its scale has held still for the settle delay and no pinch or bounce is in progress")
    func rests() {
        var zoom = InkTileZoom()
        let first = zoom.scaleSeen(1, now: 10)
        #expect(!first, "the first scale is not a change")
        #expect(zoom.isResting(now: 10, interacting: false))
        #expect(zoom.nextLook(now: 10, interacting: false) == nil)
        // A pinch: the scale changes every frame.
        for frame in 0..<30 {
            let now = 11 + Double(frame) / 60
            let changed = zoom.scaleSeen(1 - Double(frame + 1) / 60, now: now)
            #expect(changed)
            #expect(!zoom.isResting(now: now, interacting: true))
            #expect(!zoom.isResting(now: now, interacting: false), "the scale changed just now")
        }
        let last = 11 + 29.0 / 60
        let again = zoom.scaleSeen(0.5, now: last + 0.05)
        #expect(!again, "the same scale again is no change")
        #expect(zoom.nextLook(now: last + 0.05, interacting: false) == last + 0.15)
        #expect(!zoom.isResting(now: last + 0.149, interacting: false))
        #expect(zoom.isResting(now: last + 0.15, interacting: false))
        // Fingers held still: not resting until they lift; looked at again a settle delay later.
        #expect(!zoom.isResting(now: last + 1, interacting: true))
        #expect(zoom.nextLook(now: last + 1, interacting: true) == last + 1.15)
        #expect(zoom.isResting(now: last + 1.2, interacting: false))
    }
}
