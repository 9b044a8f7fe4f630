/// What one call to ``StrokeBuilder`` changed, so a renderer redraws only that.
@_spi(Tooling) public struct StrokeUpdate: Sendable, Hashable {
    /// Indices into ``StrokeBuilder/stableSegments`` that became stable in this update.
    /// Stable segments never change again.
    public var newlyStable: Range<Int>
    /// The area whose drawing changed: the old volatile tail, the new one and the newly
    /// stable segments; `nil` when nothing changed. It is computed without building the
    /// tail, from its nodes, so it may be a little larger than the ink that changed, never
    /// smaller.
    public var changedBounds: CanvasRect?

    /// An update that changed nothing.
    public static let none = StrokeUpdate(newlyStable: 0..<0, changedBounds: nil)
}

/// Builds one stroke's geometry incrementally, sample by sample.
///
/// The pipeline: input conditioning (refusing non-finite samples, merging samples with
/// the same timestamp), smoothing with the causal `PenFilter` for the live tip, then with
/// a lag-free local least-squares fit once a node's neighbours are known, centripetal
/// Catmull-Rom interpolation into cubic Béziers (`CubicBezier`), widths from force or
/// speed with tapers (``StrokeStyle``), and incremental output: a **stable** prefix of
/// segments that never change again, and a **volatile** tail (the last few segments, which
/// the next samples or the end taper may still reshape, plus the predicted samples).
///
/// Appending a sample does a fixed amount of work, whatever the length of the stroke: it
/// filters the sample, settles the one node whose window just filled, and moves the
/// segments that can no longer change to the stable prefix. The volatile tail is built
/// only when it is read (``volatileSegments``, once per frame), never re-deriving a settled
/// node.
///
/// A finished mark of at most ``dotSampleLimit`` samples, or whose samples all lie within
/// a square as wide as the brush, is at least as wide as the brush everywhere, without
/// tapers: with its round caps a decimal point is a round dot at least as wide as the
/// stroke, never a speck. So that a dot drawn slowly (the pen resting a moment, its
/// samples jittering in place) is still a dot, a live mark within the brush keeps all its
/// segments volatile for up to ``dotHoldLimit`` nodes.
///
/// Inside, two parts behind this type: an input modeler (`StrokeInputModeler`: it checks
/// each sample, once, and makes the modeled nodes: merged, filtered, settled, with their
/// speeds, widths before the end taper, estimates and prediction) and a shape builder
/// (`StrokeShapeBuilder`: the end taper, dots, Catmull-Rom segments, the stable prefix and
/// the volatile tail). The nodes are kept once, one record per node, in the modeler's window
/// (the nodes nothing can still reach are forgotten, so a long stroke's memory is its stable
/// segments); each call here runs the modeler, then lets the shape builder read the nodes
/// in place.
///
/// ```swift
/// var stroke = StrokeBuilder()
/// for sample in samples { _ = try stroke.append(sample) }   // draw stable + volatile
/// _ = stroke.finish()                                        // everything is stable now
/// let svgPath = StrokeOutline.svgPathData(stroke.stableSegments)
/// ```
@_spi(Tooling) public struct StrokeBuilder: Sendable {
    /// How many of the last nodes an end taper may narrow, and so stay volatile.
    public static let maxTaperNodes = StrokeShapeBuilder.maxTaperNodes
    /// A mark of at most this many samples is drawn at least as wide as the brush, without
    /// tapers.
    public static let dotSampleLimit = StrokeShapeBuilder.dotSampleLimit
    /// How many nodes a live mark within the brush may have and keep every segment
    /// volatile, so that it can still become a dot when it finishes (about a second at
    /// 240 Hz). A longer one is drawn as a stroke, with tapers.
    public static let dotHoldLimit = StrokeShapeBuilder.dotHoldLimit
    /// The largest settle radius used, whatever the style asks (bounds the work per sample).
    public static let maxSettleRadius = StrokeInputModeler.maxSettleRadius

    /// Samples to modeled nodes.
    private var model: StrokeInputModeler
    /// Modeled nodes to segments.
    @usableFromInline
    private(set) var shape: StrokeShapeBuilder

    /// Starts an empty stroke.
    @_spi(Tooling) public init(style: StrokeStyle = StrokeStyle()) {
        model = StrokeInputModeler(style: style)
        shape = StrokeShapeBuilder(style: style)
    }

    /// Starts a new, empty stroke in this builder, as ``init(style:)`` would with the same
    /// style, keeping the builder's buffers: a renderer or a tool that builds one stroke after
    /// another (one builder per touch slot) allocates nothing per stroke once the buffers have
    /// grown. The new stroke's output is the same, bit for bit, as a new builder's: nothing of
    /// the last stroke is kept but the buffers' capacity (at most 1,024 nodes' worth; a longer
    /// stroke's buffers are released). Copies of the builder, or of the arrays it returned, keep
    /// the last stroke.
    @_spi(Tooling) public mutating func reset() {
        reset(style: shape.style)
    }

    /// Starts a new, empty stroke made with `style`, keeping the builder's buffers: what
    /// ``reset()`` does, as ``init(style:)`` would with `style`.
    @_spi(Tooling) public mutating func reset(style: StrokeStyle) {
        model.reset(style: style)
        shape.reset(style: style)
    }

    /// The style the stroke is made with.
    public var style: StrokeStyle { shape.style }
    /// Conditioned centreline points, one per distinct sample timestamp, by node index: those
    /// not forgotten (a long stroke forgets the nodes no segment or estimate can still reach;
    /// ``nodeCount`` counts them all).
    package var nodes: StrokeNodes { StrokeNodes(window: model.nodes) }
    /// How many nodes the stroke has, forgotten ones included.
    package var nodeCount: Int { model.count }
    /// Segments that will never change again, in drawing order.
    @inlinable
    public var stableSegments: [StrokeSegment] { shape.stableSegments }
    /// `true` once `finish()` was called.
    public var isFinished: Bool { model.isFinished }
    /// The real samples appended so far.
    public var sampleCount: Int { model.sampleCount }

    /// The current tentative tail (including any prediction), built when read: read it once
    /// per frame, not once per sample.
    public var volatileSegments: [StrokeSegment] {
        var tail: [StrokeSegment] = []
        appendVolatileSegments(to: &tail)
        return tail
    }

    /// Appends the current tentative tail to `segments` (no allocation when it has room):
    /// what ``volatileSegments`` returns.
    public func appendVolatileSegments(to segments: inout [StrokeSegment]) {
        shape.appendVolatileSegments(to: &segments, model.tail)
    }

    /// All segments to draw now: the stable ones, then the volatile tail.
    public var allSegments: [StrokeSegment] {
        var all = shape.stableSegments
        appendVolatileSegments(to: &all)
        return all
    }

    // MARK: - Input

    /// Adds a real sample at the end of the stroke.
    /// - Throws: `StrokeInputError`; nothing changes then.
    @_spi(Tooling) public mutating func append(_ sample: TouchSample) throws(StrokeInputError) -> StrokeUpdate {
        let step = try model.append(sample)
        // The modeler changed the nodes (and their widths) in place; the shape builder reads them.
        shape.predictionChanged(&model)
        guard step.isNewNode else { return shape.update(&model) }
        let update = shape.update(&model, settled: step.remeasuredLive ? nil : step.settled)
        if !shape.stableSegments.isEmpty { model.forget(before: shape.firstNodeRead) }
        return update
    }

    /// Replaces the tentative tail's predicted samples (the platform's prediction). An
    /// empty list falls back to the built-in predictor. Predictions are never stored.
    @_spi(Tooling) public mutating func predict(_ predicted: [TouchSample]) -> StrokeUpdate {
        guard model.predict(predicted) else { return .none }
        shape.predictionChanged(&model)
        return shape.update(&model)
    }

    /// Applies a refined value (an estimated-property update) to the sample at `index`
    /// (0-based among the appended samples) and recomputes its node's width. Only samples
    /// that still carry an ``TouchSample/estimationUpdateIndex`` can be refined: the
    /// segments around them stay volatile until then (also after `finish()`), so the
    /// stable prefix never changes. Other calls change nothing.
    @_spi(Tooling) public mutating func refine(sampleAt index: Int, with refined: TouchSample) -> StrokeUpdate {
        guard model.refine(sampleAt: index, with: refined) != nil else { return .none }
        if model.isFinished { shape.applyEndTaper(&model) }
        return shape.update(&model)
    }

    /// Finishes the stroke: the remaining nodes settle (the ends fitted like the rest), the
    /// end taper is applied (a short mark is at least as wide as the brush instead; see the
    /// type's notes), the prediction
    /// is dropped, and every segment becomes stable (except around samples still waiting for
    /// an estimated-property update; see `settleEstimates()`). Finishing twice changes
    /// nothing.
    @_spi(Tooling) public mutating func finish() -> StrokeUpdate {
        guard !model.isFinished else { return .none }
        model.finish()
        shape.finish(&model)
        return shape.update(&model)
    }

    /// Stops waiting for estimated-property updates: their samples keep the estimated
    /// values and the rest of a finished stroke becomes stable.
    @_spi(Tooling) public mutating func settleEstimates() -> StrokeUpdate {
        guard model.settleEstimates() else { return .none }
        return shape.update(&model)
    }
}
