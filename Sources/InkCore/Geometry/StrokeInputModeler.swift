/// The first half of ``StrokeBuilder``: turns a stroke's raw samples into modeled nodes, the
/// centreline its shape is built from (`StrokeShapeBuilder` is the second half).
///
/// It is where the builder's input is checked, once: ``append(_:)`` refuses a sample with a
/// non-finite or out-of-range value, one older than the last, and any after ``finish()``;
/// ``predict(_:)`` skips predicted samples that are invalid or not later than the last;
/// ``refine(sampleAt:with:)`` ignores an invalid refinement. Past those checks nothing is
/// checked again.
///
/// Then, per sample: samples with the same timestamp merge into one node (their mean position
/// and force); a new node's position is the causal `PenFilter`'s output (the live tip), and
/// settles to its `LocalFit` position once its window is known; each node records the
/// filter's smoothed speed, near the start its distance from the first node along the
/// modeled positions, and its ink width before the end taper (from its force or speed and the
/// start taper), computed again wherever one of those changes. Forces still estimated wait for
/// their refinement; the prediction (the host's predicted samples through a copy of the
/// filter, or the built-in predictor's one node) extends the live end.
///
/// It holds the stroke's one store of nodes (``nodes``: one ``Node`` record each), which the
/// shape builder reads in place: ``append(_:)`` says which nodes settled (``Step``) so the
/// shape builder can follow without scanning, and the shape builder takes the modeler
/// `inout` (by address; a borrowed one would be passed by value, hundreds of bytes copied per
/// call) or, for the volatile tail, a ``Tail`` of the store and the prediction. It writes
/// nothing back but the end taper's widths (``setWidth(_:of:)``). The nodes nothing can still
/// reach are forgotten (``forget(before:)``), so a long stroke keeps a window of them.
struct StrokeInputModeler: Sendable {
    /// The largest settle radius used, whatever the style asks (bounds the work per sample).
    static let maxSettleRadius = 32

    /// A node of the modeled stroke, with its ink width, and what it was made from: the one
    /// record per node both halves of ``StrokeBuilder`` read (the shape builder in place,
    /// through ``nodes``).
    struct Node: Sendable {
        /// Where the node is: the pen filter's output while it is live, the settled fit's
        /// once it is settled.
        fileprivate(set) var position: CanvasPoint
        /// The time the node stands for (its samples' timestamp), seconds.
        fileprivate(set) var time: Double
        /// The pen filter's smoothed speed (pt/s) when the node was filtered.
        fileprivate(set) var speed: Double
        /// The distance along the modeled positions from the first node while that is shorter
        /// than the start taper's length; infinity past it. A live node keeps the distance
        /// it was measured with until it settles (nodes settling before it may move), except
        /// near the start of the stroke, where every live node is measured again.
        fileprivate(set) var distance: Double
        /// The mean force of its samples that have one; `nil` when none has.
        fileprivate(set) var force: Double?
        /// Ink width in canvas points: from its force (or speed) and start taper, computed by
        /// the modeler whenever one of those changes (with the distance, or by
        /// ``StrokeInputModeler/updateWidth(_:)``);
        /// the shape builder's end taper (or a short mark's width) overwrites it once the
        /// stroke is finished (``StrokeInputModeler/setWidth(_:of:)``).
        fileprivate(set) var width: Double

        // What it was made from: the modeler's own.
        /// Sum of the node's sample positions and their number, and their mean (the node's raw
        /// position).
        fileprivate var positionSum: CanvasPoint
        fileprivate var samples: Int
        fileprivate var raw: CanvasPoint
        /// The distance along the raw positions from the first node: the fit's parameter on
        /// unevenly timed windows (see ``settledPosition(_:among:)``).
        fileprivate var rawDistance: Double
        /// Index of its first sample.
        fileprivate var firstSample: Int
        /// The first node of the run of evenly spaced times that ends at this node.
        fileprivate var evenSince: Int
        /// Sum of the forces of its samples that have one, and their number.
        fileprivate var forceSum: Double
        fileprivate var forces: Int

        fileprivate var meanForce: Double? { forces == 0 ? nil : forceSum / Double(forces) }

        /// Sets its distance from the first node and its width (one write of the node).
        @inline(__always)
        fileprivate mutating func set(distance: Double, width: Double) {
            self.distance = distance
            self.width = width
        }

        /// The node as drawn: its position, time, width and force.
        var drawn: StrokeNode { StrokeNode(position: position, time: time, width: width, force: force) }
    }

    /// A predicted node: where the stroke is expected to go, never stored.
    struct PredictedNode: Sendable {
        var position: CanvasPoint
        var time: Double
        var force: Double?
    }

    /// What one appended sample changed.
    struct Step: Sendable {
        /// `true` when the sample made a new node; `false` when it merged into the last one
        /// (the same timestamp).
        var isNewNode: Bool
        /// The nodes that settled (their positions changed).
        var settled: Range<Int>
        /// `true` when the live nodes after `settled` were measured again (near the start of
        /// the stroke: their distances and widths changed).
        var remeasuredLive: Bool
    }

    /// The nodes that may still be read, by node index: the earlier ones are forgotten
    /// once nothing can reach them (they are settled, stable and hold no estimate), so a long
    /// stroke keeps a window of them, not all.
    struct Window: Sendable {
        private var storage: [Node] = []
        /// The node index of `storage[0]`.
        private(set) var base = 0
        /// The number of nodes so far (forgotten ones included; no overflow check: both are
        /// counts of nodes).
        var count: Int { base &+ storage.count }

        /// Node `node` (not forgotten). The offset is taken without an overflow check (a node
        /// index and `base` are far from `Int`'s limits); the array still checks the index, so a
        /// forgotten node (a negative offset) traps as before.
        subscript(node: Int) -> Node {
            _read { yield storage[node &- base] }
            _modify { yield &storage[node &- base] }
        }

        /// The nodes not forgotten, by node index.
        var kept: Range<Int> { base..<count }

        /// How many nodes the buffer has room for.
        var capacity: Int { storage.capacity }

        mutating func append(_ node: Node) { storage.append(node) }

        /// `Σ weights[k] × raw position of node first + k`, read without a bounds check per
        /// node (the window is checked once, so no offset in it can overflow).
        func weightedRawSum(from first: Int, weights: [Double]) -> CanvasPoint {
            precondition(first >= base && first + weights.count <= count)
            return storage.withUnsafeBufferPointer { nodes in
                weights.withUnsafeBufferPointer { w in
                    var x = 0.0, y = 0.0
                    let offset = first - base
                    for k in 0..<w.count {
                        let raw = nodes[offset &+ k].raw
                        x += w[k] * raw.x
                        y += w[k] * raw.y
                    }
                    return CanvasPoint(x: x, y: y)
                }
            }
        }

        /// Makes room for `capacity` nodes (nothing when there is).
        mutating func reserveCapacity(_ capacity: Int) {
            if storage.capacity < capacity { storage.reserveCapacity(capacity) }
        }

        /// Empties the window, back to node 0, keeping its buffer when it holds at most `limit`
        /// nodes (a larger one is released, so a reused modeler's memory stays bounded).
        mutating func recycle(upTo limit: Int) {
            if storage.capacity > limit { storage = [] } else if !storage.isEmpty { storage.removeAll(keepingCapacity: true) }
            base = 0
        }

        /// Whether ``forget(before:)`` would forget the nodes before `node`; `false` for any
        /// earlier node too.
        @inline(__always)
        func mayForget(before node: Int) -> Bool {
            let dead = node - base
            return dead >= 256 && dead >= storage.count / 2
        }

        /// Forgets the nodes before `node` once they are many (at least 256, and half of those
        /// kept), so the moves cost O(1) per node.
        mutating func forget(before node: Int) {
            guard mayForget(before: node) else { return }
            let dead = node - base
            storage.removeFirst(dead)
            base = node
        }
    }

    // What the style says: set by ``adopt(_:)`` (these initial values never last past `init`).
    private var radius = 0
    /// The centred fit's weights on evenly spaced times, for `radius` (empty until adopted).
    private var evenKernel: [Double] = []
    private var noise = 0.0
    /// Distances from the first node are measured up to this length (the start taper's, the
    /// only reader of short distances; see ``measureDistance(_:)``).
    /// The side of the square the samples of a possible dot fit in (the brush's width).
    /// The style whose widths the nodes get (``width(of:distance:)``).
    private var style = StrokeStyle()
    private var filter = PenFilter()
    /// The filter's state before the last sample, to redo the last step when a sample with
    /// the same timestamp arrives.
    private var filterBeforeLast = PenFilter.State()
    private var lastTimestamp = -Double.infinity
    /// The nodes, each with its width: the one store of the stroke's nodes, which the shape
    /// builder reads in place.
    private(set) var nodes = Window()
    /// Nodes before this index have their settled (``LocalFit``) position.
    private(set) var settledCount = 0
    /// The real samples appended so far.
    private(set) var sampleCount = 0
    /// `true` once ``finish()`` was called.
    private(set) var isFinished = false
    /// The box of the samples so far, while it fits in a square as wide as the brush (`nil`
    /// from the first sample outside it on).
    private(set) var dotBox: (minX: Double, minY: Double, maxX: Double, maxY: Double)?
    /// Samples whose force is still an estimate (ascending index), with their current force.
    private var pendingSamples: [(index: Int, force: Double?)] = []
    /// The last shifted window fitted, and its curve.
    private var shiftedWindow: ClosedRange<Int>?
    private var shiftedByTime = false
    private var shiftedCurve: LocalFit.Curve?
    /// The host's predicted samples, as nodes (empty unless the host's prediction stands).
    private(set) var predictedNodes: [PredictedNode] = []
    /// The built-in predictor's node, when it predicts one (only when `predictedNodes` is
    /// empty).
    private(set) var builtInTip: PredictedNode?

    /// Starts an empty stroke modeled as `style` says (its filter, settle radius, sample
    /// noise, prediction horizon, and the brush size and start taper for the measures the
    /// shape reads).
    init(style: StrokeStyle) {
        adopt(style)
        // One allocation for most strokes; longer ones grow by doubling.
        nodes.reserveCapacity(64)
    }

    /// Sets what the modeler takes from `style` (its settle radius and kernel, sample noise,
    /// start taper, brush size, prediction horizon and filter), with the filter at its start:
    /// the one place ``init(style:)`` and ``reset(style:)`` read a style.
    @inline(__always)
    private mutating func adopt(_ style: StrokeStyle) {
        let radius = min(max(0, style.settleRadius), Self.maxSettleRadius)
        if radius != self.radius || evenKernel.isEmpty {
            self.radius = radius
            evenKernel = LocalFit.evenKernels[radius]
        }
        noise = style.sampleNoise.isFinite ? max(0, style.sampleNoise) : 0.5
        self.style = style
        filter = PenFilter(parameters: style.filter)
        filterBeforeLast = filter.state
    }

    /// The most nodes (and pending or predicted samples) whose buffers ``reset(style:)``
    /// keeps; larger ones are released, so a reused modeler holds at most this much.
    static let keptCapacity = 1024

    /// Returns the modeler to the state of `StrokeInputModeler(style: style)`, keeping its
    /// buffers (up to ``keptCapacity``) so the next stroke allocates nothing. Every stored
    /// property is set here as ``init(style:)`` and the declarations set it (a test compares
    /// a reset modeler's every field with a new one's): a property added to the type must be
    /// added here too.
    mutating func reset(style: StrokeStyle) {
        adopt(style)
        lastTimestamp = -Double.infinity
        nodes.recycle(upTo: Self.keptCapacity)
        nodes.reserveCapacity(64)
        settledCount = 0
        sampleCount = 0
        isFinished = false
        dotBox = nil
        Self.empty(&pendingSamples)
        shiftedWindow = nil
        shiftedByTime = false
        shiftedCurve = nil
        Self.empty(&predictedNodes)
        builtInTip = nil
    }

    /// Empties `buffer`, keeping its storage unless it is larger than ``keptCapacity``.
    private static func empty<Element>(_ buffer: inout [Element]) {
        if buffer.capacity > keptCapacity { buffer = [] } else if !buffer.isEmpty { buffer.removeAll(keepingCapacity: true) }
    }

    /// How many nodes the stroke has (forgotten ones included).
    @inline(__always)
    var count: Int { nodes.count }

    /// `true` while every sample so far fits in a square as wide as the brush (and there is
    /// one): the mark may still be a dot.
    @inline(__always)
    var fitsInBrush: Bool { dotBox != nil }

    /// How many predicted nodes follow the real ones: the host's, or the built-in one.
    @inline(__always)
    var predictedCount: Int { Self.predictedCount(predictedNodes, builtInTip) }

    /// How many predicted nodes the host's `predicted` nodes, or else the built-in `tip`, make.
    @inline(__always)
    fileprivate static func predictedCount(_ predicted: [PredictedNode], _ tip: PredictedNode?) -> Int {
        predicted.isEmpty ? (tip == nil ? 0 : 1) : predicted.count
    }

    /// What the volatile tail is built from: the nodes and the prediction (a few words, passed
    /// by value where the modeler itself, hundreds of bytes, would be copied).
    struct Tail {
        let nodes: Window
        let predictedNodes: [PredictedNode]
        let builtInTip: PredictedNode?

        /// How many predicted nodes follow the real ones.
        @inline(__always)
        var predictedCount: Int { StrokeInputModeler.predictedCount(predictedNodes, builtInTip) }

        /// Predicted node `k` (0 is the first after the real ones), `k < predictedCount`.
        @inline(__always)
        func predicted(_ k: Int) -> PredictedNode { predictedNodes.isEmpty ? builtInTip! : predictedNodes[k] }
    }

    /// The nodes and the prediction, for the volatile tail.
    @inline(__always)
    var tail: Tail { Tail(nodes: nodes, predictedNodes: predictedNodes, builtInTip: builtInTip) }

    /// Sets node `i`'s width (the shape builder's end taper, or a short mark's width).
    @inline(__always)
    mutating func setWidth(_ width: Double, of i: Int) { nodes[i].width = width }

    /// The first node holding a sample whose force is still an estimate; `Int.max` when none.
    @inline(__always)
    var firstPendingNode: Int {
        guard let first = pendingSamples.first else { return Int.max }
        return nodeIndex(ofSample: first.index)
    }

    // MARK: - Input

    /// Checks a real sample and adds it at the end of the stroke.
    /// - Throws: ``StrokeInputError``; nothing changes then.
    @inline(__always)
    mutating func append(_ sample: TouchSample) throws(StrokeInputError) -> Step {
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
        if last >= 0, nodes[last].time == sample.timestamp {
            // Same instant as the previous node: merge (the mean of its samples), redoing the
            // filter step from the state before it.
            nodes[last].positionSum = nodes[last].positionSum + sample.point
            nodes[last].samples += 1
            if let force = sample.force { nodes[last].forceSum += force; nodes[last].forces += 1 }
            let raw = nodes[last].positionSum / Double(nodes[last].samples)
            nodes[last].raw = raw
            nodes[last].rawDistance = last == 0 ? 0 : nodes[last - 1].rawDistance + raw.distance(to: nodes[last - 1].raw)
            filter.state = filterBeforeLast
            nodes[last].position = filter.filter(nodes[last].raw, at: sample.timestamp)
            nodes[last].force = nodes[last].meanForce
            nodes[last].speed = filter.smoothedSpeed
            // Its force and speed changed: its width too, with its distance or alone.
            if !measureDistance(last) { updateWidth(last) }
            builtInPrediction()
            return Step(isNewNode: false, settled: settledCount..<settledCount, remeasuredLive: false)
        }
        filterBeforeLast = filter.state
        let filtered = filter.filter(sample.point, at: sample.timestamp)
        let rawDistance = last < 0 ? 0 : nodes[last].rawDistance + sample.point.distance(to: nodes[last].raw)
        // Its distance and width as ``measureDistance(_:)`` measures them, given as it is made:
        // the node is written once.
        let distance = distance(at: filtered, after: last)
        let speed = filter.smoothedSpeed
        nodes.append(Node(position: filtered, time: sample.timestamp, speed: speed, distance: distance,
                          force: sample.force, width: width(force: sample.force, speed: speed, distance: distance),
                          positionSum: sample.point, samples: 1, raw: sample.point,
                          rawDistance: rawDistance, firstSample: index, evenSince: evenSince(sample.timestamp),
                          forceSum: sample.force ?? 0, forces: sample.force == nil ? 0 : 1))
        let firstSettled = settledCount
        let remeasuredLive = settleLive()
        builtInPrediction()
        return Step(isNewNode: true, settled: firstSettled..<settledCount, remeasuredLive: remeasuredLive)
    }

    /// Replaces the prediction with the host's predicted samples, run through a copy of the
    /// filter; those that are invalid or not later than the node before them are skipped. An
    /// empty list (or one with nothing usable) falls back to the built-in predictor. Returns
    /// `false`, changing nothing, when the stroke is finished or has no node.
    mutating func predict(_ predicted: [TouchSample]) -> Bool {
        guard !isFinished, nodes.count > 0 else { return false }
        predictedNodes.removeAll(keepingCapacity: true)
        builtInTip = nil
        var extrapolation = filter
        var lastTime = nodes[nodes.count - 1].time
        for sample in predicted where sample.isValid && sample.timestamp > lastTime {
            predictedNodes.append(PredictedNode(position: extrapolation.filter(sample.point, at: sample.timestamp),
                                                time: sample.timestamp, force: sample.force))
            lastTime = sample.timestamp
        }
        if predictedNodes.isEmpty { builtInPrediction() }
        return true
    }

    /// Applies a refined value (an estimated-property update) to the sample at `index`, if it
    /// still waits for one and the refinement is valid. Returns the node whose force changed,
    /// `nil` when nothing changed.
    mutating func refine(sampleAt index: Int, with refined: TouchSample) -> Int? {
        guard let p = pendingSamples.firstIndex(where: { $0.index == index }), refined.isValid else { return nil }
        let node = nodeIndex(ofSample: index)
        if let old = pendingSamples[p].force { nodes[node].forceSum -= old; nodes[node].forces -= 1 }
        if let new = refined.force { nodes[node].forceSum += new; nodes[node].forces += 1 }
        if nodes[node].forces == 0 { nodes[node].forceSum = 0 }
        pendingSamples[p].force = refined.force
        if refined.estimationUpdateIndex == nil { pendingSamples.remove(at: p) }
        nodes[node].force = nodes[node].meanForce
        updateWidth(node)
        return node
    }

    /// Finishes the stroke: the remaining nodes settle (the ends fitted like the rest) and the
    /// prediction is dropped. The nodes whose positions or distances may change (the last one
    /// settled before, whose distance is measured again, and those after it) get their widths
    /// again.
    mutating func finish() {
        isFinished = true
        predictedNodes.removeAll()
        builtInTip = nil
        let firstChanged = max(0, settledCount - 1)
        for j in settledCount..<nodes.count { nodes[j].position = settledPosition(j, among: nodes.count) }
        settledCount = nodes.count
        for j in firstChanged..<nodes.count {
            // A node whose distance stays infinite keeps its width (its force and speed are
            // unchanged too).
            measureDistance(j)
        }
    }

    /// Stops waiting for estimated-property updates: their samples keep the estimated values.
    /// Returns `false` when none was waiting.
    mutating func settleEstimates() -> Bool {
        guard !pendingSamples.isEmpty else { return false }
        pendingSamples.removeAll()
        return true
    }

    /// Forgets the nodes that nothing can still read: before `node` (the first the
    /// caller may still read), and before what a settle window or an estimate can still read.
    @inline(__always)
    mutating func forget(before node: Int) {
        // The first node kept is at most `node`: while the window would not forget even that
        // many, it forgets nothing (and the other bounds need not be found).
        guard nodes.mayForget(before: node) else { return }
        nodes.forget(before: min(firstPendingNode, max(0, settledCount - 2 * radius - 2), node))
    }

    // MARK: - Internals

    @inline(__always)
    private func nodeIndex(ofSample index: Int) -> Int {
        // The last node whose first sample is at or before `index`.
        var low = nodes.base, high = nodes.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if nodes[mid].firstSample <= index { low = mid } else { high = mid - 1 }
        }
        return low
    }

    /// Where the run of evenly spaced times ending at a new node at `time` starts: steps
    /// within 0.1 % of each other count as even (a step error that moves a fitted point by
    /// well under 0.01 pt at handwriting speeds).
    @inline(__always)
    private func evenSince(_ time: Double) -> Int {
        let count = nodes.count
        guard count >= 2 else { return 0 }
        let step = time - nodes[count - 1].time, previous = nodes[count - 1].time - nodes[count - 2].time
        return abs(step - previous) <= 1e-3 * previous ? nodes[count - 1].evenSince : count - 1
    }

    /// Node `j`'s settled position, from its window among the first `count` nodes. On
    /// evenly timed windows the fit's parameter is the time (a centred window then uses the
    /// fixed kernel); on uneven ones it is the distance along the raw samples, so devices that
    /// deliver samples in bunches or with jittery timestamps do not bend the shape. A shifted
    /// window's curve (at the ends) is fitted once for all of its nodes.
    private mutating func settledPosition(_ j: Int, among count: Int) -> CanvasPoint {
        guard radius > 0 else { return nodes[j].position }
        let window = LocalFit.window(of: j, radius: radius, count: count)
        let even = nodes[window.upperBound].evenSince <= window.lowerBound
        if j - window.lowerBound == radius, window.count == evenKernel.count {
            if even { return nodes.weightedRawSum(from: window.lowerBound, weights: evenKernel) }
            return LocalFit.centredParabola(window, center: j, FitSource(nodes: nodes, byTime: false)) ?? nodes[j].raw
        }
        if shiftedWindow != window {
            shiftedWindow = window
            shiftedByTime = even
            shiftedCurve = LocalFit.Curve(fitting: window, FitSource(nodes: nodes, byTime: even), noise: noise)
        }
        return shiftedCurve?.position(at: shiftedByTime ? nodes[j].time : nodes[j].rawDistance) ?? nodes[j].raw
    }

    /// The nodes' raw positions, each at its time or its raw distance.
    private struct FitSource: LocalFit.Source {
        let nodes: Window
        let byTime: Bool
        func point(_ i: Int) -> CanvasPoint { nodes[i].raw }
        func parameter(_ i: Int) -> Double { byTime ? nodes[i].time : nodes[i].rawDistance }
    }

    /// Measures node `i`'s distance from the first node, while the node before it is nearer
    /// than the start taper's length; past that it is infinite (written only when it was not: reading
    /// is cheaper than writing). A distance written comes with the node's width (in one write
    /// of the node). Returns `false` when the distance was infinite and stays so (its width
    /// is then unchanged).
    @inline(__always) @discardableResult
    private mutating func measureDistance(_ i: Int) -> Bool {
        let distance = distance(at: nodes[i].position, after: i - 1)
        if distance == .infinity, nodes[i].distance == .infinity { return false }
        let width = width(of: i, distance: distance)
        nodes[i].set(distance: distance, width: width)
        return true
    }

    /// The distance from the first node of a node at `position` following node `previous`
    /// (`-1`: it is the first node): along the modeled positions while the node before it is
    /// nearer than the start taper's length (the only reader of short distances), infinite
    /// past that. The one place a distance is measured.
    @inline(__always)
    private func distance(at position: CanvasPoint, after previous: Int) -> Double {
        let before = previous < 0 ? 0 : nodes[previous].distance
        guard before < style.startTaper else { return .infinity }
        return previous < 0 ? 0 : before + position.distance(to: nodes[previous].position)
    }

    /// Settles every node whose window is complete without the last node (which may still
    /// merge with a sample of the same timestamp): one node per sample in steady state. A
    /// node whose distance it measured again gets its width again. Returns whether it also
    /// measured the live nodes again (near the start of the stroke), with their widths.
    private mutating func settleLive() -> Bool {
        let firstSettled = settledCount
        let available = nodes.count - 1
        while settledCount < available, LocalFit.completeWindowEnd(of: settledCount, radius: radius) < available {
            let j = settledCount
            nodes[j].position = settledPosition(j, among: available)
            settledCount += 1
            measureDistance(j)
        }
        // Live nodes after them measured their distance from old positions. Only the start
        // taper reads that before the stroke finishes (which measures them all again).
        if settledCount > firstSettled, nodes[settledCount - 1].distance < style.startTaper {
            for k in settledCount..<nodes.count { measureDistance(k) }
            return true
        }
        return false
    }

    /// Gives node `i` its width again, for its distance as it is (after its force or speed
    /// changed).
    @inline(__always)
    private mutating func updateWidth(_ i: Int) {
        let width = width(of: i, distance: nodes[i].distance)
        nodes[i].width = width
    }

    /// Node `i`'s width before the end taper at `distance` from the first node: from its
    /// force (or speed), narrowed by the start taper.
    @inline(__always)
    private func width(of i: Int, distance: Double) -> Double {
        width(force: nodes[i].force, speed: nodes[i].speed, distance: distance)
    }

    /// The width before the end taper of a node with `force` (or `speed`) at `distance` from
    /// the first node.
    @inline(__always)
    private func width(force: Double?, speed: Double, distance: Double) -> Double {
        style.widthBeforeEndTaper(force: force, speed: speed, distance: distance)
    }

    /// Replaces the prediction with the built-in predictor's node (none when the filter
    /// expects no movement). Drops the host's predictions.
    private mutating func builtInPrediction() {
        if !predictedNodes.isEmpty { predictedNodes.removeAll(keepingCapacity: true) }
        guard style.predictionHorizon > 0, nodes.count >= 2, let point = filter.predicted(after: style.predictionHorizon),
              point.distance(to: nodes[nodes.count - 1].position) > 1e-6 else {
            builtInTip = nil
            return
        }
        let last = nodes.count - 1
        builtInTip = PredictedNode(position: point, time: nodes[last].time + style.predictionHorizon, force: nodes[last].force)
    }
}
