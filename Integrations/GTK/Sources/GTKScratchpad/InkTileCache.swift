import CWebKitGTK
import HitTestBridge
import InkCore

/// Pictures of the finished ink: one cairo image surface per tile of page space
/// (``InkTileIndex``), filled once with the tile's finished strokes and painted at the tile's
/// place under the current page transform in every frame. Scrolling moves the pictures;
/// nothing is filled again. A tile's picture is made again when its revision changed (a
/// stroke finished, refined, undone or cleared there), and every picture is dropped when the
/// zoom, the ink's colour or the screen's scale changes. At most ``capacity`` pictures are
/// kept (the least recently painted go first), never fewer than one frame needs.
///
/// Use on the GTK thread only.
final class InkTileCache {
    private struct Picture {
        var surface: OpaquePointer
        var revision: UInt64
        var lastPainted: UInt64
    }

    /// The most pictures kept: 48 tiles of 256 × 256 points, 12 MB at scale 1.
    var capacity = 48
    /// Pictures made (filled), since the window opened.
    private(set) var tilesRendered = 0
    /// The pictures held now.
    var count: Int { pictures.count }

    private var pictures: [InkTileIndex.Tile: Picture] = [:]
    private var scale = 0.0
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
    }

    /// Paints the finished ink of `layer` that lies in `pageClip` onto `cr` (canvas
    /// coordinates, untransformed), each tile's picture at its place under `view`; makes the
    /// pictures that are missing or out of date. Oversized strokes are not painted: the
    /// caller draws them live.
    func paint(_ layer: InkLayer, in pageClip: PageRect, view: PageTransform, color: InkColor, deviceScale: Int32,
               on cr: OpaquePointer) {
        let index = layer.tiles
        if scale != view.scale || self.color != color || self.deviceScale != deviceScale {
            removeAll()
            scale = view.scale
            self.color = color
            self.deviceScale = deviceScale
        }
        frame += 1
        // A clip that covers more tiles than a screen has (a huge zoom-out) paints nothing from
        // the cache; the caller's live path is not taken either: there is no such zoom here.
        guard let tiles = index.tiles(covering: pageClip.inkLayerRect, limit: 1_024) else { return }
        var painted = 0
        for tile in tiles {
            let strokes = index.strokes(in: tile)
            guard !strokes.isEmpty else {
                if let stale = pictures.removeValue(forKey: tile) { cairo_surface_destroy(stale.surface) }
                continue
            }
            let revision = index.revision(of: tile)
            if let picture = pictures[tile], picture.revision != revision {
                cairo_surface_destroy(picture.surface)
                pictures[tile] = nil
            }
            if pictures[tile] == nil {
                pictures[tile] = Picture(surface: render(tile, strokes: strokes, of: layer), revision: revision, lastPainted: frame)
                tilesRendered += 1
            }
            pictures[tile]?.lastPainted = frame
            guard let surface = pictures[tile]?.surface else { continue }
            // The tile's square in canvas points, its edges on whole points so that
            // neighbouring tiles meet exactly.
            let shown = view.canvasRect(for: PageRect(inkLayerRect: index.rect(of: tile)))
            let x0 = shown.minX.rounded(), y0 = shown.minY.rounded(), x1 = shown.maxX.rounded(), y1 = shown.maxY.rounded()
            cairo_set_source_surface(cr, surface, x0, y0)
            cairo_rectangle(cr, x0, y0, x1 - x0, y1 - y0)
            cairo_fill(cr)
            painted += 1
        }
        evict(keeping: painted)
    }

    /// Fills a new picture of `tile` with its finished strokes, oldest first.
    private func render(_ tile: InkTileIndex.Tile, strokes: [Int], of layer: InkLayer) -> OpaquePointer {
        let rect = layer.tiles.rect(of: tile)
        let side = Int32((layer.tiles.tileSize / scale).rounded(.up)) + 1
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, side * deviceScale, side * deviceScale)!
        cairo_surface_set_device_scale(surface, Double(deviceScale), Double(deviceScale))
        let cr = cairo_create(surface)!
        cairo_scale(cr, 1 / scale, 1 / scale)
        cairo_translate(cr, -rect.minX, -rect.minY)
        let c = color ?? .darkInk
        cairo_set_source_rgba(cr, c.red, c.green, c.blue, c.alpha)
        cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
        for index in strokes where layer.finished.indices.contains(index) {
            InkPainter.fill(layer.finished[index], in: rect, on: cr, tail: &tail)
        }
        cairo_destroy(cr)
        cairo_surface_flush(surface)
        return surface
    }

    /// Drops the least recently painted pictures beyond the capacity (never one painted in
    /// this frame).
    private func evict(keeping painted: Int) {
        let limit = max(capacity, painted)
        guard pictures.count > limit else { return }
        let victims = pictures.filter { $0.value.lastPainted != frame }.sorted { $0.value.lastPainted < $1.value.lastPainted }
        for (tile, picture) in victims.prefix(pictures.count - limit) {
            cairo_surface_destroy(picture.surface)
            pictures[tile] = nil
        }
    }
}
