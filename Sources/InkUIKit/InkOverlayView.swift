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
/// container's transform changes; the tiles are scaled with it and none is drawn again (but
/// one whose ink changed, and one coming into view, drawn at the zoom's resolution). Once
/// the zoom rests (its scale has held still for 0.15 s on the loop's clock and the scroll
/// view is neither zooming nor bouncing: `InkTileZoom`), the tiles are drawn again, once, at
/// the zoom's resolution, capped: at most 1024 pixels a side and 16 Mi pixels (64 MiB) over
/// the tiles held, the GTK twin's figures. Beyond the zoom that needs more (zoom 2 on a 2x
/// screen for a 256-point tile) ink is drawn from magnified tiles. The tiles on screen are
/// always kept; those in the margin around them only within the budget, and a zoom out that
/// would bring more pixels on screen than the budget holds draws the tiles again at once,
/// at half the side the new zoom allows (room for the zoom to halve again), then at its
/// resolution once it rests. Each finished stroke's outline is tessellated once into
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
    let finishedInk = UIView(frame: .zero)
    var tileViews: [InkTileIndex.Tile: InkTileView] = [:]
    var tilesRevision: UInt64 = 0
    private var lastStyle: UIUserInterfaceStyle = .unspecified
    /// Whether the last ``draw(_:)`` filled any stroke: it must be redrawn when the page moves.
    var drewLiveInk = false

    /// The clock a zoom settles on (``InkUIKitController`` gives its loop's); `nil`: tiles are
    /// drawn again at each change of zoom, at once.
    var clock: (any InkLoopClock)?
    /// Whether a zoom is in progress (``InkUIKitController``: the scroll view's `isZooming` or
    /// `isZoomBouncing`); `nil`: none is.
    var zoomInProgress: (() -> Bool)?
    /// The zoom rules and the zoom's last change.
    var zoom = InkTileZoom()
    /// The wake-up that looks whether the zoom rests (armed while it settles).
    var settleWake: (() -> Void)?
    /// The pixels of the tile views held (their backing stores).
    var tilePixels = 0
    /// Tile views drawn (filled) so far.
    var tilesRendered = 0
    /// Each finished stroke's outline, by its touch (``Outline``).
    var outlines: [TouchID: Outline] = [:]
    /// Finished strokes tessellated into outlines so far.
    var outlinesMade = 0

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

    // MARK: - Coordinates

    /// The page transform, its scale 1 where it is not positive.
    var viewTransform: PageTransform {
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
#endif
