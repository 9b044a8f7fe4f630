/// Gives every platform touch its own ``TouchID``, however soon the platform reuses its
/// identifiers, and maps engine identifiers back for the page.
///
/// Platforms reuse touch identifiers as soon as a finger lifts (Android pointer ids, web
/// `pointerId`s), but the engine may still be deciding the lifted touch and will emit its
/// actions under its ``TouchID`` (see ``RouterError/touchAlreadyActive(_:)``). Route every
/// platform event through ``engineID(for:phase:)`` and tell the map when the engine finished
/// a touch (``finished(_:)``, on ``RouterAction/touchFinished(_:_:)``).
///
/// ```swift
/// var identities = TouchIdentities()
/// let id = identities.engineID(for: pointerID, phase: .began)   // a fresh TouchID
/// // … later, for an action about `id`: identities.platformID(of: id) == pointerID
/// ```
public struct TouchIdentities: Sendable {
    private var current: [UInt64: TouchID] = [:]
    private var platform: [TouchID: UInt64] = [:]
    private var next: UInt64

    /// Creates a map whose first engine identifier is `first`.
    public init(first: UInt64 = 1) { next = first }

    /// The engine identifier for a platform event: a fresh one when the touch begins, the
    /// same one for its later events; `nil` for a later event of a touch that never began.
    /// After `ended` or `cancelled` the platform identifier is free for a new touch.
    public mutating func engineID(for platformID: UInt64, phase: TouchPhase) -> TouchID? {
        if phase == .began {
            let id = TouchID(next)
            next &+= 1
            current[platformID] = id
            platform[id] = platformID
            return id
        }
        guard let id = current[platformID] else { return nil }
        if phase == .ended || phase == .cancelled { current[platformID] = nil }
        return id
    }

    /// The engine identifier ``engineID(for:phase:)`` would give for this event, without
    /// giving it: a host hands the event to the engine first and records the mapping only
    /// when the engine took the event.
    public func proposedID(for platformID: UInt64, phase: TouchPhase) -> TouchID? {
        phase == .began ? TouchID(next) : current[platformID]
    }

    /// The platform identifier behind an engine identifier, until ``finished(_:)``.
    public func platformID(of id: TouchID) -> UInt64? { platform[id] }

    /// The engine finished `id` (``RouterAction/touchFinished(_:_:)``): forget it.
    public mutating func finished(_ id: TouchID) { platform[id] = nil }

    /// Platform touches mapped and not finished by the engine yet.
    public var count: Int { platform.count }
}
