/// Identifies one touch from the moment it begins until it ends or is cancelled.
///
/// Every action the engine emits names its touch by this identifier, so an identifier may
/// name a new touch only once the engine has finished the old one
/// (``RouterAction/touchFinished(_:_:)``): a touch that ended while its hit test was still
/// open is not finished yet. Platforms reuse their own identifiers sooner (Android pointer
/// ids, web `pointerId`s). `InkEngine` (HitTestBridge) takes the platform's identifiers,
/// gives each touch a fresh one, and names both in its events (`EngineTouch`).
public struct TouchID: RawRepresentable, Sendable, Hashable, Comparable, Codable,
    CustomStringConvertible
{
    /// The platform's identifier.
    public var rawValue: UInt64

    /// Wraps a platform identifier.
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// Wraps a platform identifier.
    public init(_ rawValue: UInt64) { self.rawValue = rawValue }

    /// Orders identifiers by their raw value.
    public static func < (lhs: TouchID, rhs: TouchID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `touch N`.
    public var description: String { "touch \(rawValue)" }
}

/// Where a touch is in its life, as the platform reports it.
public enum TouchPhase: String, Sendable, Hashable, Codable, CaseIterable {
    /// The touch went down. The event's first sample is the touch-down point.
    case began
    /// The touch moved; the event carries the samples measured since the last event.
    case moved
    /// The touch lifted; the event may carry final samples.
    case ended
    /// The system took the touch away (an incoming call, a system gesture). Any samples the
    /// event carries are counted as cancelled with the rest of the touch.
    case cancelled
}

/// One platform touch event for one touch: a phase plus the samples measured since the
/// previous event of the same touch.
///
/// Coalesced samples are real measurements and are all accounted for. Predicted samples are
/// the platform's guess of where the touch is going: the engine hands them to the stroke as
/// a tentative tail but never stores or counts them.
public struct TouchEvent: Sendable, Hashable {
    /// The touch this event belongs to.
    public var touch: TouchID
    /// The phase the touch is in after this event.
    public var phase: TouchPhase
    /// The real samples, oldest first. A `began` event must carry at least one.
    public var samples: [TouchSample]
    /// Predicted samples, oldest first; empty when the platform gave none.
    public var predicted: [TouchSample]

    /// Creates an event.
    ///
    /// - Parameters:
    ///   - touch: The touch the event belongs to.
    ///   - phase: The phase after the event.
    ///   - samples: The real (coalesced) samples, oldest first.
    ///   - predicted: Predicted samples, oldest first.
    public init(
        touch: TouchID, phase: TouchPhase, samples: [TouchSample],
        predicted: [TouchSample] = []
    ) {
        self.touch = touch
        self.phase = phase
        self.samples = samples
        self.predicted = predicted
    }
}

/// A later, better value for a property the platform first reported as an estimate
/// (for example Apple Pencil's force, refined a few milliseconds after the sample).
///
/// The update is applied to the sample with the same ``TouchSample/estimationUpdateIndex``
/// in the same touch, wherever that sample is: still queued, or already inked.
public struct EstimatedPropertyUpdate: Sendable, Hashable {
    /// The touch whose sample is refined.
    public var touch: TouchID
    /// The ``TouchSample/estimationUpdateIndex`` of the refined sample.
    public var updateIndex: UInt64
    /// The refined normalised force 0...1, or `nil` to leave force unchanged.
    public var force: Double?
    /// The refined altitude in radians, or `nil` to leave it unchanged.
    public var altitude: Double?
    /// The refined azimuth in radians, or `nil` to leave it unchanged.
    public var azimuth: Double?
    /// `true` when this is the final update and the sample's properties are no longer
    /// estimates.
    public var isFinal: Bool

    /// Creates an update.
    public init(
        touch: TouchID, updateIndex: UInt64, force: Double? = nil,
        altitude: Double? = nil, azimuth: Double? = nil, isFinal: Bool = true
    ) {
        self.touch = touch
        self.updateIndex = updateIndex
        self.force = force
        self.altitude = altitude
        self.azimuth = azimuth
        self.isFinal = isFinal
    }

    /// Applies the update to a sample (which must carry the same update index).
    public func applied(to sample: TouchSample) -> TouchSample {
        var refined = sample
        if let force { refined.force = force }
        if let altitude { refined.altitude = altitude }
        if let azimuth { refined.azimuth = azimuth }
        if isFinal { refined.estimationUpdateIndex = nil }
        return refined
    }
}
