/// An adaptive filter for pen positions: a critically damped position-and-velocity
/// (α-β) tracker whose cutoff frequency rises with speed and with surprise, in the family
/// of the One Euro filter (Casiez, Roussel and Vogel, CHI 2012).
///
/// A first-order low-pass filter, such as the One Euro filter, smooths jitter by lagging
/// behind the pen: at a steady speed `v` its output trails by `v / (2π f)`. Tuned for
/// handwriting that is a few milliseconds, which a user sees as ink that does not keep up.
/// This filter tracks a velocity as well as a position, so a steady movement is followed
/// without lag, and smooths only what is left over (the innovation: how far a new sample
/// lies from where the filter expected it). Its cutoff is
///
///     f = minCutoff + beta × (smoothed speed) + innovationGain × |smoothed innovation|
///
/// so a slow, careful pen is smoothed strongly, a fast one closely followed, and a sharp
/// turn (a large, persistent innovation) opens the filter at once instead of rounding the
/// corner off. The gains of a critically damped tracker with that cutoff are
/// `g = 1 − θ²` and `h = (1 − θ)²`, with `θ = 1 − α(f)`.
///
/// The first samples of a stroke carry no history: for the `n`-th sample the filter uses at
/// least the gains of a least-squares line through all samples so far
/// (`2(2n − 1) / (n(n + 1))` and `6 / (n(n + 1))`), so the stroke starts on the pen.
///
/// The filter is causal: it draws the live tip of a stroke. ``StrokeBuilder`` replaces its
/// output with a settled least-squares fit once a few later samples are known (see
/// ``StrokeStyle/settleRadius``).
///
/// Units: positions in canvas points, times in seconds, cutoffs in hertz, `beta` in
/// hertz per (point per second), `innovationGain` in hertz per point.
package struct PenFilter: Sendable, Hashable {
    /// The filter's parameters.
    package struct Parameters: Sendable, Hashable {
        /// Cutoff frequency at rest, Hz. Lower smooths more.
        package var minCutoff: Double
        /// How fast the cutoff rises with the smoothed speed, Hz per (pt/s).
        package var beta: Double
        /// How fast the cutoff rises with the smoothed innovation, Hz per pt.
        package var innovationGain: Double
        /// Cutoff of the speed estimate that drives ``beta``, Hz.
        package var speedCutoff: Double
        /// Cutoff of the innovation estimate that drives ``innovationGain``, Hz.
        package var innovationCutoff: Double
        /// How much of the tracked velocity the predictor extrapolates, 0 ... 1. Below 1 the
        /// guess stops short, which costs little on a steady line and saves overshoot when
        /// the pen stops or turns.
        package var predictionDamping: Double

        /// Creates parameters.
        package init(minCutoff: Double, beta: Double, innovationGain: Double, speedCutoff: Double,
                    innovationCutoff: Double, predictionDamping: Double) {
            self.minCutoff = minCutoff
            self.beta = beta
            self.innovationGain = innovationGain
            self.speedCutoff = speedCutoff
            self.innovationCutoff = innovationCutoff
            self.predictionDamping = predictionDamping
        }

        /// Tuned on the shared ink-quality harness (240 Hz pen input with 0.5 pt jitter):
        /// see `docs/geometry.md` for the scores and how they were measured.
        package static let handwriting = Parameters(minCutoff: 6, beta: 0.1, innovationGain: 10, speedCutoff: 25,
                                                   innovationCutoff: 20, predictionDamping: 0.8)
    }

    /// The filter's parameters.
    package var parameters: Parameters {
        didSet { weights = StepWeights() }
    }
    /// What the filter has learnt from the samples so far (everything but its parameters).
    struct State: Sendable, Hashable {
        var position = CanvasPoint(x: 0, y: 0)
        var velocityEstimate = CanvasPoint(x: 0, y: 0)
        var speed = 0.0
        var innovation = CanvasPoint(x: 0, y: 0)
        var lastTime = 0.0
        var count = 0
    }

    /// The filter's state, which ``StrokeBuilder`` saves to redo a step.
    var state = State()

    /// What depends only on the step and the parameters, kept from the last step: a pen's
    /// samples come at a fixed rate, so most steps reuse it (two divisions saved per step).
    struct StepWeights: Sendable {
        /// The step these are for (NaN: none yet).
        var dt = Double.nan
        /// The innovation's and the speed's smoothing weights at that step.
        var innovation = 0.0
        var speed = 0.0
        /// From this sample count on, the start-up gains can no longer exceed the tracker's
        /// (see ``filter(_:at:)``), so they are not computed.
        var startupEnds = Int.max

        init() {}

        init(dt: Double, _ parameters: Parameters) {
            self.dt = dt
            innovation = PenFilter.alpha(cutoff: parameters.innovationCutoff, dt: dt)
            speed = PenFilter.alpha(cutoff: parameters.speedCutoff, dt: dt)
            // With non-negative gains (and a speed that stays non-negative) the cutoff is at least minCutoff, so g is at least gMin.
            // The line's gain 2(2n − 1) / (n(n + 1)) is below 4 / (n + 1), which is below half
            // of gMin (a margin far wider than rounding) once n + 1 > 8 / gMin.
            guard parameters.minCutoff > 0, parameters.beta >= 0, parameters.innovationGain >= 0, parameters.speedCutoff >= 0 else {
                return
            }
            let a = PenFilter.alpha(cutoff: parameters.minCutoff, dt: dt)
            let gMin = 1 - (1 - a) * (1 - a)
            let limit = 8 / gMin
            if gMin > 0, limit < 1e9 { startupEnds = Int(limit) + 1 }
        }
    }
    private var weights = StepWeights()
    private var position: CanvasPoint { get { state.position } set { state.position = newValue } }
    private var velocityEstimate: CanvasPoint { get { state.velocityEstimate } set { state.velocityEstimate = newValue } }
    private var speed: Double { get { state.speed } set { state.speed = newValue } }
    private var innovation: CanvasPoint { get { state.innovation } set { state.innovation = newValue } }
    private var lastTime: Double { get { state.lastTime } set { state.lastTime = newValue } }
    private var count: Int { get { state.count } set { state.count = newValue } }

    /// Creates a filter with no history.
    package init(parameters: Parameters = .handwriting) {
        self.parameters = parameters
    }

    /// Filters are equal when their parameters and what they learnt are (the weights kept
    /// from the last step are a cache).
    package static func == (a: PenFilter, b: PenFilter) -> Bool { a.parameters == b.parameters && a.state == b.state }

    /// Hashes the parameters and what the filter learnt.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(parameters)
        hasher.combine(state)
    }

    /// The tracked velocity in points per second (zero before the second sample).
    package var velocity: CanvasPoint { velocityEstimate }

    /// The smoothed speed in points per second, for speed-dependent width.
    package var smoothedSpeed: Double { speed }

    /// How many samples the filter has taken.
    package var sampleCount: Int { count }

    /// Filters one position measured at `time` (seconds) and returns the estimate. The
    /// first position passes through unchanged. A time that does not advance changes
    /// nothing and returns the current estimate (callers merge samples with the same
    /// timestamp before filtering).
    package mutating func filter(_ point: CanvasPoint, at time: Double) -> CanvasPoint {
        guard count > 0 else {
            position = point
            lastTime = time
            count = 1
            return point
        }
        let dt = time - lastTime
        guard dt > 0 else { return position }
        count += 1
        guard dt.isFinite else {
            // A gap too long to measure (finite times ~1e308 apart): nothing before it says
            // where the pen went, so the filter starts again from this position.
            position = point
            velocityEstimate = CanvasPoint(x: 0, y: 0)
            innovation = CanvasPoint(x: 0, y: 0)
            speed = 0
            lastTime = time
            return point
        }
        // Steps that differ by rounding only (timestamps converted from another unit) share
        // the weights: a relative error of 1e-9 in a weight moves the estimate by nanometres.
        if !(abs(dt - weights.dt) <= 1e-9 * dt) { weights = StepWeights(dt: dt, parameters) }
        let expected = position + velocityEstimate * dt
        let residual = point - expected
        innovation = innovation + (residual - innovation) * weights.innovation
        let cutoff = parameters.minCutoff + parameters.beta * speed + parameters.innovationGain * innovation.length
        let a = Self.alpha(cutoff: cutoff, dt: dt)
        let theta = 1 - a
        var g = 1 - theta * theta
        var h = a * a
        // Start-up: never less than a least-squares line through the samples so far.
        if count < weights.startupEnds {
            let n = Double(count)
            let inverse = 1 / (n * (n + 1))
            let lineG = 2 * (2 * n - 1) * inverse
            if lineG > g {
                g = lineG
                h = max(h, 6 * inverse)
            }
        }
        position = expected + residual * g
        velocityEstimate = velocityEstimate + residual * (h / dt)
        let measuredSpeed = velocityEstimate.length
        speed = count == 2 ? measuredSpeed : speed + (measuredSpeed - speed) * weights.speed
        lastTime = time
        return position
    }

    /// Smoothing weight of a first-order low-pass filter with the given cutoff at step `dt`:
    /// `1 / (1 + τ / dt)` with `τ = 1 / (2π cutoff)`, written with one division.
    @inline(__always)
    static func alpha(cutoff: Double, dt: Double) -> Double {
        let x = 2 * Double.pi * cutoff * dt
        // An infinite step (a gap of ~1e300 s) follows the new sample, as a zero τ would.
        return x.isFinite ? x / (1 + x) : 1
    }

    /// Where the filter expects the pen `horizon` seconds after the last position: the
    /// estimate moved along the damped velocity (see ``Parameters/predictionDamping``).
    /// `nil` before the first sample.
    package func predicted(after horizon: Double) -> CanvasPoint? {
        guard count > 0 else { return nil }
        return position + velocityEstimate * (parameters.predictionDamping * horizon)
    }
}
