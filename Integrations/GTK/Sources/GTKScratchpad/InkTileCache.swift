import CWebKitGTK
import HitTestBridge
import InkCore

/// Pictures of the finished ink: one cairo image surface per tile of page space
/// (``InkTileIndex``), filled once with the tile's finished strokes and painted at the tile's
/// place under the current page transform in every frame. Scrolling moves the pictures;
/// nothing is filled again. A tile's picture is made again when its revision changed (a
/// stroke finished, refined, undone or cleared there); every picture is dropped when the ink's
/// colour or the screen's scale changes.
///
/// Zoom, as PencilKit does it: while the zoom changes, only the pictures' transform changes
/// (each is painted scaled to its tile's new square; nothing is filled); once the zoom has
/// rested for ``settleDelay`` the pictures painted are made again at the new resolution. A
/// picture's resolution is capped (``maxPictureSide`` pixels a side) and the pictures held
/// are bounded by a pixel budget (``pixelBudget``, the least recently painted go first; never
/// one the current frame needs), so memory is bounded whatever the zoom. Each finished
/// stroke is tessellated once (its outline kept, ``InkPainter/Outline``), and filled from it
/// whenever a picture it lies in is made again.
///
/// Use on the GTK thread only.
final class InkTileCache {
    private struct Picture {
        var surface: OpaquePointer
        var revision: UInt64
        var lastPainted: UInt64
        /// Pixels per page unit it was filled at.
        var resolution: Double
        /// Its side, pixels.
        var side: Int
    }

    /// The largest side of a picture, pixels: 1024 (4 MiB at 4 bytes a pixel). A 256-unit
    /// tile is filled at full resolution up to zoom 4 on a scale-1 screen (zoom 2 at scale 2);
    /// beyond, it is drawn from a picture of this side, magnified.
    static let maxPictureSide = 1_024
    /// The pixel budget of the pictures held: 16 Mi pixels (64 MiB at 4 bytes a pixel). The
    /// pictures one frame paints are kept even beyond it (a 1024 × 768 view needs at most
    /// about 6.3 Mi pixels of pictures at any zoom).
    static let pixelBudget = 16 * 1_024 * 1_024
    /// The most pictures kept (whatever their size), within ``pixelBudget``.
    var capacity = 48
    /// Seconds the zoom must rest before pictures are made again at its resolution.
    var settleDelay = 0.15
    /// Pictures made (filled), since the window opened.
    private(set) var tilesRendered = 0
    /// The pictures held now.
    var count: Int { pictures.count }
    /// The pixels of the pictures held now.
    private(set) var pixelsHeld = 0
    /// The most pixels held at once since the window opened.
    private(set) var peakPixelsHeld = 0
    /// The largest side of any picture made, pixels.
    private(set) var largestSide = 0

    private var pictures: [InkTileIndex.Tile: Picture] = [:]
    /// Each finished stroke's outline, tessellated once (``InkPainter/Outline``), by its touch.
    private var outlines: [TouchID: InkPainter.Outline] = [:]
    /// Strokes tessellated into outlines so far.
    private(set) var outlinesMade = 0
    private var scale = 0.0
    private var scaleChanged = -Double.infinity
    private var color: InkColor?
    private var deviceScale: Int32 = 0
    private var frame: UInt64 = 0
    /// A stroke's tentative tail, read into this one array (finished strokes have none).
    private var tail: [StrokeSegment] = []

    deinit { removeAll() }

    /// Drops every picture.
    func removeAll() {
        for picture in pictures.values { cairo_surface_destroy(picture.surface) }
        pictures.removeAll()
        pixelsHeld = 0
    }

    /// The resolution pictures are made at for the page transform's `scale`: the screen's
    /// pixels per page unit, capped so that a tile's side stays within ``maxPictureSide``.
    func resolution(forScale scale: Double, tileSize: Double) -> Double {
        min(Double(deviceScale) / scale, Double(Self.maxPictureSide - Int(deviceScale)) / tileSize)
    }

    /// Seconds until the pictures painted last are due to be made again at the zoom's
    /// resolution (the zoom is still settling); `nil` when none is due.
    func settleDue(now: Double) -> Double? {
        let rest = scaleChanged + settleDelay - now
        guard rest > 0 else { return nil }
        return pictures.values.contains { $0.lastPainted == frame && $0.resolution != target } ? rest : nil
    }

    private var target = 0.0

    /// Paints the finished ink of `layer` that lies in `pageClip` onto `cr` (canvas
    /// coordinates, untransformed), each tile's picture at its place under `view`; makes the
    /// pictures that are missing or out of date, and, once the zoom has rested
    /// (``settleDelay``, on the clock `now` is read from), those of another resolution.
    /// Oversized strokes are not painted: the caller draws them live.
    func paint(_ layer: InkLayer, in pageClip: PageRect, view: PageTransform, color: InkColor, deviceScale: Int32,
               now: Double, on cr: OpaquePointer) {
        let index = layer.tiles
        if self.color != color || self.deviceScale != deviceScale {
            removeAll()
            self.color = color
            self.deviceScale = deviceScale
        }
        if scale != view.scale {
            if scale != 0 { scaleChanged = now }
            scale = view.scale
        }
        target = resolution(forScale: scale, tileSize: index.tileSize)
        let settled = now >= scaleChanged + settleDelay
        frame += 1
        // A clip that covers more tiles than a screen has (a huge zoom-out) paints nothing from
        // the cache; the caller's live path is not taken either: there is no such zoom here.
        guard let tiles = index.tiles(covering: pageClip.inkLayerRect, limit: 1_024) else { return }
        var painted = 0, paintedPixels = 0
        for tile in tiles {
            let strokes = index.strokes(in: tile)
            guard !strokes.isEmpty else {
                drop(tile)
                continue
            }
            let revision = index.revision(of: tile)
            if let picture = pictures[tile], picture.revision != revision || (settled && picture.resolution != target) {
                drop(tile)
            }
            if pictures[tile] == nil {
                let (surface, side) = render(tile, strokes: strokes, of: layer, resolution: target)
                pictures[tile] = Picture(surface: surface, revision: revision, lastPainted: frame, resolution: target, side: side)
                pixelsHeld += side * side
                largestSide = max(largestSide, side)
                tilesRendered += 1
            }
            pictures[tile]?.lastPainted = frame
            guard let picture = pictures[tile] else { continue }
            // The tile's square in canvas points, its edges on whole points so that
            // neighbouring tiles meet exactly; the picture drawn into it at its own
            // resolution (one screen pixel a picture pixel once the zoom has settled, below
            // the cap).
            let shown = view.canvasRect(for: PageRect(inkLayerRect: index.rect(of: tile)))
            let x0 = shown.minX.rounded(), y0 = shown.minY.rounded(), x1 = shown.maxX.rounded(), y1 = shown.maxY.rounded()
            let magnification = 1 / (picture.resolution * scale)
            cairo_save(cr)
            cairo_rectangle(cr, x0, y0, x1 - x0, y1 - y0)
            cairo_clip(cr)
            cairo_translate(cr, x0, y0)
            cairo_scale(cr, magnification, magnification)
            cairo_set_source_surface(cr, picture.surface, 0, 0)
            cairo_paint(cr)
            cairo_restore(cr)
            painted += 1
            paintedPixels += picture.side * picture.side
        }
        peakPixelsHeld = max(peakPixelsHeld, pixelsHeld)
        evict(keeping: painted, pixels: paintedPixels)
    }

    private func drop(_ tile: InkTileIndex.Tile) {
        guard let picture = pictures.removeValue(forKey: tile) else { return }
        cairo_surface_destroy(picture.surface)
        pixelsHeld -= picture.side * picture.side
    }

    /// Fills a new picture of `tile` with its finished strokes, oldest first, at `resolution`
    /// pixels per page unit (a margin of one screen point on the far sides). Returns it and
    /// its side in pixels.
    private func render(_ tile: InkTileIndex.Tile, strokes: [Int], of layer: InkLayer,
                        resolution: Double) -> (OpaquePointer, Int) {
        let rect = layer.tiles.rect(of: tile)
        let side = min(Int((layer.tiles.tileSize * resolution).rounded(.up)) + Int(deviceScale), Self.maxPictureSide)
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, gint(side), gint(side))!
        let cr = cairo_create(surface)!
        cairo_scale(cr, resolution, resolution)
        cairo_translate(cr, -rect.minX, -rect.minY)
        let c = color ?? .darkInk
        cairo_set_source_rgba(cr, c.red, c.green, c.blue, c.alpha)
        cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
        for index in strokes where layer.finished.indices.contains(index) {
            let stroke = layer.finished[index]
            tail.removeAll(keepingCapacity: true)
            stroke.appendVolatileSegments(to: &tail)
            guard tail.isEmpty else {
                InkPainter.fill(stroke, in: rect, on: cr, tail: &tail)
                continue
            }
            // Tessellated once per stroke (again only if it was refined since).
            let fingerprint = InkPainter.fingerprint(of: stroke)
            if outlines[stroke.touch]?.fingerprint != fingerprint {
                outlines[stroke.touch] = InkPainter.outline(of: stroke, fingerprint: fingerprint)
                outlinesMade += 1
            }
            if let outline = outlines[stroke.touch] { InkPainter.fill(outline, in: rect, on: cr) }
        }
        if outlines.count > 2 * layer.finished.count + 64 {
            // Strokes undone or cleared: keep the outlines of the strokes still there.
            let live = Set(layer.finished.map(\.touch))
            outlines = outlines.filter { live.contains($0.key) }
        }
        cairo_destroy(cr)
        cairo_surface_flush(surface)
        return (surface, side)
    }

    /// Drops the least recently painted pictures beyond the capacity or the pixel budget
    /// (never one painted in this frame).
    private func evict(keeping painted: Int, pixels paintedPixels: Int) {
        let limit = max(capacity, painted), budget = max(Self.pixelBudget, paintedPixels)
        guard pictures.count > limit || pixelsHeld > budget else { return }
        let victims = pictures.filter { $0.value.lastPainted != frame }.sorted { $0.value.lastPainted < $1.value.lastPainted }
        for (tile, _) in victims {
            guard pictures.count > limit || pixelsHeld > budget else { break }
            drop(tile)
        }
    }
}
