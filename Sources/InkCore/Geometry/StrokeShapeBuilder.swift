/// The second half of ``StrokeBuilder``: turns the modeled nodes of `StrokeInputModeler` into
/// the stroke's geometry.
///
/// Each node's ink width comes from its force (or, without one, its speed), narrowed near the
/// start of the stroke by the start taper and, once it is finished, near its end by the end
/// taper (a short mark is a dot instead: at least as wide as the brush, without tapers). The
/// nodes are joined by centripetal Catmull-Rom segments (``CubicBezier``). Output is
/// incremental: a **stable** prefix of segments that never change again, and a **volatile**
/// tail built only when it is read, with the rectangle each update changed.
///
/// It keeps no nodes of its own: it reads the modeler's (`StrokeInputModeler.nodes`, one
/// record per node with its width, which the modeler computes where it makes or changes a
/// node) in place, with the modeler's state and prediction, the modeler passed `inout` (by
/// address: a borrowed one would be copied, hundreds of bytes a call); only the end taper (or a
/// short mark's width) writes widths back, through the modeler.
@usableFromInline
struct StrokeShapeBuilder: Sendable {
    /// How many of the last nodes an end taper may narrow, and so stay volatile.
    static let maxTaperNodes = 6
    /// A mark of at most this many samples is drawn at least as wide as the brush, without
    /// tapers.
    static let dotSampleLimit = 4
    /// How many nodes a live mark within the brush may have and keep every segment volatile,
    /// so that it can still become a dot when it finishes (about a second at 240 Hz). A longer
    /// one is drawn as a stroke, with tapers.
    static let dotHoldLimit = 256
    /// How many updates may grow `tailBox` before it is measured again.
    private static let tailBoxRefresh = 8

    /// The style the stroke is made with.
    private(set) var style: StrokeStyle
    /// Segments that will never change again, in drawing order (read in place by
    /// ``StrokeBuilder/stableSegments``, inlined into its callers).
    @usableFromInline
    private(set) var stableSegments: [StrokeSegment] = []
    /// Whether the finished stroke is a short mark (a dot; see ``StrokeBuilder``), decided once
    /// by ``finish(_:)``.
    private var isShortMark = false
    /// The width the predicted nodes are drawn with: the last node's when they were predicted.
    private var predictedWidth = 0.0
    /// What the last update reported as the tail's area, and the box it came from (see
    /// ``tailBounds(_:_:settled:)``).
    private var volatileBounds: CanvasRect?
    private var tailBox: Box?
    /// Updates since `tailBox` was last measured exactly.
    private var tailBoxAge = 0
    /// The knots of the last stable segment built between four real nodes, which the next
    /// one shares (see ``stableSegment(_:)``).
    private var lastKnots: (segment: Int, knots: CatmullRom.Knots)?

    /// Starts an empty stroke.
    init(style: StrokeStyle) {
        self.style = style
        // One allocation for most strokes; longer ones grow by doubling.
        stableSegments.reserveCapacity(64)
    }

    /// Returns the builder to the state of `StrokeShapeBuilder(style: style)`, keeping its
    /// buffer (up to `StrokeInputModeler.keptCapacity` segments) so the next stroke allocates
    /// nothing. Every stored property is set here as ``init(style:)`` and the declarations set
    /// it (a test compares a reset builder's every field with a new one's): a property added to
    /// the type must be added here too. A copy of ``stableSegments`` read before keeps its
    /// values (the array is a value: a buffer still shared is copied, not reused).
    mutating func reset(style: StrokeStyle) {
        self.style = style
        Self.empty(&stableSegments)
        if stableSegments.capacity < 64 { stableSegments.reserveCapacity(64) }
        isShortMark = false
        predictedWidth = 0
        volatileBounds = nil
        tailBox = nil
        tailBoxAge = 0
        lastKnots = nil
    }

    /// Empties `buffer`, keeping its storage unless it is larger than the modeler's
    /// `keptCapacity`.
    private static func empty<Element>(_ buffer: inout [Element]) {
        if buffer.capacity > StrokeInputModeler.keptCapacity {
            buffer = []
        } else if !buffer.isEmpty {
            buffer.removeAll(keepingCapacity: true)
        }
    }

    /// The first node whose modeled inputs the builder may still read: the start of its last
    /// stable segment (see `StrokeInputModeler.forget(before:)`).
    var firstNodeRead: Int { stableSegments.count - 1 }

    // MARK: - Following the model

    /// Records that the model's prediction was replaced: predicted nodes are drawn as wide as
    /// the last node is now.
    @inline(__always)
    mutating func predictionChanged(_ model: inout StrokeInputModeler) {
        let count = model.count
        predictedWidth = count == 0 ? 0 : model.nodes[count - 1].width
    }

    /// The finished stroke's widths: a short mark (a mark with no stable segment yet, of at
    /// most ``dotSampleLimit`` samples or all within the brush) is at least as wide as the
    /// brush everywhere; another stroke narrows at its end. Call after the modeler finished.
    mutating func finish(_ model: inout StrokeInputModeler) {
        // Segments already stable never change, so only a mark with none can be a dot.
        isShortMark = stableSegments.isEmpty && (model.sampleCount <= Self.dotSampleLimit || model.fitsInBrush)
        applyEndTaper(&model)
    }

    /// Applies the end taper (or a short mark's width) again, after a refinement changed a
    /// finished stroke's width.
    func applyEndTaper(_ model: inout StrokeInputModeler) {
        let last = model.count - 1
        guard last >= 0 else { return }
        if isShortMark {
            // A short mark has no stable segment, so the modeler has forgotten none of its nodes.
            for i in 0...last { model.setWidth(max(baseWidth(of: model.nodes[i]), style.size), of: i) }
            return
        }
        var toEnd = 0.0
        for i in stride(from: last, through: max(0, last - Self.maxTaperNodes + 1), by: -1) {
            if i < last { toEnd += model.nodes[i].position.distance(to: model.nodes[i + 1].position) }
            let node = model.nodes[i]
            let width = style.widthBeforeEndTaper(force: node.force, speed: node.speed, distance: node.distance)
                * style.taper(toEnd, over: style.endTaper)
            model.setWidth(width, of: i)
        }
    }

    // MARK: - Widths

    /// A node's width before tapers, from its force, or its speed when it has none.
    @inline(__always)
    private func baseWidth(of node: borrowing StrokeInputModeler.Node) -> Double {
        style.baseWidth(force: node.force, speed: node.speed)
    }

    // MARK: - Output

    /// Appends the current tentative tail (including any prediction) to `segments`.
    @inline(__always)
    func appendVolatileSegments(to segments: inout [StrokeSegment], _ tail: StrokeInputModeler.Tail) {
        let total = tail.nodes.count + tail.predictedCount
        if total == 1, stableSegments.isEmpty {
            segments.append(dot(tail.nodes[0].drawn))
        } else if total > 1, stableSegments.count < total - 1 {
            for i in stableSegments.count..<(total - 1) { segments.append(segment(i, count: total, tail)) }
        }
    }

    /// Moves newly settled segments to the stable prefix and reports what changed.
    /// - Parameter settled: When the update follows a new sample far from the start of the
    ///   stroke (so no width but the new nodes' changed), the nodes it settled; `nil` when
    ///   anything else may have changed.
    mutating func update(_ model: inout StrokeInputModeler, settled: Range<Int>? = nil) -> StrokeUpdate {
        var changed = volatileBounds
        let stableBefore = stableSegments.count
        let count = model.count
        let firstPending = model.firstPendingNode
        // Each segment's area joins the changed one as it becomes stable (in order).
        if count == 1 {
            if model.isFinished, stableSegments.isEmpty, isSettled(segment: -1, model, count: count, firstPending: firstPending) {
                let dot = dot(model.nodes[0].drawn)
                changed = CanvasRect.union(changed, dot.bounds)
                stableSegments.append(dot)
            }
        } else {
            while stableSegments.count < count - 1,
                  isSettled(segment: stableSegments.count, model, count: count, firstPending: firstPending) {
                let settled = stableSegment(stableSegments.count, model)
                changed = CanvasRect.union(changed, settled.bounds)
                stableSegments.append(settled)
            }
        }
        tailBox = tailBounds(model, settled: settled)
        volatileBounds = tailBox?.rect
        changed = CanvasRect.union(changed, volatileBounds)
        return StrokeUpdate(newlyStable: stableBefore..<stableSegments.count, changedBounds: changed)
    }

    /// Whether segment `i` (from node i to node i+1) can no longer change.
    @inline(__always)
    private func isSettled(segment i: Int, _ model: borrowing StrokeInputModeler, count: Int, firstPending: Int) -> Bool {
        if model.isFinished { return i + 1 < firstPending }
        // A mark within the brush may still become a dot (see ``dotHoldLimit``).
        if model.fitsInBrush, count <= Self.dotHoldLimit { return false }
        // Live: the segment's curve depends on nodes i-1 ... i+2, which must have settled;
        // the end taper may still narrow the last maxTaperNodes.
        return i + 2 < min(count - Self.maxTaperNodes - 1, firstPending, model.settledCount)
    }

    /// Node `i` of the real nodes followed by the predicted ones.
    @inline(__always)
    private func extendedNode(_ i: Int, _ tail: StrokeInputModeler.Tail) -> StrokeNode {
        let count = tail.nodes.count
        if i < count { return tail.nodes[i].drawn }
        let predicted = tail.predicted(i - count)
        return StrokeNode(position: predicted.position, time: predicted.time, width: predictedWidth, force: predicted.force)
    }

    /// The segment from extended node `i` to `i + 1`, among `count` extended nodes.
    @inline(__always)
    private func segment(_ i: Int, count: Int, _ tail: StrokeInputModeler.Tail) -> StrokeSegment {
        let a = extendedNode(i, tail), b = extendedNode(i + 1, tail)
        let curve = CatmullRom.segment(i > 0 ? extendedNode(i - 1, tail).position : nil, a.position, b.position,
                                       i + 2 < count ? extendedNode(i + 2, tail).position : nil)
        return StrokeSegment(curve: curve, startWidth: a.width, endWidth: b.width, startTime: a.time, endTime: b.time)
    }

    /// Segment `i` as it becomes stable: ``segment(_:count:_:)`` of the real nodes. Stable
    /// segments are built in order from settled nodes, which no longer move, so an interior
    /// one takes two of its three knot intervals from the one before it.
    @inline(__always)
    private mutating func stableSegment(_ i: Int, _ model: borrowing StrokeInputModeler) -> StrokeSegment {
        let count = model.count
        guard i > 0, i + 2 < count else {
            lastKnots = nil
            let a = model.nodes[i].drawn, b = model.nodes[i + 1].drawn
            let curve = CatmullRom.segment(i > 0 ? model.nodes[i - 1].position : nil, a.position, b.position,
                                           i + 2 < count ? model.nodes[i + 2].position : nil)
            return StrokeSegment(curve: curve, startWidth: a.width, endWidth: b.width, startTime: a.time, endTime: b.time)
        }
        let a = model.nodes[i - 1].position, b = model.nodes[i].drawn, c = model.nodes[i + 1].drawn
        let d = model.nodes[i + 2].position
        let knots: CatmullRom.Knots
        if let last = lastKnots, last.segment == i - 1 {
            knots = last.knots.next(to: CatmullRom.knot(c.position, d))
        } else {
            knots = CatmullRom.knots(a, b.position, c.position, d)
        }
        lastKnots = (i, knots)
        return StrokeSegment(curve: CatmullRom.segment(a, b.position, c.position, d, knots),
                             startWidth: b.width, endWidth: c.width, startTime: b.time, endTime: c.time)
    }

    /// A box containing the ink of the volatile tail, from its nodes without building it.
    /// Segment i's Bézier lies in the hull of its control points, each within 4/3 of the
    /// longest chord among nodes i-1 ... i+2 of a node (a bound of the centripetal
    /// Catmull-Rom tangents), and its ink within half the widest width of that.
    ///
    /// After a sample far from the start, only the nodes that moved (the one settled, the new
    /// one and the prediction) and their chords are added to the previous box: it holds every
    /// node and chord of the tail, and a few that already left it. Every
    /// ``tailBoxRefresh`` updates it is measured again from the tail alone.
    @inline(__always)
    private mutating func tailBounds(_ model: borrowing StrokeInputModeler, settled: Range<Int>?) -> Box? {
        let count = model.count
        let total = count + model.predictedCount
        let first: Int
        if total == 1, stableSegments.isEmpty {
            first = 0
        } else if total > 1, stableSegments.count < total - 1 {
            first = max(0, stableSegments.count - 1)
        } else {
            tailBoxAge = 0
            return nil
        }
        let last = count - 1
        if let settled, settled.count <= 1, tailBoxAge < Self.tailBoxRefresh, var box = tailBox, last >= 2,
           model.nodes[last].distance == .infinity, model.predictedNodes.isEmpty {
            tailBoxAge += 1
            if let j = settled.first, j >= 1 {
                box.add(model.nodes[j].position, width: model.nodes[j].width, after: model.nodes[j - 1].position)
                box.add(model.nodes[j + 1].position, width: model.nodes[j + 1].width, after: model.nodes[j].position)
            }
            box.add(model.nodes[last].position, width: model.nodes[last].width, after: model.nodes[last - 1].position)
            if let tip = model.builtInTip { box.add(tip.position, width: predictedWidth, after: model.nodes[last].position) }
            return box
        }
        tailBoxAge = 0
        var box = Box(model.nodes[first].position)
        for i in first..<count { box.include(model.nodes[i].position, width: model.nodes[i].width) }
        for k in model.predictedNodes.indices { box.include(model.predictedNodes[k].position, width: predictedWidth) }
        if let tip = model.builtInTip {
            box.include(tip.position, width: predictedWidth)
        }
        return box
    }

    /// The running extent of a chain of nodes: their bounding box, widest width and longest
    /// chord (taxicab length, an upper bound of the Euclidean one).
    private struct Box {
        var minX: Double, minY: Double, maxX: Double, maxY: Double
        var previous: CanvasPoint
        var widest = 0.0, longestChord = 0.0

        init(_ start: CanvasPoint) {
            minX = start.x; maxX = start.x; minY = start.y; maxY = start.y
            previous = start
        }

        /// The box grown by the ink margin: where the segments' ink can be.
        var rect: CanvasRect {
            let margin = longestChord * (4.0 / 3.0) + widest / 2
            return CanvasRect(minX: minX - margin, minY: minY - margin, maxX: maxX + margin, maxY: maxY + margin)
        }

        /// Adds the next node of the chain, at `position` and `width` wide.
        @inline(__always)
        mutating func include(_ position: CanvasPoint, width: Double) {
            let x = position.x, y = position.y
            if x < minX { minX = x }
            if x > maxX { maxX = x }
            if y < minY { minY = y }
            if y > maxY { maxY = y }
            if width > widest { widest = width }
            let chord = abs(x - previous.x) + abs(y - previous.y)
            if chord > longestChord { longestChord = chord }
            previous = position
        }

        /// Adds a node at `position`, `width` wide, and its chord from `point`.
        @inline(__always)
        mutating func add(_ position: CanvasPoint, width: Double, after point: CanvasPoint) {
            previous = point
            include(position, width: width)
        }
    }

    @inline(__always)
    private func dot(_ node: StrokeNode) -> StrokeSegment {
        StrokeSegment(curve: CubicBezier(node.position, node.position, node.position, node.position),
                      startWidth: node.width, endWidth: node.width, startTime: node.time, endTime: node.time)
    }
}
