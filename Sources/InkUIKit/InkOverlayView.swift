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
/// Ink is kept in page coordinates (each sample is mapped through ``pageTransform`` when it
/// is inked) and drawn through the current transform, so it scrolls and zooms with the page.
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
    public var router: ((CanvasPoint, ToolKind?) -> TouchDownRoute)?
    /// The route of the most recent hit test that asked the router.
    public private(set) var lastRoute: TouchDownRoute?
    /// Canvas points to page coordinates, as of the page's last scroll or zoom. Changing it
    /// redraws the ink at its new place.
    public var pageTransform: PageTransform = .identity { didSet { setNeedsDisplay() } }
    /// The ink, in page coordinates.
    public private(set) var ink: InkLayer
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
    /// The colour ink is filled with.
    public var inkColor = UIColor(red: 0.1, green: 0.1, blue: 0.35, alpha: 1) { didSet { setNeedsDisplay() } }

    /// Creates an overlay.
    /// - Parameters:
    ///   - frame: The web view's frame, in the common superview.
    ///   - style: The style of new strokes.
    public init(frame: CGRect, style: StrokeStyle = StrokeStyle()) {
        ink = InkLayer(style: style)
        super.init(frame: frame)
        isOpaque = false
        backgroundColor = .clear
        isMultipleTouchEnabled = true
        isAccessibilityElement = false
        accessibilityElementsHidden = true
        addInteraction(UIScribbleInteraction(delegate: self))
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
        let route = router(CanvasPoint(x: Double(point.x), y: Double(point.y)), nil)
        lastRoute = route
        switch route {
        case .page: return nil
        case .ink, .unknown: return self
        }
    }

    /// Reports a change of size to ``onResize`` (the first layout too).
    public override func layoutSubviews() {
        super.layoutSubviews()
        let size = (width: Double(bounds.size.width), height: Double(bounds.size.height))
        guard laidOutSize.map({ $0.width != size.width || $0.height != size.height }) ?? true else { return }
        laidOutSize = size
        onResize?(bounds.size)
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

    /// Applies one engine action to the ink (in page coordinates) and redraws what changed.
    /// Actions about the page change nothing.
    @discardableResult
    public func apply(_ action: RouterAction) -> InkLayer.Change? {
        let change = ink.apply(action.inPageCoordinates(pageTransform))
        if let bounds = change?.bounds { setNeedsDisplay(viewRect(for: bounds)) }
        return change
    }

    /// Clear: removes every finished stroke from the layer (`InkLayer.removeFinishedStrokes()`)
    /// and redraws where they were. Strokes being drawn stay. The engine's ledger is
    /// unchanged: the samples were inked; the user erased the ink.
    public func clear() {
        if let bounds = ink.removeFinishedStrokes() { setNeedsDisplay(viewRect(for: bounds)) }
    }

    /// Undo: removes the most recent finished stroke from the layer
    /// (`InkLayer.removeLastStroke()`) and redraws where it was; returns its touch, or `nil`
    /// when no stroke is finished. Strokes being drawn stay. The engine's ledger is unchanged.
    @discardableResult
    public func undoLastStroke() -> TouchID? {
        guard let change = ink.removeLastStroke() else { return nil }
        if let bounds = change.bounds { setNeedsDisplay(viewRect(for: bounds)) }
        return change.touch
    }

    /// Fills each segment's outline (``StrokeOutline``), mapped from page coordinates to the
    /// view through ``pageTransform``.
    public override func draw(_ rect: CGRect) {
        inkColor.setFill()
        for stroke in ink.strokes {
            let segments = stroke.builder.allSegments
            for (index, segment) in segments.enumerated() {
                fill(StrokeOutline.polygon(for: segment))
                fill(StrokeOutline.circle(center: segment.curve.p0, radius: segment.startWidth / 2))
                if index == segments.count - 1 {
                    fill(StrokeOutline.circle(center: segment.curve.p3, radius: segment.endWidth / 2))
                }
            }
        }
    }

    private func fill(_ polygon: [CanvasPoint]) {
        guard let first = polygon.first else { return }
        let path = UIBezierPath()
        path.move(to: viewPoint(for: first))
        for point in polygon.dropFirst() { path.addLine(to: viewPoint(for: point)) }
        path.close()
        path.fill()
    }

    // MARK: - Coordinates

    /// The view point showing a page point.
    private func viewPoint(for page: CanvasPoint) -> CGPoint {
        let t = pageTransform
        let scale = t.scale > 0 ? t.scale : 1
        return CGPoint(x: (page.x - t.offsetX) / scale, y: (page.y - t.offsetY) / scale)
    }

    private func viewRect(for page: CanvasRect) -> CGRect {
        let a = viewPoint(for: CanvasPoint(x: page.minX, y: page.minY))
        let b = viewPoint(for: CanvasPoint(x: page.maxX, y: page.maxY))
        return CGRect(x: Double(a.x) - 2, y: Double(a.y) - 2,
                      width: Double(b.x) - Double(a.x) + 4, height: Double(b.y) - Double(a.y) + 4)
    }
}
#endif
