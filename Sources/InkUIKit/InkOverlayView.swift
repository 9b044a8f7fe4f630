#if canImport(UIKit) && canImport(WebKit)
import UIKit
import InkCore
import HitTestBridge

/// A transparent view placed above the `WKWebView`, as its sibling in the same superview,
/// that decides at touch-down who owns a touch, and draws the ink.
///
/// UIKit binds a touch to a view when it hit-tests the touch-down, before any sample is
/// delivered. ``hitTest(_:with:)`` asks the engine, synchronously and without side effects,
/// where a touch at that point goes (``router``): for `.page` it returns `nil`, so UIKit
/// hit-tests the views below and the web view gets the whole native touch (trusted, every
/// sample); for `.ink` and `.unknown` it returns `self`, so the page never sees the touch.
/// The overlay does nothing with the touches it takes: the ``TouchObservingRecognizer`` on
/// the common superview hands every touch to the engine.
///
/// It draws the page side's ink (``side``: `PageSide.ink`, kept in page coordinates) through
/// the current transform, so it scrolls and zooms with the page; the page side tells it what
/// changed (``inkChanged(in:)``).
/// Finished strokes are drawn once, into tile views (one per 256-point square of page space
/// that holds finished ink, near the visible area: `InkLayer.tiles`), inside a container
/// whose `transform` is the page transform: scrolling changes that one transform and redraws
/// nothing. A tile view is redrawn only when its tile's revision changes (a stroke finished,
/// refined, undone or cleared there), the ink's colour changes, or a zoom has come to rest.
/// Only the strokes being drawn (and any stroke too large for tiles) are filled in
/// ``draw(_:)``.
///
/// Zoom, as PencilKit does it: while the zoom changes (a pinch, its bounce), only the
/// container's transform changes; the tiles are scaled with it and none is drawn again. Once
/// the zoom rests (its scale has held still for 0.15 s on the loop's clock and the scroll
/// view is neither zooming nor bouncing: `InkTileZoom`), the tiles are drawn again, once, at
/// the zoom's resolution, capped: at most 1024 pixels a side and 16 Mi pixels (64 MiB) over
/// the tiles held, the GTK twin's figures. Beyond the zoom that needs more (zoom 2 on a 2x
/// screen for a 256-point tile) ink is drawn from magnified tiles. The tiles on screen are
/// always kept; those in the margin around them only within the budget, and a zoom out that
/// would bring more pixels on screen than the budget holds draws the tiles again at once,
/// at the new zoom's resolution. Each finished stroke's outline is tessellated once into
/// paths (one `CGPath` per segment, kept by the stroke's touch and a fingerprint of its
/// stable segments, made again only when the stroke was refined), which every tile it lies
/// in fills.
///
/// The ink's colour is the app's ``inkColor`` when set; otherwise the ink that contrasts most
/// with the page's background (`pageBackground`, which ``InkUIKitController`` reads from
/// the page, `PageBackground`), or, until that is known, with the system's appearance
/// (`traitCollection.userInterfaceStyle`).
/// The overlay refuses Scribble (a `UIScribbleInteraction` whose delegate declines to begin),
/// so Apple Pencil over a web text field draws instead of writing text.
///
/// Type-checked against stand-ins for UIKit and WebKit; never run on a device.
@MainActor
public final class InkOverlayView: UIView, UIScribbleInteractionDelegate {
    /// Where a touch-down at a point (the overlay's coordinates, which are the canvas's) with
    /// a tool (`nil`: not known at hit-test time) goes. ``InkUIKitController`` sets it to
    /// its loop's `InkLoop.route(at:tool:)` (the engine's `route(at:tool:now:)` at the loop
    /// clock's time). Without it, every touch goes to the page.
    public var router: ((CanvasPoint, ToolKind?) -> HitTestVerdict?)?
    /// Canvas points to page coordinates, as of the page's last scroll or zoom. Changing it
    /// redraws the ink at its new place.
    public var pageTransform: PageTransform = .identity { didSet { pageTransformChanged(from: oldValue) } }
    /// The page side whose ink this overlay draws (``InkUIKitController`` sets it).
    public weak var side: PageSide?
    /// The ink, in page coordinates: the page side's.
    public var ink: PageInk { side?.ink ?? PageInk() }
    /// Whether every touch goes to the page while VoiceOver runs (default `true`): VoiceOver's
    /// touch exploration must reach the exercise's text and controls beneath the overlay, so
    /// ink pauses while it runs (``hitTest(_:with:)`` returns `nil`;
    /// `UIAccessibility.isVoiceOverRunning` is read on each hit test). The overlay itself is
    /// hidden from accessibility either way (`accessibilityElementsHidden`): it has nothing
    /// to say, and it must not hide the page's elements.
    public var yieldsToVoiceOver = true
    /// Called when the overlay's size changed (rotation, split view, Stage Manager, a layout
    /// pass): ``InkUIKitController`` submits `EngineInput.viewResized(_:)`.
    public var onResize: ((CGSize) -> Void)?
    private var laidOutSize: (width: Double, height: Double)?
    /// The app's ink colour; `nil` (the default): the ink that shows best on the page
    /// (``resolvedInkColor``).
    public var inkColor: UIColor? { didSet { colorChanged() } }
    /// The page's background, as the page last reported it (`PageBackground`); `nil` while
    /// unknown. ``InkUIKitController`` sets it (the colour type is SPI: an app sets
    /// ``inkColor`` instead).
    public var pageBackground: InkColor? { didSet { if pageBackground != oldValue { colorChanged() } } }
    /// Called when the system's appearance (`traitCollection.userInterfaceStyle`) changed: a
    /// page that follows it may have changed colour. ``InkUIKitController`` reads the page's
    /// background again.
    public var onAppearanceChange: (() -> Void)?

    /// The finished ink's tile views, inside a container that carries the page transform.
    private let finishedInk = UIView(frame: .zero)
    private var tileViews: [InkTileIndex.Tile: InkTileView] = [:]
    private var tilesRevision: UInt64 = 0
    private var lastStyle: UIUserInterfaceStyle = .unspecified
    /// Whether the last ``draw(_:)`` filled any stroke: it must be redrawn when the page moves.
    private var drewLiveInk = false

    /// The clock a zoom settles on (``InkUIKitController`` gives its loop's); `nil`: tiles are
    /// drawn again at each change of zoom, at once.
    var clock: (any InkLoopClock)?
    /// Whether a zoom is in progress (``InkUIKitController``: the scroll view's `isZooming` or
    /// `isZoomBouncing`); `nil`: none is.
    var zoomInProgress: (() -> Bool)?
    /// The zoom rules and the zoom's last change.
    private var zoom = InkTileZoom()
    /// The wake-up that looks whether the zoom rests (armed while it settles).
    private var settleWake: (() -> Void)?
    /// The pixels of the tile views held (their backing stores).
    private(set) var tilePixels = 0
    /// Tile views drawn (filled) so far.
    private(set) var tilesRendered = 0
    /// Each finished stroke's outline, by its touch (``Outline``).
    private var outlines: [TouchID: Outline] = [:]
    /// Finished strokes tessellated into outlines so far.
    private(set) var outlinesMade = 0

    /// Creates an overlay.
    /// - Parameter frame: The web view's frame, in the common superview.
    public override init(frame: CGRect) {
        super.init(frame: frame)
        isOpaque = false
        backgroundColor = .clear
        // The overlay covers the web view exactly: ink that scrolled out of the web view (its
        // tiles reach a tile beyond the visible area) is cut at the web view's edge, never
        // drawn over the app's header or question panel beside it.
        clipsToBounds = true
        isMultipleTouchEnabled = true
        isAccessibilityElement = false
        accessibilityElementsHidden = true
        addInteraction(UIScribbleInteraction(delegate: self))
        finishedInk.isUserInteractionEnabled = false
        finishedInk.isOpaque = false
        finishedInk.backgroundColor = .clear
        addSubview(finishedInk)
        applyPageTransform()
    }

    /// Not supported: create the overlay in code.
    public required init?(coder: NSCoder) { nil }

    // MARK: - Routing at touch-down

    /// Returns `nil` (the views below, the web view, get the touch) when the engine routes a
    /// touch-down at `point` to the page, `self` when it routes it to the ink or cannot tell.
    ///
    /// Uses the point UIKit hit-tests (a touch's `location(in:)`), never `preciseLocation(in:)`:
    /// the web view below is hit-tested with the same point. UIKit may call this more than
    /// once for one touch; the route is a pure function of the engine's state.
    public override func hitTest(_ point: CGPoint, with event: UIEvent?) -> UIView? {
        guard isUserInteractionEnabled, !isHidden, Double(alpha) > 0.01, self.point(inside: point, with: event),
              let router, !(yieldsToVoiceOver && UIAccessibility.isVoiceOverRunning) else { return nil }
        // An indirect pointer's scroll, pinch (transform) and hover events are not touches: they
        // pass to the web view, which scrolls and zooms as it would without the overlay. A
        // trackpad's or mouse's click is a touch (`.touches`) and is routed like a finger's.
        if let event, Self.passesThrough(event.type) { return nil }
        // `nil` (no fresh snapshot): the overlay takes the touch and the engine asks the page.
        return router(CanvasPoint(x: Double(point.x), y: Double(point.y)), nil) == .page ? nil : self
    }

    /// Whether an event of this type goes past the overlay to the web view: an indirect
    /// pointer's scroll, transform (pinch) and hover (UIKit, iOS 13.4).
    static func passesThrough(_ type: UIEvent.EventType) -> Bool {
        switch type {
        case .scroll, .transform, .hover: true
        default: false
        }
    }

    // The touches the overlay takes end here: the observing recognizer feeds them to the
    // engine; nothing is passed up the responder chain.

    /// Takes the touch: the observing recognizer hands it to the engine.
    public override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {}
    /// Takes the touch: the observing recognizer hands it to the engine.
    public override func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent?) {}
    /// Takes the touch: the observing recognizer hands it to the engine.
    public override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) {}
    /// Takes the touch: the observing recognizer hands it to the engine.
    public override func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent?) {}

    // MARK: - Scribble

    /// Refuses Scribble on the overlay: a pencil over a web text field draws ink.
    public func scribbleInteraction(_ interaction: UIScribbleInteraction, shouldBeginAt location: CGPoint) -> Bool {
        false
    }

    // MARK: - Ink

    /// The page side's ink changed in `area` (canvas points), or the page moved (`nil`): the
    /// overlay follows the page side's transform and redraws (the page side's `redraw`).
    func pageSideChanged(in area: CanvasRect?) {
        if area == nil, let side { pageTransform = side.transform }
        inkChanged(in: area)
    }

    /// The page side's ink changed in `area` (canvas points; `nil`: anywhere, or the page
    /// moved): redraws it there, and the tiles whose revision changed.
    public func inkChanged(in area: CanvasRect?) {
        if let area {
            setNeedsDisplay(CGRect(x: area.minX - 2, y: area.minY - 2, width: area.width + 4, height: area.height + 4))
        } else {
            setNeedsDisplay()
        }
        syncTiles()
    }

    /// Fills the strokes being drawn (and any finished stroke too large for tiles), each
    /// segment's outline (`StrokeSegment.outline(maxStep:)` and its caps, as the GTK twin's
    /// painter fills them) mapped from page coordinates to the view through
    /// ``pageTransform``. Finished strokes are in the tile views.
    public override func draw(_ rect: CGRect) {
        guard let context = UIGraphicsGetCurrentContext() else { return }
        resolvedInkColor.setFill()
        drewLiveInk = !ink.active.isEmpty || !ink.tiles.oversized.isEmpty
        let m = viewTransform.pageToCanvas
        for index in ink.tiles.oversized where ink.finished.indices.contains(index) {
            // Finished: its outline, tessellated once, drawn through the page transform.
            context.saveGState()
            context.translateBy(x: CGFloat(m.tx), y: CGFloat(m.ty))
            context.scaleBy(x: CGFloat(m.a), y: CGFloat(m.a))
            fill(ink.finished[index], in: nil, on: context)
            context.restoreGState()
        }
        for stroke in ink.active {
            let segments = stroke.segments
            for (index, segment) in segments.enumerated() {
                context.addPath(Self.path(of: segment, isLast: index == segments.count - 1) {
                    self.viewPoint(for: PagePoint(inkLayerPoint: $0))
                })
                context.fillPath(using: .winding)
            }
        }
    }

    /// One segment's polygons as one path, to fill with the non-zero rule: its body and, but
    /// for a dot, its start cap and (the stroke's last segment) its end cap; each point mapped
    /// by `map`.
    fileprivate static func path(of segment: StrokeSegment, isLast: Bool, _ map: (CanvasPoint) -> CGPoint) -> CGPath {
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
    fileprivate struct Outline {
        /// The stroke's stable segments it was made from, hashed with their count: a stroke
        /// refined since no longer matches.
        var fingerprint: Int
        var pieces: [(bounds: CanvasRect, path: CGPath)]
    }

    /// Fills a finished stroke in page coordinates on `context` (whose transform maps them
    /// where they belong) from its outline, made once and again only if the stroke was
    /// refined; the segments outside `area` (page coordinates; `nil`: everywhere) skipped.
    fileprivate func fill(_ stroke: InkLayer.Stroke, in area: CanvasRect?, on context: CGContext) {
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

    // MARK: - Colour

    /// The colour ink is drawn with now: ``inkColor`` when the app set one; else the one rule,
    /// `PageInk.color(chosen:background:darkAppearance:)` (the ink that contrasts most with
    /// `pageBackground`, or, while that is unknown, with a dark canvas in the dark appearance
    /// and white otherwise; 92 % opaque).
    public var resolvedInkColor: UIColor {
        if let inkColor { return inkColor }
        let c = PageInk.color(background: pageBackground, darkAppearance: traitCollection.userInterfaceStyle == .dark)
        return UIColor(red: CGFloat(c.red), green: CGFloat(c.green), blue: CGFloat(c.blue), alpha: CGFloat(c.alpha))
    }

    /// Reports a change of size to ``onResize`` (the first layout too). UIKit also lays the
    /// view out again when the system's appearance changes: the automatic colour may change,
    /// and the page may follow the appearance (``onAppearanceChange``).
    public override func layoutSubviews() {
        super.layoutSubviews()
        let size = (width: Double(bounds.size.width), height: Double(bounds.size.height))
        if laidOutSize.map({ $0.width != size.width || $0.height != size.height }) ?? true {
            laidOutSize = size
            onResize?(bounds.size)
        }
        let style = traitCollection.userInterfaceStyle
        guard style != lastStyle else { return }
        lastStyle = style
        colorChanged()
        onAppearanceChange?()
    }

    private func colorChanged() {
        setNeedsDisplay()
        for view in tileViews.values { view.setNeedsDisplay() }
    }

    // MARK: - Finished ink in tiles

    private func pageTransformChanged(from old: PageTransform) {
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
    private func applyPageTransform() {
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
    /// the view can show.
    private func tileResolution(tileSize: Double) -> Double {
        let scale = viewTransform.scale
        let shown = InkTileZoom.tilesShown(viewWidth: Double(bounds.width), viewHeight: Double(bounds.height), scale: scale,
                                           tileSize: tileSize, limit: 1_024)
        return InkTileZoom.resolution(forScale: scale, displayScale: Double(traitCollection.displayScale), tileSize: tileSize,
                                      tiles: shown)
    }

    /// Keeps a tile view for each tile with finished ink on screen, and, within the pixel
    /// budget, for those within a tile of it; draws again those whose revision changed and,
    /// once the zoom rests, those of another resolution; drops the others (their backing
    /// stores go).
    private func syncTiles(force: Bool = false) {
        let index = ink.tiles
        guard force || index.revision != tilesRevision else { return }
        tilesRevision = index.revision
        let tileSize = index.tileSize, margin = tileSize
        let target = tileResolution(tileSize: tileSize), targetSide = InkTileZoom.pictureSide(resolution: target, tileSize: tileSize)
        let rests = zoomRests
        // The page area the view shows, and grown by a tile, in the layer's (page) coordinates.
        let shown = viewTransform.pageRect(for: CanvasRect(minX: 0, minY: 0, maxX: Double(bounds.width), maxY: Double(bounds.height)))
        let grown = PageRect(minX: shown.minX - margin, minY: shown.minY - margin,
                             maxX: shown.maxX + margin, maxY: shown.maxY + margin)
        let onScreen = (ink.tiles(covering: shown, limit: 1_024) ?? []).filter { !index.strokes(in: $0).isEmpty }
        let around = (ink.tiles(covering: grown, limit: 1_024) ?? []).filter { !index.strokes(in: $0).isEmpty }
        // The resolution each tile has after this pass: its own, or the target's when it is
        // drawn again (new, changed, or of another resolution once the zoom rests).
        func side(of tile: InkTileIndex.Tile) -> Int {
            guard let view = tileViews[tile], view.revision == index.revision(of: tile), !rests || view.resolution == target else {
                return targetSide
            }
            return view.side
        }
        // The tiles on screen first. Over the budget only after a zoom out (tiles of an
        // earlier, finer resolution): all are drawn again at the target's, which fits.
        var pixels = onScreen.reduce(0) { $0 + side(of: $1) * side(of: $1) }
        let redrawAll = pixels > InkTileZoom.pixelBudget
        if redrawAll { pixels = onScreen.count * targetSide * targetSide }
        var wanted = Set(onScreen)
        // The margin, as the budget allows, those already drawn first.
        let onScreenSet = wanted
        let marginTiles = around.filter { !onScreenSet.contains($0) }
            .sorted { (tileViews[$0] != nil ? 0 : 1) < (tileViews[$1] != nil ? 0 : 1) }
        for tile in marginTiles {
            let tileSide = redrawAll ? targetSide : side(of: tile)
            guard InkTileZoom.fits(adding: tileSide, to: pixels) else { continue }
            pixels += tileSide * tileSide
            wanted.insert(tile)
        }
        for (tile, view) in tileViews where !wanted.contains(tile) {
            view.removeFromSuperview()
            tileViews[tile] = nil
        }
        for tile in wanted {
            let revision = index.revision(of: tile)
            if let view = tileViews[tile] {
                if redrawAll || view.revision != revision || (rests && view.resolution != target) {
                    view.revision = revision
                    view.redraw(at: target, side: targetSide)
                }
                continue
            }
            let rect = ink.tileRect(tile)
            let view = InkTileView(frame: CGRect(x: rect.minX, y: rect.minY, width: rect.width, height: rect.height))
            view.overlay = self
            view.tile = tile
            view.revision = revision
            view.redraw(at: target, side: targetSide)
            finishedInk.addSubview(view)
            tileViews[tile] = view
        }
        tilePixels = tileViews.values.reduce(0) { $0 + $1.side * $1.side }
    }

    /// Fills the finished strokes of `tile`, oldest first, in the tile view's coordinates,
    /// each from its outline (tessellated once).
    fileprivate func drawTile(_ tile: InkTileIndex.Tile) {
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

    // MARK: - Coordinates

    /// The page transform, its scale 1 where it is not positive.
    private var viewTransform: PageTransform {
        var t = pageTransform
        if !(t.scale > 0) { t.scale = 1 }
        return t
    }

    /// The view point showing a page point.
    private func viewPoint(for page: PagePoint) -> CGPoint {
        let point = viewTransform.canvasPoint(for: page)
        return CGPoint(x: point.x, y: point.y)
    }
}

/// One tile of finished ink: a view one tile of page space in size, inside the overlay's
/// container (which carries the page transform), drawn once per revision of its tile.
@MainActor
private final class InkTileView: UIView {
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
