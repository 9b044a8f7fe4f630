/// What one call to ``StrokeBuilder`` changed, so a renderer redraws only that.
public struct StrokeUpdate: Sendable, Hashable {
    /// Indices into ``StrokeBuilder/stableSegments`` that became stable in this update.
    /// Stable segments never change again.
    public var newlyStable: Range<Int>
    /// The area whose drawing changed: the old volatile tail, the new one and the newly
    /// stable segments; `nil` when nothing changed.
    public var changedBounds: CanvasRect?

    /// An update that changed nothing.
    public static let none = StrokeUpdate(newlyStable: 0..<0, changedBounds: nil)
}

/// Builds one stroke's geometry incrementally, sample by sample.
///
/// The pipeline: input conditioning (refusing non-finite samples, merging samples with
/// the same timestamp, smoothing with the causal ``PenFilter`` for the live tip, then with
/// the lag-free ``LocalFit`` once a node's neighbours are known), centripetal Catmull-Rom
/// interpolation into cubic Béziers (``CatmullRom``), widths from force or speed with
/// tapers (``StrokeStyle``), and incremental output: a **stable** prefix of segments that
/// never change again, and a **volatile** tail (the last few segments, which the next
/// samples or the end taper may still reshape, plus the predicted samples) that replaces
/// the previous tail on every update.
///
/// Work per update is bounded by the length of the tail, not of the stroke: a 2,000-sample
/// stroke costs the same per sample as a 20-sample one.
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
    public private(set) var nodes: [StrokeNode] = []
    /// Segments that will never change again, in drawing order.
    public private(set) var stableSegments: [StrokeSegment] = []
    /// The current tentative tail (including any prediction), replaced on every update.
    public private(set) var volatileSegments: [StrokeSegment] = []
    /// `true` once ``finish()`` was called.
    public private(set) var isFinished = false

    /// How many of the last nodes an end taper may narrow, and so stay volatile.
    public static let maxTaperNodes = 6

    private var filter: PenFilter
    /// The filter before the last sample, to redo the last step when a sample with the same
    /// timestamp arrives.
    private var filterBeforeLast: PenFilter
    /// Every real sample, in order.
    private var samples: [TouchSample] = []
    /// For each node, the index of its first sample (its samples run to the next node's).
    private var firstSampleOfNode: [Int] = []
    /// Smoothed speed (pt/s), untapered width and start-taper factor of each node.
    private var speeds: [Double] = []
    private var baseWidths: [Double] = []
    private var startTapers: [Double] = []
    /// Distance along the conditioned centreline from the first node to each node.
    private var distances: [Double] = []
    /// The unfiltered position of each node (the mean of its samples).
    private var rawPositions: [CanvasPoint] = []
    /// Distance along the raw positions from the first node: the parameter of the fit.
    private var rawDistances: [Double] = []
    /// Nodes before this index have their settled (``LocalFit``) position.
    private var settledNodes = 0
    /// Sample indices whose force is still an estimate (ascending).
    private var pendingSamples: [Int] = []
    private var predictedNodes: [StrokeNode] = []
    private var hostPrediction = false
    private var volatileBounds: CanvasRect?

    /// Starts an empty stroke.
    public init(style: StrokeStyle = StrokeStyle()) {
        self.style = style
        self.filter = PenFilter(parameters: style.filter)
        self.filterBeforeLast = filter
        volatileSegments.reserveCapacity(Self.maxTaperNodes + 8)
    }

    /// The real samples appended so far.
    public var sampleCount: Int { samples.count }

    /// All segments to draw now: the stable ones, then the volatile tail.
    public var allSegments: [StrokeSegment] { stableSegments + volatileSegments }

    // MARK: - Input

    /// Adds a real sample at the end of the stroke.
    /// - Throws: ``StrokeInputError``; nothing changes then.
    public mutating func append(_ sample: TouchSample) throws(StrokeInputError) -> StrokeUpdate {
        guard !isFinished else { throw .finished }
        guard sample.isValid else { throw .nonFinite(sample) }
        if let last = samples.last, sample.timestamp < last.timestamp {
            throw .timestampWentBackwards(previous: last.timestamp, got: sample.timestamp)
        }
        samples.append(sample)
        if sample.estimationUpdateIndex != nil { pendingSamples.append(samples.count - 1) }
        if let last = nodes.indices.last, nodes[last].time == sample.timestamp {
            // Same instant as the previous node: merge (the average of its samples), redoing
            // the filter step from the state before it.
            filter = filterBeforeLast
            let merged = firstSampleOfNode[last]..<samples.count
            rawPositions[last] = mean(merged)
            rawDistances[last] = last == 0 ? 0 : rawDistances[last - 1] + rawPositions[last].distance(to: rawPositions[last - 1])
            let filtered = filter.filter(rawPositions[last], at: sample.timestamp)
            setNode(last, position: filtered, speed: filter.smoothedSpeed, force: meanForce(merged))
        } else {
            filterBeforeLast = filter
            let filtered = filter.filter(sample.point, at: sample.timestamp)
            firstSampleOfNode.append(samples.count - 1)
            nodes.append(StrokeNode(position: filtered, time: sample.timestamp, width: 0, force: sample.force))
            speeds.append(0)
            baseWidths.append(0)
            startTapers.append(1)
            distances.append(0)
            rawDistances.append(rawPositions.last.map { rawDistances[rawDistances.count - 1] + sample.point.distance(to: $0) } ?? 0)
            rawPositions.append(sample.point)
            setNode(nodes.count - 1, position: filtered, speed: filter.smoothedSpeed, force: sample.force)
            // A node settles once the node `settleRadius` after it can no longer merge.
            settleNodes(upTo: nodes.count - 1 - style.settleRadius)
        }
        hostPrediction = false
        builtInPrediction()
        return update()
    }

    /// Replaces the tentative tail's predicted samples (the platform's prediction). An
    /// empty list falls back to the built-in predictor. Predictions are never stored.
    public mutating func predict(_ predicted: [TouchSample]) -> StrokeUpdate {
        guard !isFinished, let last = nodes.last else { return .none }
        predictedNodes.removeAll(keepingCapacity: true)
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
    public mutating func refine(sampleAt index: Int, with refined: TouchSample) -> StrokeUpdate {
        guard let p = pendingSamples.firstIndex(of: index), refined.isValid else { return .none }
        samples[index].force = refined.force
        samples[index].altitude = refined.altitude
        samples[index].azimuth = refined.azimuth
        samples[index].estimationUpdateIndex = refined.estimationUpdateIndex
        if refined.estimationUpdateIndex == nil { pendingSamples.remove(at: p) }
        let node = nodeIndex(ofSample: index)
        let end = node + 1 < firstSampleOfNode.count ? firstSampleOfNode[node + 1] : samples.count
        setNode(node, position: nodes[node].position, speed: speeds[node], force: meanForce(firstSampleOfNode[node]..<end))
        if isFinished { applyEndTaper() }
        return update()
    }

    /// Finishes the stroke: the remaining nodes settle (the last one exactly on the last
    /// real sample), the end
    /// taper is applied, a mark smaller than the brush becomes a round dot, the prediction
    /// is dropped, and every segment becomes stable (except around samples still waiting
    /// for an estimated-property update; see ``settleEstimates()``). Finishing twice changes
    /// nothing.
    public mutating func finish() -> StrokeUpdate {
        guard !isFinished else { return .none }
        isFinished = true
        predictedNodes.removeAll()
        settleNodes(upTo: nodes.count)
        if let last = nodes.indices.last {
            // The last node is the pen's last position, whatever the settle radius.
            setNode(last, position: rawPositions[last], speed: speeds[last], force: nodes[last].force)
        }
        applyEndTaper()
        return update()
    }

    /// Stops waiting for estimated-property updates: their samples keep the estimated
    /// values and the rest of a finished stroke becomes stable.
    public mutating func settleEstimates() -> StrokeUpdate {
        guard !pendingSamples.isEmpty else { return .none }
        pendingSamples.removeAll()
        return update()
    }

    // MARK: - Internals

    private func mean(_ range: Range<Int>) -> CanvasPoint {
        var sum = CanvasPoint(x: 0, y: 0)
        for i in range { sum = sum + samples[i].point }
        return sum / Double(range.count)
    }

    private func meanForce(_ range: Range<Int>) -> Double? {
        var sum = 0.0, count = 0
        for i in range { if let f = samples[i].force { sum += f; count += 1 } }
        return count == 0 ? nil : sum / Double(count)
    }

    private func nodeIndex(ofSample index: Int) -> Int {
        // The last node whose first sample is at or before `index`.
        var low = 0, high = firstSampleOfNode.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if firstSampleOfNode[mid] <= index { low = mid } else { high = mid - 1 }
        }
        return low
    }

    /// Sets a node's position, speed and force, and recomputes its distance and widths.
    private mutating func setNode(_ i: Int, position: CanvasPoint, speed: Double, force: Double?) {
        nodes[i].position = position
        nodes[i].force = force
        speeds[i] = speed
        distances[i] = i == 0 ? 0 : distances[i - 1] + position.distance(to: nodes[i - 1].position)
        baseWidths[i] = style.baseWidth(force: force, speed: speed)
        startTapers[i] = style.taper(distances[i], over: style.startTaper)
        nodes[i].width = baseWidths[i] * startTapers[i]
    }

    /// Gives nodes `settledNodes..<end` their settled position, and updates the distances
    /// and tapers of the nodes after them.
    private mutating func settleNodes(upTo end: Int) {
        guard end > settledNodes else { return }
        let first = settledNodes
        for j in first..<end where style.settleRadius > 0 {
            let settled = LocalFit.settledPosition(of: j, radius: style.settleRadius, points: rawPositions,
                                                   parameters: rawDistances, available: 0..<nodes.count)
            nodes[j].position = settled
        }
        settledNodes = end
        for j in first..<nodes.count {
            setNode(j, position: nodes[j].position, speed: speeds[j], force: nodes[j].force)
        }
    }

    private mutating func applyEndTaper() {
        guard let last = nodes.indices.last else { return }
        let total = distances[last]
        if total < style.size {
            // A mark smaller than the brush: a round dot (or dash) of at least 80 % of the
            // nominal width, however light or short, never a speck.
            for i in nodes.indices { nodes[i].width = max(baseWidths[i], style.size * 0.8) }
            return
        }
        for i in max(0, last - Self.maxTaperNodes + 1)...last {
            nodes[i].width = baseWidths[i] * startTapers[i] * style.taper(total - distances[i], over: style.endTaper)
        }
    }

    private mutating func builtInPrediction() {
        predictedNodes.removeAll(keepingCapacity: true)
        guard style.predictionHorizon > 0, nodes.count >= 2,
              let point = filter.predicted(after: style.predictionHorizon) else { return }
        let last = nodes[nodes.count - 1]
        guard point.distance(to: last.position) > 1e-6 else { return }
        predictedNodes.append(StrokeNode(position: point, time: last.time + style.predictionHorizon,
                                         width: last.width, force: last.force))
    }

    /// Whether segment `i` (from node i to node i+1) can no longer change.
    private func isSettled(segment i: Int) -> Bool {
        let firstPending = pendingSamples.first.map(nodeIndex(ofSample:)) ?? Int.max
        if isFinished { return i + 1 < firstPending }
        // Live: the segment's curve depends on nodes i-1 ... i+2, which must have settled;
        // the last node may still merge, and the end taper may still narrow the last
        // maxTaperNodes.
        return i + 2 < min(nodes.count - Self.maxTaperNodes - 1, firstPending, settledNodes)
    }

    /// Node `i` of the real nodes followed by the predicted ones.
    private func extendedNode(_ i: Int) -> StrokeNode {
        i < nodes.count ? nodes[i] : predictedNodes[i - nodes.count]
    }

    /// The segment from extended node `i` to `i + 1`, among `count` extended nodes.
    private func segment(_ i: Int, count: Int) -> StrokeSegment {
        let a = extendedNode(i), b = extendedNode(i + 1)
        let curve = CatmullRom.segment(i > 0 ? extendedNode(i - 1).position : nil, a.position, b.position,
                                       i + 2 < count ? extendedNode(i + 2).position : nil)
        return StrokeSegment(curve: curve, startWidth: a.width, endWidth: b.width, startTime: a.time, endTime: b.time)
    }

    /// Moves newly settled segments to the stable prefix and rebuilds the volatile tail.
    private mutating func update() -> StrokeUpdate {
        var changed = volatileBounds
        let stableBefore = stableSegments.count
        if nodes.count == 1 {
            if isFinished, stableSegments.isEmpty, isSettled(segment: -1) { stableSegments.append(dot(nodes[0])) }
        } else {
            while stableSegments.count < nodes.count - 1, isSettled(segment: stableSegments.count) {
                stableSegments.append(segment(stableSegments.count, count: nodes.count))
            }
        }
        for s in stableBefore..<stableSegments.count { changed = CanvasRect.union(changed, stableSegments[s].bounds) }

        volatileSegments.removeAll(keepingCapacity: true)
        volatileBounds = nil
        let total = nodes.count + predictedNodes.count
        if total == 1, stableSegments.isEmpty {
            volatileSegments.append(dot(nodes[0]))
        } else if total > 1 {
            for i in stableSegments.count..<(total - 1) { volatileSegments.append(segment(i, count: total)) }
        }
        for s in volatileSegments { volatileBounds = CanvasRect.union(volatileBounds, s.bounds) }
        changed = CanvasRect.union(changed, volatileBounds)
        return StrokeUpdate(newlyStable: stableBefore..<stableSegments.count, changedBounds: changed)
    }

    private func dot(_ node: StrokeNode) -> StrokeSegment {
        StrokeSegment(curve: CubicBezier(node.position, node.position, node.position, node.position),
                      startWidth: node.width, endWidth: node.width, startTime: node.time, endTime: node.time)
    }
}
