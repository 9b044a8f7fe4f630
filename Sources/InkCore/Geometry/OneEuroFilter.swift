/// A speed-adaptive low-pass filter for pointer positions (the One Euro filter of Casiez,
/// Roussel and Vogel, CHI 2012), with a lag compensation of our own.
///
/// A first-order low-pass filter removes jitter but lags behind a moving pen; the One Euro
/// filter raises its cutoff frequency with speed, so slow, careful strokes are smoothed
/// strongly and fast ones follow closely. What lag remains is, for a pen moving at a steady
/// velocity, exactly the filter's time constant times that velocity; the compensation adds
/// back `lagCompensation` × (time constant) × (smoothed velocity), which removes it on
/// straight runs while keeping the smoothing across the path.
///
/// Units: positions in canvas points, times in seconds, cutoffs in hertz, `beta` in
/// hertz per (point per second).
public struct OneEuroFilter: Sendable, Hashable {
    /// The filter's parameters.
    public struct Parameters: Sendable, Hashable {
        /// Cutoff frequency at rest, Hz. Lower smooths more (and lags more).
        public var minCutoff: Double
        /// How fast the cutoff rises with speed, Hz per (pt/s).
        public var beta: Double
        /// Cutoff frequency of the velocity estimate, Hz.
        public var derivativeCutoff: Double
        /// Fraction of the steady-velocity lag added back, 0 (plain One Euro) ... 1.
        public var lagCompensation: Double

        /// Creates parameters.
        public init(minCutoff: Double, beta: Double, derivativeCutoff: Double, lagCompensation: Double) {
            self.minCutoff = minCutoff
            self.beta = beta
            self.derivativeCutoff = derivativeCutoff
            self.lagCompensation = lagCompensation
        }

        /// Tuned on the shared ink-quality harness (240 Hz pen input with 0.5 pt jitter):
        /// see `docs/geometry.md`.
        public static let handwriting = Parameters(minCutoff: 6, beta: 0.02, derivativeCutoff: 12, lagCompensation: 1)
    }

    /// The filter's parameters.
    public var parameters: Parameters
    private var smoothed: CanvasPoint?
    private var velocity = CanvasPoint(x: 0, y: 0)
    private var lastRaw = CanvasPoint(x: 0, y: 0)
    private var lastTime = 0.0
    private var lastTimeConstant = 0.0

    /// Creates a filter with no history.
    public init(parameters: Parameters = .handwriting) {
        self.parameters = parameters
    }

    /// The smoothed velocity in points per second (zero before the second sample).
    public var smoothedVelocity: CanvasPoint { velocity }

    /// Filters one position measured at `time` (seconds, increasing). The first position
    /// passes through unchanged. A repeated time is treated as a new measurement of the
    /// same instant: it replaces nothing and moves the estimate by the plain average
    /// weight (callers that merge duplicate timestamps never pass one).
    public mutating func filter(_ point: CanvasPoint, at time: Double) -> CanvasPoint {
        guard let previous = smoothed else {
            smoothed = point
            lastRaw = point
            lastTime = time
            return point
        }
        let dt = max(time - lastTime, 1e-4)
        let rawVelocity = (point - lastRaw) / dt
        velocity = velocity + (rawVelocity - velocity) * Self.alpha(cutoff: parameters.derivativeCutoff, dt: dt)
        let cutoff = parameters.minCutoff + parameters.beta * velocity.length
        let a = Self.alpha(cutoff: cutoff, dt: dt)
        let next = previous + (point - previous) * a
        smoothed = next
        lastRaw = point
        lastTime = time
        // Steady-state lag of an exponential smoother with weight a at step dt.
        lastTimeConstant = dt * (1 - a) / a
        return next + velocity * (lastTimeConstant * parameters.lagCompensation)
    }

    /// Smoothing weight of a first-order low-pass filter with the given cutoff.
    static func alpha(cutoff: Double, dt: Double) -> Double {
        let tau = 1 / (2 * Double.pi * cutoff)
        return 1 / (1 + tau / dt)
    }

    /// Where the filter expects the pen `horizon` seconds after the last position, from the
    /// smoothed position and velocity (a constant-velocity guess, damped so an abrupt
    /// stop does not overshoot far).
    public func predicted(after horizon: Double) -> CanvasPoint? {
        guard let smoothed else { return nil }
        let compensated = smoothed + velocity * (lastTimeConstant * parameters.lagCompensation)
        return compensated + velocity * horizon
    }
}
