// Not fenced by `#if canImport(UIKit)`: plain Swift with no import, so that the zoom rules of
// the iPad overlay's ink tiles are unit-tested on Linux (Tests/InkUIKitTests). Internal: no
// public API.

/// The zoom rules of the finished ink's tile pictures, as PencilKit zooms: while the zoom
/// changes, only the pictures' transform changes (nothing is drawn again); once it rests
/// (``isResting(now:interacting:)``) the pictures are drawn again, once, at the zoom's
/// resolution (``resolution(forScale:displayScale:tileSize:tiles:)``), capped so that memory
/// is bounded whatever the zoom.
///
/// The rules and names are the GTK twin's (`InkTileCache` in Integrations/GTK): a picture's
/// side is at most ``maxPictureSide`` pixels, the pictures held at most ``pixelBudget``
/// pixels, and the zoom rests once its scale has held still for ``settleDelay`` seconds.
/// As in the twin, the pictures on screen are always kept. Where the twin drops the least
/// recently painted pictures beyond the budget (and keeps those a frame paints even beyond
/// it), the overlay chooses the resolution so that the most tiles the visible area can
/// overlap at the zoom (``tilesShown(viewWidth:viewHeight:scale:tileSize:limit:)``) fit the
/// budget, and keeps the tiles in the margin around them only within it
/// (``plan(onScreen:around:held:resolution:outOfBudget:tileSize:rests:)``). And an iPad tile
/// view has no margin of its own (the twin's pictures carry one screen point on their far
/// sides).
///
/// Time is given (``scaleSeen(_:now:)``, ``isResting(now:interacting:)``): the overlay reads
/// its loop's clock; the tests move time by hand.
struct InkTileZoom: Sendable, Equatable {
    /// The largest side of a tile picture, pixels: 1024 (4 MiB at 4 bytes a pixel), the GTK
    /// twin's. A 256-point tile is drawn at full resolution up to zoom 2 on a 2x screen;
    /// beyond, from a picture of this side, magnified.
    static let maxPictureSide = 1_024
    /// The pixel budget of the tile pictures held: 16 Mi pixels (64 MiB at 4 bytes a pixel),
    /// the GTK twin's.
    static let pixelBudget = 16 * 1_024 * 1_024

    /// Seconds the zoom's scale must hold still before the pictures are drawn again at its
    /// resolution (0.15, the GTK twin's `settleDelay`).
    var settleDelay = 0.15
    /// The page transform's scale last seen; `nil` before the first.
    private(set) var scale: Double?
    /// When the scale last changed (the first one seen is not a change).
    private(set) var scaleChanged = -Double.infinity

    /// Notes the page transform's scale at `now`. Returns whether it changed (the first
    /// scale seen is not a change: there is no zoom to settle).
    @discardableResult
    mutating func scaleSeen(_ newScale: Double, now: Double) -> Bool {
        guard let scale else {
            self.scale = newScale
            return false
        }
        guard newScale != scale else { return false }
        self.scale = newScale
        scaleChanged = now
        return true
    }

    /// Whether the zoom rests at `now`: its scale has held still for ``settleDelay`` and no
    /// zoom is in progress (`interacting`: the scroll view's `isZooming` or
    /// `isZoomBouncing`, fingers still pinching or the bounce back to the zoom range).
    func isResting(now: Double, interacting: Bool) -> Bool {
        !interacting && now >= scaleChanged + settleDelay
    }

    /// When to look again whether the zoom rests: when the scale will have held still for
    /// ``settleDelay``, or, while a zoom is in progress with a still scale (fingers held
    /// still), ``settleDelay`` from `now`. `nil` when it rests already.
    func nextLook(now: Double, interacting: Bool) -> Double? {
        guard !isResting(now: now, interacting: interacting) else { return nil }
        return max(scaleChanged + settleDelay, interacting ? now + settleDelay : now)
    }

    /// The most tiles of `tileSize` page units that the visible area of a view of `viewWidth`
    /// × `viewHeight` points overlaps at the page transform's `scale` (page units per view
    /// point), wherever the page is scrolled; `limit` when more. An interval of length L
    /// overlaps at most ⌊L / tileSize⌋ + 2 tiles.
    static func tilesShown(viewWidth: Double, viewHeight: Double, scale: Double, tileSize: Double, limit: Int) -> Int {
        guard tileSize > 0, scale > 0, viewWidth.isFinite, viewHeight.isFinite, scale.isFinite else { return max(limit, 1) }
        func across(_ length: Double) -> Double { (max(length, 0) * scale / tileSize).rounded(.down) + 2 }
        let count = across(viewWidth) * across(viewHeight)
        return count >= Double(limit) ? max(limit, 1) : Int(count)
    }

    /// The resolution tile pictures are drawn at (pixels per page unit, a tile view's
    /// `contentScaleFactor`) for the page transform's `scale` (page units per view point:
    /// `1 / zoomScale`): the screen's pixels per page unit (`displayScale / scale`), capped
    /// so that a picture's side (``pictureSide(resolution:tileSize:)``) stays within
    /// ``maxPictureSide`` and `tiles` pictures of that side (the tiles shown,
    /// ``tilesShown(viewWidth:viewHeight:scale:tileSize:limit:)``) within ``pixelBudget``.
    static func resolution(forScale scale: Double, displayScale: Double, tileSize: Double, tiles: Int) -> Double {
        let screen = displayScale > 0 && displayScale.isFinite ? displayScale : 2
        let zoom = scale > 0 && scale.isFinite ? scale : 1
        guard tileSize > 0, tileSize.isFinite else { return screen / zoom }
        let shared = (Double(pixelBudget) / Double(max(tiles, 1))).squareRoot().rounded(.down)
        let side = min(tileSize * screen / zoom, Double(maxPictureSide), max(shared, 1))
        return side / tileSize
    }

    /// A picture's side, pixels, at `resolution` pixels per page unit: the tile's side
    /// rounded up, as a backing store is.
    static func pictureSide(resolution: Double, tileSize: Double) -> Int {
        let side = (tileSize * resolution).rounded(.up)
        return side.isFinite && side > 0 ? Int(side) : 1
    }

    /// Whether a picture of `side` pixels may be added to `pixelsHeld` pixels of pictures
    /// within ``pixelBudget``.
    static func fits(adding side: Int, to pixelsHeld: Int) -> Bool {
        pixelsHeld + side * side <= pixelBudget
    }

    /// A tile picture held: its resolution and side, and whether it shows its tile's current
    /// revision.
    struct Held: Sendable, Equatable {
        var resolution: Double
        var side: Int
        var isCurrent: Bool
    }

    /// One pass over the tiles (``plan(onScreen:around:held:resolution:outOfBudget:tileSize:rests:)``):
    /// the tiles kept (the others go), those of them drawn (again) and at which resolution.
    struct Plan<Tile: Hashable> {
        var kept: Set<Tile> = []
        /// Drawn in this pass (new, changed, of another resolution once the zoom rests, or all
        /// after a zoom out past the budget), at ``resolution``, ``side`` pixels a side.
        var drawn: Set<Tile> = []
        var resolution: Double
        var side: Int
        /// The pixels of the pictures kept, once drawn.
        var pixels = 0
        /// Whether every tile on screen is drawn again: the pictures held, of a finer
        /// resolution than the zoom's, would pass the budget (a zoom out).
        var drawsAll = false
    }

    /// What to keep and draw, given the tiles with ink `onScreen` (the visible area) and
    /// `around` it (grown by a tile), the pictures `held`, the zoom's `resolution`, and whether
    /// the zoom rests. The tiles on screen are always kept; a picture is drawn again when new,
    /// changed, or, once the zoom rests, of another resolution; while the zoom changes, the
    /// others keep theirs (scaled with the container). If the pictures on screen would then
    /// pass ``pixelBudget`` (a zoom out), all are drawn again at `resolution`, or, while the
    /// zoom still changes, at `outOfBudget` (the resolution for four times the tiles: half the
    /// side, room for the zoom to halve again). The tiles around are kept only within the
    /// budget, those already held first. The pixels kept never pass the budget as long as
    /// `onScreen` has at most the tiles `resolution` was chosen for
    /// (``tilesShown(viewWidth:viewHeight:scale:tileSize:limit:)``).
    static func plan<Tile: Hashable>(onScreen: [Tile], around: [Tile], held: [Tile: Held], resolution: Double,
                                     outOfBudget: Double, tileSize: Double, rests: Bool) -> Plan<Tile> {
        var plan = Plan<Tile>(resolution: resolution, side: pictureSide(resolution: resolution, tileSize: tileSize))
        func redrawn(_ tile: Tile) -> Bool {
            guard let picture = held[tile] else { return true }
            return plan.drawsAll || !picture.isCurrent || (rests && picture.resolution != resolution)
        }
        func side(_ tile: Tile) -> Int { redrawn(tile) ? plan.side : held[tile]?.side ?? plan.side }
        var pixels = onScreen.reduce(0) { $0 + side($1) * side($1) }
        if pixels > pixelBudget {
            plan.drawsAll = true
            if !rests {
                plan.resolution = outOfBudget
                plan.side = pictureSide(resolution: outOfBudget, tileSize: tileSize)
            }
            pixels = onScreen.count * plan.side * plan.side
        }
        for tile in onScreen {
            plan.kept.insert(tile)
            if redrawn(tile) { plan.drawn.insert(tile) }
        }
        let margin = around.filter { !plan.kept.contains($0) }.sorted { held[$0] != nil && held[$1] == nil }
        for tile in margin {
            let tileSide = side(tile)
            guard fits(adding: tileSide, to: pixels) else { continue }
            pixels += tileSide * tileSide
            plan.kept.insert(tile)
            if redrawn(tile) { plan.drawn.insert(tile) }
        }
        plan.pixels = pixels
        return plan
    }
}
