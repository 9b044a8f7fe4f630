/// The engine's identifier of one touch, from the moment it begins until the engine has
/// finished it: what every ``RouterAction`` and every ``InkLayer`` stroke names.
///
/// The engine gives each touch a fresh one, unique over the engine's life, so an identifier
/// never names two touches, however soon the platform reuses its own
/// (``PlatformTouchID``): a touch that ended while its hit test was still open is not
/// finished yet (``RouterAction/touchFinished(_:_:)``), and a new finger may already be down
/// under the same platform id. Inputs name touches by the platform's id; the engine's
/// events name both.
public struct TouchID: RawRepresentable, Sendable, Hashable, Comparable, Codable,
    CustomStringConvertible
{
    /// The identifier's number.
    public var rawValue: UInt64

    /// Wraps a number.
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// Wraps a number.
    public init(_ rawValue: UInt64) { self.rawValue = rawValue }

    /// Orders identifiers by their raw value.
    public static func < (lhs: TouchID, rhs: TouchID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `touch N`.
    public var description: String { "touch \(rawValue)" }
}

/// The platform's identifier of a touch: what a ``TouchEvent`` and an
/// ``EstimatedPropertyUpdate`` name, as the platform (or a session log) gave it.
///
/// Platforms reuse their identifiers as soon as a finger lifts (Android pointer ids, web
/// `pointerId`s, a GTK event sequence's number, the id a UIKit front end gives a `UITouch`
/// object), so it names one touch only while that touch is down. The engine maps each
/// platform touch to a ``TouchID`` of its own when it begins; the two are different types
/// so that they cannot be mixed.
public struct PlatformTouchID: RawRepresentable, Sendable, Hashable, Comparable, Codable,
    CustomStringConvertible
{
    /// The platform's number.
    public var rawValue: UInt64

    /// Wraps the platform's number.
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// Wraps the platform's number.
    public init(_ rawValue: UInt64) { self.rawValue = rawValue }

    /// Orders identifiers by their raw value.
    public static func < (lhs: PlatformTouchID, rhs: PlatformTouchID) -> Bool { lhs.rawValue < rhs.rawValue }

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
    /// The touch this event belongs to, by the platform's identifier.
    public var touch: PlatformTouchID
    /// The phase the touch is in after this event.
    public var phase: TouchPhase
    /// The real samples, oldest first. A `began` event must carry at least one.
    public var samples: [TouchSample]
    /// Predicted samples, oldest first; empty when the platform gave none.
    public var predicted: [TouchSample]

    /// Creates an event.
    ///
    /// - Parameters:
    ///   - touch: The touch the event belongs to, by the platform's identifier.
    ///   - phase: The phase after the event.
    ///   - samples: The real (coalesced) samples, oldest first.
    ///   - predicted: Predicted samples, oldest first.
    public init(
        touch: PlatformTouchID, phase: TouchPhase, samples: [TouchSample],
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
    /// The touch whose sample is refined, by the platform's identifier.
    public var touch: PlatformTouchID
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
        touch: PlatformTouchID, updateIndex: UInt64, force: Double? = nil,
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
