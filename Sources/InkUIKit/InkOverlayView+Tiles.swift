#if canImport(UIKit) && canImport(WebKit)
import UIKit
import InkCore
import HitTestBridge

// The overlay's finished ink: tile views inside a container that carries the page transform,
// their zoom (`InkTileZoom`), and each finished stroke's outline, tessellated once.
extension InkOverlayView {
    /// One segment's polygons as one path, to fill with the non-zero rule: its body and, but
    /// for a dot, its start cap and (the stroke's last segment) its end cap; each point mapped
    /// by `map`.
    static func path(of segment: StrokeSegment, isLast: Bool, _ map: (CanvasPoint) -> CGPoint) -> CGPath {
        let path = CGMutablePath()
        var polygons = [segment.outline()]
        if !segment.isDot {
            polygons.append(segment.startCap())
            if isLast { polygons.append(segment.endCap()) }
        }
        for polygon in polygons where !polygon.isEmpty {
            path.addLines(between: polygon.map(map))
            path.closeSubpath()
        }
        return path
    }

    /// A finished stroke's outline, tessellated once (the GTK twin's `InkPainter.Outline`):
    /// for each stable segment, its path (page coordinates) and the area it reaches.
    struct Outline {
        /// The stroke's stable segments it was made from, hashed with their count: a stroke
        /// refined since no longer matches.
        var fingerprint: Int
        var pieces: [(bounds: CanvasRect, path: CGPath)]
    }

    /// Fills a finished stroke in page coordinates on `context` (whose transform maps them
    /// where they belong) from its outline, made once and again only if the stroke was
    /// refined; the segments outside `area` (page coordinates; `nil`: everywhere) skipped.
    func fill(_ stroke: InkLayer.Stroke, in area: CanvasRect?, on context: CGContext) {
        var hasher = Hasher()
        let stable = stroke.stableSegments
        hasher.combine(stable.count)
        for segment in stable { hasher.combine(segment) }
        let fingerprint = hasher.finalize()
        if outlines[stroke.touch]?.fingerprint != fingerprint {
            var pieces: [(bounds: CanvasRect, path: CGPath)] = []
            pieces.reserveCapacity(stable.count)
            for (index, segment) in stable.enumerated() {
                let bounds = segment.bounds, reach = max(segment.startWidth, segment.endWidth) / 2 + 1
                pieces.append((CanvasRect(minX: bounds.minX - reach, minY: bounds.minY - reach,
                                          maxX: bounds.maxX + reach, maxY: bounds.maxY + reach),
                               Self.path(of: segment, isLast: index == stable.count - 1) { CGPoint(x: $0.x, y: $0.y) }))
            }
            outlines[stroke.touch] = Outline(fingerprint: fingerprint, pieces: pieces)
            outlinesMade += 1
            if outlines.count > 2 * ink.finished.count + 64 {
                // Strokes undone or cleared: keep the outlines of the strokes still there.
                let live = Set(ink.finished.map(\.touch))
                outlines = outlines.filter { live.contains($0.key) }
            }
        }
        guard let outline = outlines[stroke.touch] else { return }
        for piece in outline.pieces {
            if let area, piece.bounds.maxX < area.minX || piece.bounds.minX > area.maxX
                || piece.bounds.maxY < area.minY || piece.bounds.minY > area.maxY { continue }
            context.addPath(piece.path)
            context.fillPath(using: .winding)
        }
    }

    // MARK: - Finished ink in tiles

    func pageTransformChanged(from old: PageTransform) {
        applyPageTransform()
        // A zoom: the tiles are scaled with the container; drawn again once it rests.
        let now = clock?.now ?? 0
        if zoom.scaleSeen(viewTransform.scale, now: now.isFinite ? now : -.infinity) { lookWhetherZoomRests() }
        syncTiles(force: true)
        // The live strokes move with the page; with none drawn, nothing is redrawn.
        if drewLiveInk || !ink.active.isEmpty || !ink.tiles.oversized.isEmpty { setNeedsDisplay() }
    }

    /// The container's transform: page coordinates to the view's points. The container has no
    /// size and its centre at the overlay's origin, so the scale is about the page's origin
    /// and a page point lands at `pageToCanvas` of it, as the live ink does: the tiles stay
    /// on the page at every zoom.
    func applyPageTransform() {
        let m = viewTransform.pageToCanvas
        finishedInk.center = .zero
        finishedInk.transform = CGAffineTransform(a: CGFloat(m.a), b: 0, c: 0, d: CGFloat(m.a), tx: CGFloat(m.tx), ty: CGFloat(m.ty))
    }

    /// Whether the zoom rests now (``zoom``, on ``clock``; without a clock it always does).
    private var zoomRests: Bool {
        guard let now = clock?.now, now.isFinite else { return true }
        return zoom.isResting(now: now, interacting: zoomInProgress?() ?? false)
    }

    /// While a zoom settles, arms one wake-up for the moment it may rest: then the tiles are
    /// drawn again at its resolution, or, a pinch still held, it looks again later.
    private func lookWhetherZoomRests() {
        guard settleWake == nil, let clock else { return }
        let now = clock.now
        guard now.isFinite, let due = zoom.nextLook(now: now, interacting: zoomInProgress?() ?? false) else { return }
        settleWake = clock.wake(at: due) { [weak self] in
            guard let self else { return }
            settleWake = nil
            syncTiles(force: true)
            lookWhetherZoomRests()
        }
    }

    /// The resolution tiles are drawn at for the current zoom and view (pixels per page unit):
    /// `InkTileZoom.resolution(forScale:displayScale:tileSize:tiles:)` over the most tiles
    /// the view can show, times `headroom`.
    private func tileResolution(tileSize: Double, headroom: Int = 1) -> Double {
        let scale = viewTransform.scale
        let shown = InkTileZoom.tilesShown(viewWidth: Double(bounds.width), viewHeight: Double(bounds.height), scale: scale,
                                           tileSize: tileSize, limit: 1_024)
        return InkTileZoom.resolution(forScale: scale, displayScale: Double(traitCollection.displayScale), tileSize: tileSize,
                                      tiles: min(shown * headroom, 1_024))
    }

    /// Keeps a tile view for each tile with finished ink on screen, and, within the pixel
    /// budget, for those within a tile of it; draws again those whose revision changed and,
    /// once the zoom rests, those of another resolution; drops the others (their backing
    /// stores go). The decisions are `InkTileZoom.plan(onScreen:around:held:resolution:outOfBudget:tileSize:rests:)`,
    /// tested on Linux.
    func syncTiles(force: Bool = false) {
        let index = ink.tiles
        guard force || index.revision != tilesRevision else { return }
        tilesRevision = index.revision
        let tileSize = index.tileSize, margin = tileSize
        // The page area the view shows, and grown by a tile, in the layer's (page) coordinates.
        let shown = viewTransform.pageRect(for: CanvasRect(minX: 0, minY: 0, maxX: Double(bounds.width), maxY: Double(bounds.height)))
        let grown = PageRect(minX: shown.minX - margin, minY: shown.minY - margin,
                             maxX: shown.maxX + margin, maxY: shown.maxY + margin)
        let onScreen = (ink.tiles(covering: shown, limit: 1_024) ?? []).filter { !index.strokes(in: $0).isEmpty }
        let around = (ink.tiles(covering: grown, limit: 1_024) ?? []).filter { !index.strokes(in: $0).isEmpty }
        var held: [InkTileIndex.Tile: InkTileZoom.Held] = [:]
        for (tile, view) in tileViews {
            held[tile] = InkTileZoom.Held(resolution: view.resolution, side: view.side,
                                          isCurrent: view.revision == index.revision(of: tile))
        }
        let plan = InkTileZoom.plan(onScreen: onScreen, around: around, held: held,
                                    resolution: tileResolution(tileSize: tileSize),
                                    outOfBudget: tileResolution(tileSize: tileSize, headroom: 4),
                                    tileSize: tileSize, rests: zoomRests)
        for (tile, view) in tileViews where !plan.kept.contains(tile) {
            view.removeFromSuperview()
            tileViews[tile] = nil
        }
        for tile in plan.drawn {
            let revision = index.revision(of: tile)
            if let view = tileViews[tile] {
                view.revision = revision
                view.redraw(at: plan.resolution, side: plan.side)
                continue
            }
            let rect = ink.tileRect(tile)
            let view = InkTileView(frame: CGRect(x: rect.minX, y: rect.minY, width: rect.width, height: rect.height))
            view.overlay = self
            view.tile = tile
            view.revision = revision
            view.redraw(at: plan.resolution, side: plan.side)
            finishedInk.addSubview(view)
            tileViews[tile] = view
        }
        tilePixels = tileViews.values.reduce(0) { $0 + $1.side * $1.side }
    }

    /// Fills the finished strokes of `tile`, oldest first, in the tile view's coordinates,
    /// each from its outline (tessellated once).
    func drawTile(_ tile: InkTileIndex.Tile) {
        guard let context = UIGraphicsGetCurrentContext() else { return }
        tilesRendered += 1
        let area = ink.tileRect(tile)
        resolvedInkColor.setFill()
        context.saveGState()
        context.translateBy(x: CGFloat(-area.minX), y: CGFloat(-area.minY))
        var tail: [StrokeSegment] = []
        for index in ink.tiles.strokes(in: tile) where ink.finished.indices.contains(index) {
            let stroke = ink.finished[index]
            stroke.appendVolatileSegments(to: &tail)
            guard tail.isEmpty else {
                // Not expected of a finished stroke: filled as it is now, not kept.
                let segments = stroke.segments
                for (index, segment) in segments.enumerated() {
                    context.addPath(Self.path(of: segment, isLast: index == segments.count - 1) { CGPoint(x: $0.x, y: $0.y) })
                    context.fillPath(using: .winding)
                }
                tail.removeAll(keepingCapacity: true)
                continue
            }
            fill(stroke, in: area.inkLayerRect, on: context)
        }
        context.restoreGState()
    }
}

/// One tile of finished ink: a view one tile of page space in size, inside the overlay's
/// container (which carries the page transform), drawn once per revision of its tile.
@MainActor
final class InkTileView: UIView {
    weak var overlay: InkOverlayView?
    var tile = InkTileIndex.Tile(column: 0, row: 0)
    var revision: UInt64 = 0
    /// Pixels per page unit it is drawn at (its `contentScaleFactor`); 0 before it is.
    private(set) var resolution = 0.0
    /// Its backing store's side, pixels.
    private(set) var side = 0

    /// Draws it again at `resolution` pixels per page unit, its backing store `side` pixels.
    func redraw(at resolution: Double, side: Int) {
        if resolution != self.resolution {
            self.resolution = resolution
            contentScaleFactor = CGFloat(resolution)
        }
        self.side = side
        setNeedsDisplay()
    }

    override init(frame: CGRect) {
        super.init(frame: frame)
        isOpaque = false
        backgroundColor = .clear
        isUserInteractionEnabled = false
        clipsToBounds = true
    }

    required init?(coder: NSCoder) { nil }

    override func draw(_ rect: CGRect) { overlay?.drawTile(tile) }
}
#endif
