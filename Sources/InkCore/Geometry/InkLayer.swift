/// The strokes of a canvas, kept up to date from the decision engine's actions.
///
/// A host feeds every ``RouterAction`` to ``apply(_:)`` and redraws what the returned
/// ``InkLayer/Change`` says: ink goes into a stroke builder per touch (`StrokeBuilder`, SPI), predictions
/// become its tentative tail, refinements reshape it, a retraction or a cancel removes it.
/// Actions about the page (releases, queries) are not the layer's business and change
/// nothing.
///
/// ```swift
/// for action in actions {
///     if let change = layer.apply(action) { redraw(change.bounds) }
/// }
/// ```
public struct InkLayer: Sendable {
    /// A stroke of the layer.
    public struct Stroke: Sendable {
        /// The touch that drew it.
        public var touch: TouchID
        /// Its geometry, as the stroke pipeline builds it (tools read its parts).
        @_spi(Tooling) public var builder: StrokeBuilder

        /// Every segment, in drawing order: the stable ones, then the tentative tail of a
        /// stroke still being drawn. Fill each segment's ``StrokeSegment/outline(maxStep:)`` and
        /// ``StrokeSegment/startCap(maxStep:)``, and the last one's ``StrokeSegment/endCap(maxStep:)``, with
        /// the non-zero rule.
        public var segments: [StrokeSegment] { builder.allSegments }
        /// The segments that will never change again, in drawing order (no copy: the
        /// stroke's own storage). A renderer keeps pictures of these.
        public var stableSegments: [StrokeSegment] { builder.stableSegments }
        /// Appends the stroke's tentative tail (its prediction included) to `tail`: what
        /// follows ``stableSegments`` now. Read it once per frame; no allocation when `tail`
        /// has room (reuse one array across frames).
        public func appendVolatileSegments(to tail: inout [StrokeSegment]) { builder.appendVolatileSegments(to: &tail) }
        /// `true` once the touch lifted: the stroke will not change again (a later
        /// force refinement excepted).
        public var isFinished: Bool { builder.isFinished }
    }

    /// What one action changed.
    ///
    /// A touch draws at most one stroke (the engine's ids are never reused), so ``touch``
    /// names the stroke: ``InkLayer/stroke(for:)`` finds it without a scan.
    public struct Change: Sendable, Hashable {
        /// The touch whose stroke changed.
        public var touch: TouchID
        /// Where the stroke is in ``InkLayer/finished`` (and so in `InkLayer.tiles`) when
        /// the change was to a finished stroke that is still there; `nil` for a stroke being
        /// drawn or one removed.
        public var finishedIndex: Int?
        /// The area to redraw; `nil` when nothing visible changed.
        public var bounds: CanvasRect?
        /// `true` when the stroke was removed (retracted or cancelled).
        public var removed: Bool
    }

    /// The style new strokes are made with.
    public var style: StrokeStyle
    /// Finished strokes, oldest first.
    public private(set) var finished: [Stroke] = []
    /// Strokes being drawn.
    public private(set) var active: [Stroke] = []
    /// Where the finished strokes lie, by tiles: what a renderer that keeps finished ink as
    /// pictures reads (`InkTileIndex`). Kept up to date by every change of ``finished``.
    public private(set) var tiles: InkTileIndex
    /// Where each finished stroke is in `finished`, by its touch.
    private var finishedIndices: [TouchID: Int] = [:]
    /// The builder of the last stroke removed while being drawn (retracted or cancelled),
    /// emptied: the next stroke is drawn in it, reusing its buffers (a finished stroke keeps
    /// its builder, whose arrays are its geometry).
    private var spare: StrokeBuilder?

    /// Creates an empty layer.
    /// - Parameters:
    ///   - style: The style new strokes are made with.
    ///   - tileSize: The side of a tile of `tiles`, in the layer's coordinates.
    public init(style: StrokeStyle = StrokeStyle(), tileSize: Double = 256) {
        self.style = style
        tiles = InkTileIndex(tileSize: tileSize)
    }

    /// Every stroke, finished ones first.
    public var strokes: [Stroke] { finished + active }

    /// The stroke the touch drew, being drawn or finished; `nil` when it drew none or the
    /// stroke was removed. Constant time: a renderer redrawing the stroke a ``Change`` names
    /// scans nothing.
    public func stroke(for touch: TouchID) -> Stroke? {
        if let index = activeIndex(touch) { return active[index] }
        return finishedIndices[touch].map { finished[$0] }
    }

    /// Applies one engine action; returns what changed, or `nil` when the action does not
    /// concern the ink.
    public mutating func apply(_ action: RouterAction) -> Change? {
        switch action {
        case let .ink(touch, sample):
            let index = activeIndex(touch) ?? {
                active.append(Stroke(touch: touch, builder: newBuilder()))
                return active.count - 1
            }()
            // The engine only inks samples it validated, so the builder cannot refuse them.
            let update = (try? active[index].builder.append(sample)) ?? .none
            return Change(touch: touch, finishedIndex: nil, bounds: update.changedBounds, removed: false)
        case let .predictInk(touch, predicted):
            guard let index = activeIndex(touch) else { return nil }
            return Change(touch: touch, finishedIndex: nil, bounds: active[index].builder.predict(predicted).changedBounds, removed: false)
        case let .refineInk(touch, sampleIndex, sample):
            if let index = activeIndex(touch) {
                let update = active[index].builder.refine(sampleAt: sampleIndex, with: sample)
                return Change(touch: touch, finishedIndex: nil, bounds: update.changedBounds, removed: false)
            }
            guard let index = finishedIndices[touch] else { return nil }
            let update = finished[index].builder.refine(sampleAt: sampleIndex, with: sample)
            if update.changedBounds != nil { tiles.update(index, to: finished[index].builder) }
            return Change(touch: touch, finishedIndex: index, bounds: update.changedBounds, removed: false)
        case let .endInk(touch):
            guard let index = activeIndex(touch) else { return nil }
            var stroke = active.remove(at: index)
            let update = stroke.builder.finish()
            finishedIndices[touch] = finished.count
            finished.append(stroke)
            tiles.append(stroke.builder)
            return Change(touch: touch, finishedIndex: finished.count - 1, bounds: update.changedBounds, removed: false)
        case let .retractInk(touch), let .cancel(touch, previously: .ink):
            guard let index = activeIndex(touch) else { return nil }
            var stroke = active.remove(at: index)
            let bounds = stroke.builder.allSegments.reduce(nil as CanvasRect?) { CanvasRect.union($0, $1.bounds) }
            // Emptied now, so the spare holds no ink (and at most a bounded buffer).
            stroke.builder.reset(style: style)
            spare = stroke.builder
            return Change(touch: touch, finishedIndex: nil, bounds: bounds, removed: true)
        case .queryPage, .abandonQuery, .decided, .release, .endRelease, .nativeRelease, .cancel, .touchFinished:
            return nil
        }
    }

    /// Undo: removes the last finished stroke, as the user asks (the engine's ledger is
    /// unchanged: the samples were inked; the user erased the ink). Returns what changed, or
    /// `nil` when no stroke is finished. Strokes still being drawn stay.
    public mutating func removeLastStroke() -> Change? {
        guard let stroke = finished.popLast() else { return nil }
        finishedIndices[stroke.touch] = nil
        tiles.removeLast()
        return Change(touch: stroke.touch, finishedIndex: nil, bounds: Self.bounds(of: stroke), removed: true)
    }

    /// Clear: removes every finished stroke (strokes being drawn stay). Returns the area to
    /// redraw, `nil` when nothing was removed. The ledger is unchanged.
    public mutating func removeFinishedStrokes() -> CanvasRect? {
        let removed = finished
        finished.removeAll()
        finishedIndices.removeAll()
        tiles.removeAll()
        return removed.reduce(nil as CanvasRect?) { CanvasRect.union($0, Self.bounds(of: $1)) }
    }

    private static func bounds(of stroke: Stroke) -> CanvasRect? {
        stroke.builder.allSegments.reduce(nil as CanvasRect?) { CanvasRect.union($0, $1.bounds) }
    }

    private func activeIndex(_ touch: TouchID) -> Int? { active.lastIndex { $0.touch == touch } }

    /// A builder for a new stroke in ``style``: the spare one when there is one (the same
    /// output, bit for bit, as a new builder: `StrokeBuilder.reset(style:)`).
    private mutating func newBuilder() -> StrokeBuilder {
        guard var builder = spare else { return StrokeBuilder(style: style) }
        spare = nil   // the builder's buffers are held once again
        builder.reset(style: style)
        return builder
    }
}
