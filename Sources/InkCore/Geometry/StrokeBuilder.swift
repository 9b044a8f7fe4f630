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
/// ```swift
/// var stroke = StrokeBuilder()
/// for sample in samples { _ = try stroke.append(sample) }   // draw stable + volatile
/// _ = stroke.finish()                                        // everything is stable now
/// let svgPath = StrokeOutline.svgPathData(stroke.stableSegments)
/// ```
public struct StrokeBuilder: Sendable {
    /// The style the stroke is made with.
    public let style: StrokeStyle
    /// Conditioned centreline points, one per distinct sample timestamp.
    package private(set) var nodes: [StrokeNode] = []
    /// Segments that will never change again, in drawing order.
    public private(set) var stableSegments: [StrokeSegment] = []
    /// `true` once `finish()` was called.
    public private(set) var isFinished = false
    /// Whether the finished stroke is a short mark (a dot; see the type's notes), decided
    /// once by `finish()`.
    private var isShortMark = false
    /// The box of the samples so far, while it fits in a square as wide as the brush (`nil`
    /// from the first sample outside it on).
    private var dotBox: (minX: Double, minY: Double, maxX: Double, maxY: Double)?
    /// The real samples appended so far.
    public private(set) var sampleCount = 0

    /// How many of the last nodes an end taper may narrow, and so stay volatile.
    public static let maxTaperNodes = 6
    /// A mark of at most this many samples is drawn at least as wide as the brush, without
    /// tapers.
    public static let dotSampleLimit = 4
    /// How many nodes a live mark within the brush may have and keep every segment
    /// volatile, so that it can still become a dot when it finishes (about a second at
    /// 240 Hz). A longer one is drawn as a stroke, with tapers.
    public static let dotHoldLimit = 256
    /// The largest settle radius used, whatever the style asks (bounds the work per sample).
    public static let maxSettleRadius = 32

    /// What each node was made from.
    private struct NodeInput: Sendable {
        /// Sum of the node's sample positions and their number, and their mean (the node's
        /// raw position).
        var positionSum: CanvasPoint
        var samples: Int
        var raw: CanvasPoint
        /// The node's time, and the distance along the raw positions from the first node:
        /// the fit's parameters (see ``settledPosition(_:among:)``).
        var time: Double
        var rawDistance: Double
        /// Index of its first sample.
        var firstSample: Int
        /// The first node of the run of evenly spaced times that ends at this node.
        var evenSince: Int
        /// Sum of the forces of its samples that have one, and their number.
        var forceSum: Double
        var forces: Int
        /// Smoothed speed (pt/s) when it was filtered, untapered width, start-taper factor,
        /// and distance along the centreline from the first node.
        var speed: Double
        var baseWidth: Double
        var startTaper: Double
        var distance: Double

        var force: Double? { forces == 0 ? nil : forceSum / Double(forces) }
    }

    /// The inputs of the nodes that may still be read, by node index: the earlier ones are
    /// forgotten once nothing can reach them (they are settled, stable and hold no estimate),
    /// so a long stroke keeps a window of them, not all.
    private struct NodeInputs {
        private var storage: [NodeInput] = []
        /// The node index of `storage[0]`.
        private(set) var base = 0
        /// The number of nodes so far (forgotten ones included).
        var count: Int { base + storage.count }

        subscript(node: Int) -> NodeInput {
            _read { yield storage[node - base] }
            _modify { yield &storage[node - base] }
        }

        mutating func append(_ input: NodeInput) { storage.append(input) }

        /// `Σ weights[k] × raw position of node first + k`, read without a bounds check per
        /// node (the window is checked once).
        func weightedRawSum(from first: Int, weights: [Double]) -> CanvasPoint {
            precondition(first >= base && first + weights.count <= count)
            return storage.withUnsafeBufferPointer { nodes in
                weights.withUnsafeBufferPointer { w in
                    var x = 0.0, y = 0.0
                    let offset = first - base
                    for k in 0..<w.count {
                        let raw = nodes[offset + k].raw
                        x += w[k] * raw.x
                        y += w[k] * raw.y
                    }
                    return CanvasPoint(x: x, y: y)
                }
            }
        }

        mutating func reserveCapacity(_ capacity: Int) { storage.reserveCapacity(capacity) }

        /// Forgets the inputs of nodes before `node` once they are many (at least 256, and half
        /// of those kept), so the moves cost O(1) per node.
        mutating func forget(before node: Int) {
            let dead = node - base
            guard dead >= 256, dead >= storage.count / 2 else { return }
            storage.removeFirst(dead)
            base = node
        }
    }

    private let radius: Int
    /// The centred fit's weights on evenly spaced times, for `radius`.
    private let evenKernel: [Double]
    private let noise: Double
    /// Distances from the first node are measured up to this length (the start taper's; see
    /// ``updateDistanceAndWidth(_:)``).
    private let nearLimit: Double
    private var filter: PenFilter
    /// The filter's state before the last sample, to redo the last step when a sample with
    /// the same timestamp arrives.
    private var filterBeforeLast: PenFilter.State
    private var lastTimestamp = -Double.infinity
    private var inputs = NodeInputs()
    /// Nodes before this index have their settled (``LocalFit``) position.
    private var settledNodes = 0
    /// Samples whose force is still an estimate (ascending index), with their current force.
    private var pendingSamples: [(index: Int, force: Double?)] = []
    /// The last shifted window fitted, and its curve.
    private var shiftedWindow: ClosedRange<Int>?
    private var shiftedByTime = false
    private var shiftedCurve: LocalFit.Curve?
    /// The host's predicted samples, as nodes (when `hostPrediction`), or the built-in
    /// predictor's one node.
    private var predictedNodes: [StrokeNode] = []
    private var hostPrediction = false
    private var builtInTip: StrokeNode?
    /// How many predicted nodes follow the real ones.
    private var predictedCount: Int { hostPrediction ? predictedNodes.count : (builtInTip == nil ? 0 : 1) }
    /// What the last update reported as the tail's area, and the box it came from (see
    /// ``tailBounds(settled:)``).
    private var volatileBounds: CanvasRect?
    private var tailBox: Box?
    /// Updates since `tailBox` was last measured exactly.
    private var tailBoxAge = 0
    /// How many updates may grow `tailBox` before it is measured again.
    private static let tailBoxRefresh = 8
    /// The knots of the last stable segment built between four real nodes, which the next
    /// one shares (see ``stableSegment(_:)``).
    private var lastKnots: (segment: Int, knots: CatmullRom.Knots)?

    /// Starts an empty stroke.
    @_spi(Tooling) public init(style: StrokeStyle = StrokeStyle()) {
        self.style = style
        radius = min(max(0, style.settleRadius), Self.maxSettleRadius)
        evenKernel = LocalFit.evenKernels[radius]
        noise = style.sampleNoise.isFinite ? max(0, style.sampleNoise) : 0.5
        nearLimit = style.startTaper
        filter = PenFilter(parameters: style.filter)
        filterBeforeLast = filter.state
        // One allocation each for most strokes; longer ones grow by doubling.
        nodes.reserveCapacity(64)
        inputs.reserveCapacity(64)
        stableSegments.reserveCapacity(64)
    }

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
        let total = nodes.count + predictedCount
        if total == 1, stableSegments.isEmpty {
            segments.append(dot(nodes[0]))
        } else if total > 1, stableSegments.count < total - 1 {
            for i in stableSegments.count..<(total - 1) { segments.append(segment(i, count: total)) }
        }
    }

    /// All segments to draw now: the stable ones, then the volatile tail.
    public var allSegments: [StrokeSegment] {
        var all = stableSegments
        appendVolatileSegments(to: &all)
        return all
    }

    // MARK: - Input

    /// Adds a real sample at the end of the stroke.
    /// - Throws: `StrokeInputError`; nothing changes then.
    @_spi(Tooling) public mutating func append(_ sample: TouchSample) throws(StrokeInputError) -> StrokeUpdate {
        guard !isFinished else { throw .finished }
        guard sample.isValid else { throw .nonFinite(sample) }
        guard sample.timestamp >= lastTimestamp else {
            throw .timestampWentBackwards(previous: lastTimestamp, got: sample.timestamp)
        }
        lastTimestamp = sample.timestamp
        let index = sampleCount
        sampleCount += 1
        if index == 0 {
            dotBox = (sample.point.x, sample.point.y, sample.point.x, sample.point.y)
        } else if let box = dotBox {
            let grown = (minX: min(box.minX, sample.point.x), minY: min(box.minY, sample.point.y),
                         maxX: max(box.maxX, sample.point.x), maxY: max(box.maxY, sample.point.y))
            dotBox = grown.maxX - grown.minX <= style.size && grown.maxY - grown.minY <= style.size ? grown : nil
        }
        if sample.estimationUpdateIndex != nil { pendingSamples.append((index, sample.force)) }
        let last = nodes.count - 1
        if last >= 0, inputs[last].time == sample.timestamp {
            // Same instant as the previous node: merge (the mean of its samples), redoing the
            // filter step from the state before it.
            inputs[last].positionSum = inputs[last].positionSum + sample.point
            inputs[last].samples += 1
            if let force = sample.force { inputs[last].forceSum += force; inputs[last].forces += 1 }
            let raw = inputs[last].positionSum / Double(inputs[last].samples)
            inputs[last].raw = raw
            inputs[last].rawDistance = last == 0 ? 0 : inputs[last - 1].rawDistance + raw.distance(to: inputs[last - 1].raw)
            filter.state = filterBeforeLast
            nodes[last].position = filter.filter(inputs[last].raw, at: sample.timestamp)
            nodes[last].force = inputs[last].force
            updateLiveNode(last)
        } else {
            filterBeforeLast = filter.state
            let filtered = filter.filter(sample.point, at: sample.timestamp)
            let rawDistance = last < 0 ? 0 : inputs[last].rawDistance + sample.point.distance(to: inputs[last].raw)
            inputs.append(NodeInput(positionSum: sample.point, samples: 1, raw: sample.point, time: sample.timestamp,
                                    rawDistance: rawDistance, firstSample: index, evenSince: evenSince(sample.timestamp),
                                    forceSum: sample.force ?? 0, forces: sample.force == nil ? 0 : 1,
                                    speed: 0, baseWidth: 0, startTaper: 1, distance: 0))
            nodes.append(StrokeNode(position: filtered, time: sample.timestamp, width: 0, force: sample.force))
            updateLiveNode(nodes.count - 1)
            let settled = settleLive()
            builtInPrediction()
            let update = update(settled: settled)
            if !stableSegments.isEmpty {
                // What a settle window, a taper or an estimate can still read.
                inputs.forget(before: min(firstPendingNode, max(0, settledNodes - 2 * radius - 2), stableSegments.count - 1))
            }
            return update
        }
        hostPrediction = false
        builtInPrediction()
        return update()
    }

    /// Replaces the tentative tail's predicted samples (the platform's prediction). An
    /// empty list falls back to the built-in predictor. Predictions are never stored.
    @_spi(Tooling) public mutating func predict(_ predicted: [TouchSample]) -> StrokeUpdate {
        guard !isFinished, let last = nodes.last else { return .none }
        predictedNodes.removeAll(keepingCapacity: true)
        builtInTip = nil
        var extrapolation = filter
        for sample in predicted where sample.isValid && sample.timestamp > (predictedNodes.last?.time ?? last.time) {
            predictedNodes.append(StrokeNode(position: extrapolation.filter(sample.point, at: sample.timestamp),
                                             time: sample.timestamp, width: last.width, force: sample.force))
        }
        hostPrediction = !predictedNodes.isEmpty
        if !hostPrediction { builtInPrediction() }
        return update()
    }

    /// Applies a refined value (an estimated-property update) to the sample at `index`
    /// (0-based among the appended samples) and recomputes its node's width. Only samples
    /// that still carry an ``TouchSample/estimationUpdateIndex`` can be refined: the
    /// segments around them stay volatile until then (also after ``finish()``), so the
    /// stable prefix never changes. Other calls change nothing.
    @_spi(Tooling) public mutating func refine(sampleAt index: Int, with refined: TouchSample) -> StrokeUpdate {
        guard let p = pendingSamples.firstIndex(where: { $0.index == index }), refined.isValid else { return .none }
        let node = nodeIndex(ofSample: index)
        if let old = pendingSamples[p].force { inputs[node].forceSum -= old; inputs[node].forces -= 1 }
        if let new = refined.force { inputs[node].forceSum += new; inputs[node].forces += 1 }
        if inputs[node].forces == 0 { inputs[node].forceSum = 0 }
        pendingSamples[p].force = refined.force
        if refined.estimationUpdateIndex == nil { pendingSamples.remove(at: p) }
        nodes[node].force = inputs[node].force
        updateBaseWidth(node)
        nodes[node].width = inputs[node].baseWidth * inputs[node].startTaper
        if isFinished { applyEndTaper() }
        return update()
    }

    /// Finishes the stroke: the remaining nodes settle (the ends fitted like the rest), the
    /// end taper is applied (a short mark is at least as wide as the brush instead; see the
    /// type's notes), the prediction
    /// is dropped, and every segment becomes stable (except around samples still waiting for
    /// an estimated-property update; see ``settleEstimates()``). Finishing twice changes
    /// nothing.
    @_spi(Tooling) public mutating func finish() -> StrokeUpdate {
        guard !isFinished else { return .none }
        isFinished = true
        predictedNodes.removeAll()
        hostPrediction = false
        builtInTip = nil
        let firstChanged = max(0, settledNodes - 1)
        for j in settledNodes..<nodes.count { nodes[j].position = settledPosition(j, among: nodes.count) }
        settledNodes = nodes.count
        for j in firstChanged..<nodes.count { updateDistanceAndWidth(j) }
        // Segments already stable never change, so only a mark with none can be a dot.
        isShortMark = stableSegments.isEmpty && (sampleCount <= Self.dotSampleLimit || dotBox != nil)
        applyEndTaper()
        return update()
    }

    /// Stops waiting for estimated-property updates: their samples keep the estimated
    /// values and the rest of a finished stroke becomes stable.
    @_spi(Tooling) public mutating func settleEstimates() -> StrokeUpdate {
        guard !pendingSamples.isEmpty else { return .none }
        pendingSamples.removeAll()
        return update()
    }

    // MARK: - Internals

    @inline(__always)
    private func nodeIndex(ofSample index: Int) -> Int {
        // The last node whose first sample is at or before `index`.
        var low = inputs.base, high = inputs.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if inputs[mid].firstSample <= index { low = mid } else { high = mid - 1 }
        }
        return low
    }

    /// Where the run of evenly spaced times ending at a new node at `time` starts: steps
    /// within 0.1 % of each other count as even (a step error that moves a fitted point by
    /// well under 0.01 pt at handwriting speeds).
    @inline(__always)
    private func evenSince(_ time: Double) -> Int {
        let count = inputs.count
        guard count >= 2 else { return 0 }
        let step = time - inputs[count - 1].time, previous = inputs[count - 1].time - inputs[count - 2].time
        return abs(step - previous) <= 1e-3 * previous ? inputs[count - 1].evenSince : count - 1
    }

    /// Node `j`'s settled position, from its window among the first `count` nodes. On
    /// evenly timed windows the fit's parameter is the time (a centred window then uses the
    /// fixed kernel); on uneven ones it is the distance along the raw samples, so devices that
    /// deliver samples in bunches or with jittery timestamps do not bend the shape. A shifted
    /// window's curve (at the ends) is fitted once for all of its nodes.
    private mutating func settledPosition(_ j: Int, among count: Int) -> CanvasPoint {
        guard radius > 0 else { return nodes[j].position }
        let window = LocalFit.window(of: j, radius: radius, count: count)
        let even = inputs[window.upperBound].evenSince <= window.lowerBound
        if j - window.lowerBound == radius, window.count == evenKernel.count {
            if even { return inputs.weightedRawSum(from: window.lowerBound, weights: evenKernel) }
            return LocalFit.centredParabola(window, center: j, FitSource(inputs: inputs, byTime: false)) ?? inputs[j].raw
        }
        if shiftedWindow != window {
            shiftedWindow = window
            shiftedByTime = even
            shiftedCurve = LocalFit.Curve(fitting: window, FitSource(inputs: inputs, byTime: even), noise: noise)
        }
        return shiftedCurve?.position(at: shiftedByTime ? inputs[j].time : inputs[j].rawDistance) ?? inputs[j].raw
    }

    /// The nodes' raw positions, each at its time or its raw distance.
    private struct FitSource: LocalFit.Source {
        let inputs: NodeInputs
        let byTime: Bool
        func point(_ i: Int) -> CanvasPoint { inputs[i].raw }
        func parameter(_ i: Int) -> Double { byTime ? inputs[i].time : inputs[i].rawDistance }
    }

    /// Node `i`'s width before tapers, from its force and speed.
    @inline(__always)
    private mutating func updateBaseWidth(_ i: Int) {
        inputs[i].baseWidth = style.baseWidth(force: nodes[i].force, speed: inputs[i].speed)
    }

    /// The live node `i` (not settled): speed from the filter, force, widths, distance.
    @inline(__always)
    private mutating func updateLiveNode(_ i: Int) {
        inputs[i].speed = filter.smoothedSpeed
        updateBaseWidth(i)
        updateDistanceAndWidth(i)
    }

    /// Recomputes node `i`'s distance from the first node, its start taper and width. The
    /// distance is measured only while it is short enough to matter (for the start taper,
    /// see ``nearLimit``); past that it is infinite, and the end taper
    /// measures back from the end when the stroke finishes.
    @inline(__always)
    private mutating func updateDistanceAndWidth(_ i: Int) {
        let previous = i == 0 ? 0 : inputs[i - 1].distance
        guard previous < nearLimit else {
            // Far from the start: usually already so (the node was measured live), and
            // reading is cheaper than writing.
            let input = inputs[i]
            if input.distance != .infinity || input.startTaper != 1 {
                inputs[i].distance = .infinity
                inputs[i].startTaper = 1
            }
            if nodes[i].width != input.baseWidth { nodes[i].width = input.baseWidth }
            return
        }
        let distance = i == 0 ? 0 : previous + nodes[i].position.distance(to: nodes[i - 1].position)
        inputs[i].distance = distance
        inputs[i].startTaper = distance >= style.startTaper ? 1 : style.taper(distance, over: style.startTaper)
        nodes[i].width = inputs[i].baseWidth * inputs[i].startTaper
    }

    /// Settles every node whose window is complete without the last node (which may still
    /// merge with a sample of the same timestamp): one node per sample in steady state.
    /// Returns the nodes it settled, or `nil` when it also changed the widths of live nodes
    /// (near the start of the stroke).
    private mutating func settleLive() -> Range<Int>? {
        let firstSettled = settledNodes
        let available = nodes.count - 1
        while settledNodes < available, LocalFit.window(of: settledNodes, radius: radius, count: .max / 2).upperBound < available {
            let j = settledNodes
            nodes[j].position = settledPosition(j, among: available)
            settledNodes += 1
            updateDistanceAndWidth(j)
        }
        // Live nodes after them measured their distance from old positions. Only the start
        // taper reads that before the stroke finishes (which recomputes them all).
        if settledNodes > firstSettled, inputs[settledNodes - 1].distance < style.startTaper {
            for k in settledNodes..<nodes.count { updateDistanceAndWidth(k) }
            return nil
        }
        return firstSettled..<settledNodes
    }

    private mutating func applyEndTaper() {
        guard let last = nodes.indices.last else { return }
        if isShortMark {
            for i in nodes.indices { nodes[i].width = max(inputs[i].baseWidth, style.size) }
            return
        }
        var toEnd = 0.0
        for i in stride(from: last, through: max(0, last - Self.maxTaperNodes + 1), by: -1) {
            if i < last { toEnd += nodes[i].position.distance(to: nodes[i + 1].position) }
            nodes[i].width = inputs[i].baseWidth * inputs[i].startTaper * style.taper(toEnd, over: style.endTaper)
        }
    }

    /// Replaces the prediction with the built-in predictor's node (none when the filter
    /// expects no movement). Drops the host's predictions.
    private mutating func builtInPrediction() {
        if !predictedNodes.isEmpty { predictedNodes.removeAll(keepingCapacity: true) }
        hostPrediction = false
        guard style.predictionHorizon > 0, nodes.count >= 2, let point = filter.predicted(after: style.predictionHorizon),
              point.distance(to: nodes[nodes.count - 1].position) > 1e-6 else {
            builtInTip = nil
            return
        }
        let last = nodes[nodes.count - 1]
        builtInTip = StrokeNode(position: point, time: last.time + style.predictionHorizon, width: last.width, force: last.force)
    }

    /// The first node holding a sample whose force is still an estimate.
    @inline(__always)
    private var firstPendingNode: Int {
        guard let first = pendingSamples.first else { return Int.max }
        return nodeIndex(ofSample: first.index)
    }

    /// Whether segment `i` (from node i to node i+1) can no longer change.
    @inline(__always)
    private func isSettled(segment i: Int, firstPending: Int) -> Bool {
        if isFinished { return i + 1 < firstPending }
        // A mark within the brush may still become a dot (see ``dotHoldLimit``).
        if dotBox != nil, nodes.count <= Self.dotHoldLimit { return false }
        // Live: the segment's curve depends on nodes i-1 ... i+2, which must have settled;
        // the end taper may still narrow the last maxTaperNodes.
        return i + 2 < min(nodes.count - Self.maxTaperNodes - 1, firstPending, settledNodes)
    }

    /// Node `i` of the real nodes followed by the predicted ones.
    @inline(__always)
    private func extendedNode(_ i: Int) -> StrokeNode {
        i < nodes.count ? nodes[i] : (hostPrediction ? predictedNodes[i - nodes.count] : builtInTip!)
    }

    /// The segment from extended node `i` to `i + 1`, among `count` extended nodes.
    @inline(__always)
    private func segment(_ i: Int, count: Int) -> StrokeSegment {
        let a = extendedNode(i), b = extendedNode(i + 1)
        let curve = CatmullRom.segment(i > 0 ? extendedNode(i - 1).position : nil, a.position, b.position,
                                       i + 2 < count ? extendedNode(i + 2).position : nil)
        return StrokeSegment(curve: curve, startWidth: a.width, endWidth: b.width, startTime: a.time, endTime: b.time)
    }

    /// Segment `i` as it becomes stable: ``segment(_:count:)`` of the real nodes. Stable
    /// segments are built in order from settled nodes, which no longer move, so an interior
    /// one takes two of its three knot intervals from the one before it.
    @inline(__always)
    private mutating func stableSegment(_ i: Int) -> StrokeSegment {
        let count = nodes.count
        guard i > 0, i + 2 < count else {
            lastKnots = nil
            return segment(i, count: count)
        }
        let a = nodes[i - 1].position, b = nodes[i], c = nodes[i + 1], d = nodes[i + 2].position
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

    /// Moves newly settled segments to the stable prefix and reports what changed.
    /// - Parameter settled: When the update follows a new sample far from the start of the
    ///   stroke (so no width but the new nodes' changed), the nodes it settled; `nil` when
    ///   anything else may have changed.
    private mutating func update(settled: Range<Int>? = nil) -> StrokeUpdate {
        var changed = volatileBounds
        let stableBefore = stableSegments.count
        let firstPending = firstPendingNode
        if nodes.count == 1 {
            if isFinished, stableSegments.isEmpty, isSettled(segment: -1, firstPending: firstPending) {
                stableSegments.append(dot(nodes[0]))
            }
        } else {
            while stableSegments.count < nodes.count - 1, isSettled(segment: stableSegments.count, firstPending: firstPending) {
                let settled = stableSegment(stableSegments.count)
                stableSegments.append(settled)
            }
        }
        for s in stableBefore..<stableSegments.count { changed = CanvasRect.union(changed, stableSegments[s].bounds) }
        tailBox = tailBounds(settled: settled)
        volatileBounds = tailBox?.rect
        changed = CanvasRect.union(changed, volatileBounds)
        return StrokeUpdate(newlyStable: stableBefore..<stableSegments.count, changedBounds: changed)
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
    private mutating func tailBounds(settled: Range<Int>?) -> Box? {
        let total = nodes.count + predictedCount
        let first: Int
        if total == 1, stableSegments.isEmpty {
            first = 0
        } else if total > 1, stableSegments.count < total - 1 {
            first = max(0, stableSegments.count - 1)
        } else {
            tailBoxAge = 0
            return nil
        }
        let last = nodes.count - 1
        if let settled, settled.count <= 1, tailBoxAge < Self.tailBoxRefresh, var box = tailBox, last >= 2,
           inputs[last].distance == .infinity, !hostPrediction {
            tailBoxAge += 1
            if let j = settled.first, j >= 1 {
                box.add(nodes[j], after: nodes[j - 1].position)
                box.add(nodes[j + 1], after: nodes[j].position)
            }
            box.add(nodes[last], after: nodes[last - 1].position)
            if let tip = builtInTip { box.add(tip, after: nodes[last].position) }
            return box
        }
        tailBoxAge = 0
        return Self.bounds(of: nodes, from: first, then: hostPrediction ? predictedNodes : [], tip: hostPrediction ? nil : builtInTip)
    }

    /// The box of `nodes[first...]` followed by `predicted` and `tip`.
    private static func bounds(of nodes: [StrokeNode], from first: Int, then predicted: [StrokeNode], tip: StrokeNode?) -> Box {
        var box = Box(nodes[first].position)
        for i in first..<nodes.count { box.include(nodes[i]) }
        for node in predicted { box.include(node) }
        if let tip { box.include(tip) }
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

        /// Adds the next node of the chain.
        @inline(__always)
        mutating func include(_ node: StrokeNode) {
            let x = node.position.x, y = node.position.y
            if x < minX { minX = x }
            if x > maxX { maxX = x }
            if y < minY { minY = y }
            if y > maxY { maxY = y }
            if node.width > widest { widest = node.width }
            let chord = abs(x - previous.x) + abs(y - previous.y)
            if chord > longestChord { longestChord = chord }
            previous = node.position
        }

        /// Adds a node and its chord from `point`.
        @inline(__always)
        mutating func add(_ node: StrokeNode, after point: CanvasPoint) {
            previous = point
            include(node)
        }
    }

    @inline(__always)
    private func dot(_ node: StrokeNode) -> StrokeSegment {
        StrokeSegment(curve: CubicBezier(node.position, node.position, node.position, node.position),
                      startWidth: node.width, endWidth: node.width, startTime: node.time, endTime: node.time)
    }
}
