import Foundation
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

    /// A pinch on a 12.9-inch iPad over a page with ink in every tile, about the page point at
    /// the view's centre: each frame plans the tiles as the overlay does, and the pictures
    /// held follow the plan.
    struct Pinch {
        var held: [InkTileIndex.Tile: InkTileZoom.Held] = [:]
        let index = InkTileIndex(tileSize: InkTileZoomTests.tile)
        var center = (x: 3_000.0, y: 4_000.0)

        /// One frame at `zoom`; returns the plan and the tiles on screen.
        mutating func frame(zoom: Double, rests: Bool) -> (plan: InkTileZoom.Plan<InkTileIndex.Tile>, onScreen: [InkTileIndex.Tile]) {
            let scale = 1 / zoom, w = InkTileZoomTests.width * scale, h = InkTileZoomTests.height * scale
            let t = InkTileZoomTests.tile
            let shown = CanvasRect(minX: center.x - w / 2, minY: center.y - h / 2, maxX: center.x + w / 2, maxY: center.y + h / 2)
            let grown = CanvasRect(minX: shown.minX - t, minY: shown.minY - t, maxX: shown.maxX + t, maxY: shown.maxY + t)
            let onScreen = index.tiles(covering: shown, limit: 1_024) ?? []
            let around = index.tiles(covering: grown, limit: 1_024) ?? []
            let count = InkTileZoom.tilesShown(viewWidth: InkTileZoomTests.width, viewHeight: InkTileZoomTests.height,
                                               scale: scale, tileSize: t, limit: 1_024)
            let plan = InkTileZoom.plan(
                onScreen: onScreen, around: around, held: held,
                resolution: InkTileZoom.resolution(forScale: scale, displayScale: InkTileZoomTests.display, tileSize: t, tiles: count),
                outOfBudget: InkTileZoom.resolution(forScale: scale, displayScale: InkTileZoomTests.display, tileSize: t,
                                                    tiles: min(4 * count, 1_024)),
                tileSize: t, rests: rests)
            held = held.filter { plan.kept.contains($0.key) }
            for tile in plan.drawn { held[tile] = InkTileZoom.Held(resolution: plan.resolution, side: plan.side, isCurrent: true) }
            return (plan, onScreen)
        }

        var pixels: Int { held.values.reduce(0) { $0 + $1.side * $1.side } }
    }

    @Test("zooming in 1 → 5: no picture held is drawn again during the pinch; once it rests each is drawn once, within the budget")
    func zoomInRedrawsOnlyAtRest() {
        var pinch = Pinch()
        _ = pinch.frame(zoom: 1, rests: true)
        #expect(pinch.held.values.allSatisfy { $0.side == 512 }, "zoom 1 on a 2x screen: 512-pixel tiles")
        for step in 1...60 {
            let before = Set(pinch.held.keys)
            let (plan, onScreen) = pinch.frame(zoom: pow(5, Double(step) / 60), rests: false)
            #expect(plan.drawn.isDisjoint(with: before), "step \(step): a held picture drawn during the pinch")
            #expect(Set(onScreen).isSubset(of: plan.kept))
            #expect(pinch.pixels <= InkTileZoom.pixelBudget)
        }
        let (plan, _) = pinch.frame(zoom: 5, rests: true)
        #expect(plan.drawn == plan.kept, "each picture drawn again once the zoom rests")
        #expect(plan.side == InkTileZoom.maxPictureSide)
        #expect(pinch.pixels <= InkTileZoom.pixelBudget)
        let (again, _) = pinch.frame(zoom: 5, rests: true)
        #expect(again.drawn.isEmpty, "and not again")
    }

    @Test("zooming out 5 → 0.5: the pictures held never pass the budget, and are drawn again a few times, not every frame")
    func zoomOutStaysWithinBudget() {
        var pinch = Pinch()
        _ = pinch.frame(zoom: 5, rests: true)
        var drawsAll = 0
        for step in 1...90 {
            let (plan, onScreen) = pinch.frame(zoom: 5 * pow(0.1, Double(step) / 90), rests: false)
            if plan.drawsAll { drawsAll += 1 }
            #expect(Set(onScreen).isSubset(of: plan.kept), "step \(step): every tile on screen kept")
            #expect(pinch.pixels <= InkTileZoom.pixelBudget, "step \(step): \(pinch.pixels) pixels")
            #expect(plan.pixels == pinch.pixels)
        }
        #expect(drawsAll >= 1 && drawsAll <= 6, "\(drawsAll) frames of 90 drew every tile again")
        let (plan, onScreen) = pinch.frame(zoom: 0.5, rests: true)
        #expect(Set(onScreen).isSubset(of: plan.kept))
        #expect(pinch.held.values.allSatisfy { $0.resolution == plan.resolution }, "all at the zoom's resolution once it rests")
        #expect(pinch.pixels <= InkTileZoom.pixelBudget)
    }

    @Test("a changed tile is drawn again during a pinch; the margin is kept only within the budget")
    func changedAndMargin() {
        var pinch = Pinch()
        _ = pinch.frame(zoom: 2, rests: true)
        let changed = pinch.held.keys.first!
        pinch.held[changed]?.isCurrent = false
        let (plan, _) = pinch.frame(zoom: 2.1, rests: false)
        #expect(plan.drawn == [changed])
        // At zoom 2 the margin's 1024-pixel tiles are kept only as far as the budget goes.
        let (atTwo, onScreen) = pinch.frame(zoom: 2, rests: true)
        let around = pinch.index.tiles(covering: CanvasRect(minX: pinch.center.x - 683.0 / 2 - 256, minY: pinch.center.y - 256 - 256,
                                                            maxX: pinch.center.x + 683.0 / 2 + 256, maxY: pinch.center.y + 256 + 256),
                                       limit: 1_024) ?? []
        #expect(atTwo.kept.count >= onScreen.count)
        #expect(atTwo.kept.count < around.count, "some of the margin's \(around.count - onScreen.count) tiles left out")
        #expect(atTwo.pixels <= InkTileZoom.pixelBudget)
    }

    @Test("a zoom out whose held pictures would pass the budget draws every tile on screen again at once: at half the side while the zoom still changes (room to halve again), at the zoom's own resolution once it rests")
    func zoomOutPastTheBudgetHalvesTheSide() {
        // Twenty tiles on screen, each held at the side cap (drawn zoomed in): 20 Mi pixels,
        // past the 16 Mi budget, at a zoom whose own resolution is 2 (512-pixel pictures).
        let onScreen = Array(0..<20)
        let held = Dictionary(uniqueKeysWithValues: onScreen.map { ($0, InkTileZoom.Held(resolution: 4, side: 1_024, isCurrent: true)) })
        let changing = InkTileZoom.plan(onScreen: onScreen, around: [], held: held, resolution: 2, outOfBudget: 1, tileSize: Self.tile,
                                        rests: false)
        #expect(changing.drawsAll && changing.drawn == Set(onScreen))
        #expect(changing.resolution == 1 && changing.side == 256, "while the zoom changes: \(changing.resolution), \(changing.side) pixels")
        #expect(changing.pixels == 20 * 256 * 256 && changing.pixels <= InkTileZoom.pixelBudget)
        let rested = InkTileZoom.plan(onScreen: onScreen, around: [], held: held, resolution: 2, outOfBudget: 1, tileSize: Self.tile,
                                      rests: true)
        #expect(rested.drawn == Set(onScreen), "every picture is of another resolution")
        #expect(rested.resolution == 2 && rested.side == 512, "once it rests: \(rested.resolution), \(rested.side) pixels")
        // Held within the budget, nothing is drawn while the zoom changes.
        let few = Dictionary(uniqueKeysWithValues: onScreen.prefix(10).map { ($0, InkTileZoom.Held(resolution: 4, side: 1_024, isCurrent: true)) })
        let kept = InkTileZoom.plan(onScreen: Array(onScreen.prefix(10)), around: [], held: few, resolution: 2, outOfBudget: 1,
                                    tileSize: Self.tile, rests: false)
        #expect(!kept.drawsAll && kept.drawn.isEmpty && kept.pixels == 10 * 1_024 * 1_024)
    }
}
