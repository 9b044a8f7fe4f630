/// What kind of thing touched the canvas.
public enum ToolKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// A finger (or any direct touch that is not a stylus).
    case finger
    /// A stylus such as Apple Pencil.
    case pencil
}

/// One measured position of a touch, as the platform reported it.
///
/// Samples are the unit the engine accounts for: every sample received is eventually inked,
/// released to the page, or cancelled with its touch, exactly once and in order. Samples are
/// never modified on the way through except by an ``EstimatedPropertyUpdate`` that refines a
/// property the platform marked as an estimate.
///
/// ```swift
/// let sample = TouchSample(x: 120, y: 48.5, timestamp: 3.016, force: 0.4, tool: .pencil)
/// ```
public struct TouchSample: Sendable, Hashable {
    /// Horizontal position in canvas points, growing to the right. Always finite.
    public var x: Double
    /// Vertical position in canvas points, growing downwards. Always finite.
    public var y: Double
    /// When the sample was measured, in seconds on a monotonic clock (like a platform touch
    /// timestamp). Only differences matter; the origin is arbitrary. Always finite.
    public var timestamp: Double
    /// Normalised force, 0 (none) ... 1 (the device's maximum); `nil` when the device does
    /// not measure force (most fingers, mice, recorded data without pressure).
    public var force: Double?
    /// Stylus altitude angle in radians: 0 when parallel to the surface, π/2 when
    /// perpendicular; `nil` for fingers and devices that do not report it.
    public var altitude: Double?
    /// Stylus azimuth angle in radians in the canvas plane, measured from the +x axis;
    /// `nil` for fingers and devices that do not report it.
    public var azimuth: Double?
    /// The tool that produced the sample.
    public var tool: ToolKind
    /// When the platform marked some property (usually force) as an estimate that a later
    /// ``EstimatedPropertyUpdate`` will refine, the index that update will carry;
    /// `nil` when every property is final.
    public var estimationUpdateIndex: UInt64?
    /// The radius of the contact along its major axis, canvas points (UIKit:
    /// `UITouch.majorRadius`); `nil` when the platform does not report it. A finger-type
    /// touch-down at least `InkEngineConfiguration.palmRadius` (HitTestBridge) wide is held
    /// as a palm.
    public var majorRadius: Double?

    /// Creates a sample.
    ///
    /// - Parameters:
    ///   - x: Horizontal position in canvas points.
    ///   - y: Vertical position in canvas points.
    ///   - timestamp: Measurement time in seconds on a monotonic clock.
    ///   - force: Normalised force 0...1, or `nil` when not measured.
    ///   - altitude: Stylus altitude in radians, or `nil`.
    ///   - azimuth: Stylus azimuth in radians, or `nil`.
    ///   - tool: The tool that produced the sample.
    ///   - estimationUpdateIndex: The index of a pending estimated-property update, or `nil`.
    ///   - majorRadius: The contact's major radius in canvas points, or `nil`.
    public init(
        x: Double, y: Double, timestamp: Double,
        force: Double? = nil, altitude: Double? = nil, azimuth: Double? = nil,
        tool: ToolKind = .finger, estimationUpdateIndex: UInt64? = nil, majorRadius: Double? = nil
    ) {
        self.majorRadius = majorRadius
        self.x = x
        self.y = y
        self.timestamp = timestamp
        self.force = force
        self.altitude = altitude
        self.azimuth = azimuth
        self.tool = tool
        self.estimationUpdateIndex = estimationUpdateIndex
    }

    /// The sample's position in canvas points.
    public var point: CanvasPoint { CanvasPoint(x: x, y: y) }

    /// A platform's raw force mapped to ``force``: `force / maximumPossibleForce`, clamped to
    /// 0...1, or `nil` ("no force") when the device does not sense force.
    ///
    /// On a device without force sensing `UITouch.maximumPossibleForce` is 0, so the obvious
    /// division gives NaN (0 / 0) or infinity, and the engine refuses a sample with a
    /// non-finite force: the whole touch would be lost. This returns `nil` there instead.
    ///
    /// ```swift
    /// let force = TouchSample.normalizedForce(touch.force, maximumPossibleForce: touch.maximumPossibleForce)
    /// ```
    ///
    /// - Parameters:
    ///   - force: The platform's force (UIKit: `UITouch.force`, 1.0 an average touch).
    ///   - maximumPossibleForce: The platform's maximum (UIKit: `UITouch.maximumPossibleForce`).
    /// - Returns: The normalised force 0...1, or `nil` when `maximumPossibleForce` is not a
    ///   positive finite number or `force` is not finite.
    public static func normalizedForce(_ force: Double, maximumPossibleForce: Double) -> Double? {
        guard maximumPossibleForce.isFinite, maximumPossibleForce > 0, force.isFinite else { return nil }
        return min(max(force / maximumPossibleForce, 0), 1)
    }

    /// `true` when position and time are finite and every optional property present is
    /// finite and in its documented range (force 0...1).
    public var isValid: Bool {
        guard x.isFinite, y.isFinite, timestamp.isFinite else { return false }
        if let force, !(force.isFinite && force >= 0 && force <= 1) { return false }
        if let altitude, !altitude.isFinite { return false }
        if let azimuth, !azimuth.isFinite { return false }
        if let majorRadius, !(majorRadius.isFinite && majorRadius >= 0) { return false }
        return true
    }
}

/// A position on the canvas, in canvas points (x right, y down).
public struct CanvasPoint: Sendable, Hashable, Codable {
    /// Horizontal position in canvas points.
    public var x: Double
    /// Vertical position in canvas points.
    public var y: Double

    /// Creates a point from its canvas coordinates.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}
