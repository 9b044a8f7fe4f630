/// How a stroke's geometry is made from its samples. Lengths in canvas points, speeds in
/// points per second, times in seconds.
public struct StrokeStyle: Sendable, Hashable {
    /// Nominal width of the ink: the width at full force, or at rest without force.
    public var size: Double
    /// The thinnest the ink gets, as a fraction of ``size`` (at zero force, or at
    /// ``speedForThinnest`` without force).
    public var minWidthRatio: Double
    /// Without force: how much speed thins the ink, 0 (not at all) ... 1.
    public var thinning: Double
    /// Without force: the speed at which thinning is complete.
    public var speedForThinnest: Double
    /// Length over which the ink widens from its start.
    public var startTaper: Double
    /// Length over which the ink narrows to its end, applied when the stroke finishes.
    public var endTaper: Double
    /// The narrowest a taper makes the ink, as a fraction of the untapered width. Never 0,
    /// so the ends of a stroke, and a dot, stay visible.
    public var minTaperRatio: Double
    /// The causal filter that draws the live tip of the stroke (tooling: `ink-replay smooth`
    /// and the quality harness tune it; an app keeps the default).
    package var filter: PenFilter.Parameters
    /// How many neighbours on each side the lag-free settled fit uses once they are known
    /// (a node settles `settleRadius` samples after it was drawn); 0 keeps the causal
    /// filter's output.
    public var settleRadius: Int
    /// The expected noise of a sample's position (standard deviation, canvas points). The
    /// settled fit weighs it against the shape of the ends of a stroke, and of strokes too
    /// short for a centred window (`docs/geometry.md`): more noise, plainer fits. The default
    /// is the jitter of the shared ink-quality harness's 240 Hz pen input.
    public var sampleNoise: Double
    /// How far ahead the built-in predictor extends the tentative tail, when the host
    /// supplies no predicted samples (one 60 Hz frame by default); 0 disables it.
    public var predictionHorizon: Double

    /// The default style: a 3-point pencil line.
    public init(
        size: Double = 3, minWidthRatio: Double = 0.4, thinning: Double = 0.45, speedForThinnest: Double = 1_200,
        startTaper: Double = 4, endTaper: Double = 6, minTaperRatio: Double = 0.5,
        settleRadius: Int = 4, sampleNoise: Double = 0.5, predictionHorizon: Double = 1.0 / 60
    ) {
        self.init(size: size, minWidthRatio: minWidthRatio, thinning: thinning, speedForThinnest: speedForThinnest,
                  startTaper: startTaper, endTaper: endTaper, minTaperRatio: minTaperRatio, filter: .handwriting,
                  settleRadius: settleRadius, sampleNoise: sampleNoise, predictionHorizon: predictionHorizon)
    }

    /// A style with its own live-tip filter (tooling).
    package init(
        size: Double = 3, minWidthRatio: Double = 0.4, thinning: Double = 0.45, speedForThinnest: Double = 1_200,
        startTaper: Double = 4, endTaper: Double = 6, minTaperRatio: Double = 0.5,
        filter: PenFilter.Parameters, settleRadius: Int = 4, sampleNoise: Double = 0.5,
        predictionHorizon: Double = 1.0 / 60
    ) {
        self.size = size
        self.minWidthRatio = minWidthRatio
        self.thinning = thinning
        self.speedForThinnest = speedForThinnest
        self.startTaper = startTaper
        self.endTaper = endTaper
        self.minTaperRatio = minTaperRatio
        self.filter = filter
        self.settleRadius = max(0, settleRadius)
        self.sampleNoise = sampleNoise.isFinite ? max(0, sampleNoise) : 0.5
        self.predictionHorizon = predictionHorizon
    }

    /// Width before tapers, from force when the sample has one, else from speed.
    func baseWidth(force: Double?, speed: Double) -> Double {
        if let force {
            return size * (minWidthRatio + (1 - minWidthRatio) * min(max(force, 0), 1))
        }
        let thin = thinning * min(speed / speedForThinnest, 1)
        return size * max(1 - thin, minWidthRatio)
    }

    /// Width before the end taper of a node with `force` (or `speed`) at `distance` along the
    /// stroke from its first node (infinity far from it): ``baseWidth(force:speed:)`` narrowed by
    /// the start taper. The one place the start taper is applied.
    @inline(__always)
    func widthBeforeEndTaper(force: Double?, speed: Double, distance: Double) -> Double {
        let base = baseWidth(force: force, speed: speed)
        return distance == .infinity ? base : base * (distance >= startTaper ? 1 : taper(distance, over: startTaper))
    }

    /// The taper factor at `distance` from a stroke end with taper length `length`.
    func taper(_ distance: Double, over length: Double) -> Double {
        guard length > 0 else { return 1 }
        let u = min(max(distance / length, 0), 1)
        let smooth = u * u * (3 - 2 * u)
        return minTaperRatio + (1 - minTaperRatio) * smooth
    }
}
