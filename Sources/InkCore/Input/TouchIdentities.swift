/// Gives every platform touch its own ``TouchID``, however soon the platform reuses its
/// identifiers, and maps engine identifiers back for the page.
///
/// Platforms reuse touch identifiers as soon as a finger lifts (Android pointer ids, web
/// `pointerId`s), but the engine may still be deciding the lifted touch and will emit its
/// actions under its ``TouchID`` (see `RouterError.touchAlreadyActive(_:)`). Route every
/// platform event through ``resolve(_:phase:)`` (the one touch-id rule: a `began` for an id
/// still down is refused), hand the event to the engine under that id, record it with
/// ``engineID(for:phase:)`` once the engine took it, and tell the map when the engine
/// finished a touch (``finished(_:)``, on ``RouterAction/touchFinished(_:_:)``).
///
/// ```swift
/// var identities = TouchIdentities()
/// let id = try identities.resolve(pointerID, phase: .began)   // a fresh TouchID
/// try router.handle(TouchEvent(touch: pointerID, phase: .began, samples: samples), as: id, into: &actions)
/// _ = identities.engineID(for: pointerID, phase: .began)      // taken: recorded
/// // … later, for an action about `id`: identities.platformID(of: id) == pointerID
/// ```
package struct TouchIdentities: Sendable {
    private var current: [PlatformTouchID: TouchID] = [:]
    private var platform: [TouchID: PlatformTouchID] = [:]
    /// An entry of `current` (the touch named last), read without hashing: most events
    /// name the touch before them. Kept equal to `current[down.platform]` or `nil`.
    private var down: (platform: PlatformTouchID, engine: TouchID)?
    /// An entry of `platform` (the touch begun or named last), read without hashing. Kept
    /// equal to `platform[tracked.engine]` or `nil`.
    private var tracked: (engine: TouchID, platform: PlatformTouchID)?
    private var next: UInt64
    /// The most recent touches begun (platform id, engine id), oldest first, at most
    /// `recentLimit`: estimated-property updates and recorded answers may name a touch
    /// after it ended.
    private var recent: [(platform: PlatformTouchID, engine: TouchID)] = []
    private let recentLimit: Int

    /// Creates a map.
    /// - Parameters:
    ///   - first: The first engine identifier given.
    ///   - recentLimit: How many of the most recent touches ``latestID(for:)``
    ///     remembers after they ended (default: as many as the engine keeps finished
    ///     touches for, plus its default bound on active touches).
    package init(first: UInt64 = 1, recentLimit: Int = TouchRouter.retiredTouchLimit + 32) {
        next = first
        self.recentLimit = max(1, recentLimit)
    }

    /// The engine identifier an event of a platform touch goes to, without recording it:
    /// a host hands the event to the engine first, then calls ``engineID(for:phase:)`` when
    /// the engine took it. This is the one touch-identity rule of every host and replay.
    ///
    /// - Throws: `TouchIdentityError.stillDown(_:)` for a `began` while a touch with this
    ///   platform id is down; `TouchIdentityError.notDown(_:)` for a later event of a
    ///   touch that is not down.
    package func resolve(_ platformID: PlatformTouchID, phase: TouchPhase) throws(TouchIdentityError) -> TouchID {
        if let down, down.platform == platformID {
            if phase == .began { throw .stillDown(platformID) }
            return down.engine
        }
        if phase == .began {
            guard current[platformID] == nil else { throw .stillDown(platformID) }
            return TouchID(next)
        }
        guard let id = current[platformID] else { throw .notDown(platformID) }
        return id
    }

    /// The engine identifier of the most recent touch with this platform id, down or ended
    /// (among the `recentLimit` most recent touches): where an estimated-property update or
    /// a recorded answer naming the platform's id belongs.
    package func latestID(for platformID: PlatformTouchID) -> TouchID? {
        recent.last { $0.platform == platformID }?.engine
    }

    /// Whether the touch `id` is among the recent touches with this platform id.
    package func isRecent(_ id: TouchID, for platformID: PlatformTouchID) -> Bool {
        recent.contains { $0.engine == id && $0.platform == platformID }
    }

    /// The engine identifier for a platform event: a fresh one when the touch begins, the
    /// same one for its later events; `nil` for a later event of a touch that never began.
    /// After `ended` or `cancelled` the platform identifier is free for a new touch.
    package mutating func engineID(for platformID: PlatformTouchID, phase: TouchPhase) -> TouchID? {
        if phase == .began {
            let id = TouchID(next)
            next &+= 1
            current[platformID] = id
            platform[id] = platformID
            down = (platformID, id)
            tracked = (id, platformID)
            recent.append((platformID, id))
            if recent.count > recentLimit { recent.removeFirst() }
            return id
        }
        let id: TouchID
        if let down, down.platform == platformID {
            id = down.engine
        } else {
            guard let found = current[platformID] else { return nil }
            id = found
        }
        if phase == .ended || phase == .cancelled {
            current[platformID] = nil
            down = nil
        } else {
            down = (platformID, id)
        }
        return id
    }

    /// The platform identifier behind an engine identifier, until ``finished(_:)``; after
    /// that, while the touch is among the most recent ones (a refinement can follow a lift).
    package func platformID(of id: TouchID) -> PlatformTouchID? {
        if let tracked, tracked.engine == id { return tracked.platform }
        return platform[id] ?? recent.last { $0.engine == id }?.platform
    }

    /// Whether the engine has not finished `id` yet (a touch mapped and still tracked).
    package func isTracked(_ id: TouchID) -> Bool { platform[id] != nil }

    /// The engine finished `id` (``RouterAction/touchFinished(_:_:)``): forget it.
    ///
    /// A touch the engine finished while its platform touch is still down (evicted at the
    /// engine's bound) keeps its platform id taken until the platform ends it. When such
    /// touches pile up (a platform that never ends its touches), the oldest are let go, so
    /// the map stays bounded: an event for one of them is then refused as not down.
    package mutating func finished(_ id: TouchID) {
        platform[id] = nil
        if tracked?.engine == id { tracked = nil }
        if current.count > max(Self.sweepThreshold, 2 * platform.count) {
            current = current.filter { platform[$0.value] != nil }
            down = nil
        }
    }

    /// How many taken platform ids the map holds before it lets finished ones go.
    static let sweepThreshold = 256

    /// The platform identifiers of the touches down (begun, not ended or cancelled), in
    /// ascending order.
    package var downPlatformIDs: [PlatformTouchID] { current.keys.sorted() }

    /// Platform touches mapped and not finished by the engine yet.
    package var count: Int { platform.count }
}

/// A platform touch event that names no touch it could belong to (the one touch-id rule,
/// applied by `InkEngine` in HitTestBridge).
package enum TouchIdentityError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A `began` for a platform id whose touch is still down.
    case stillDown(PlatformTouchID)
    /// A `moved`, `ended` or `cancelled` event for a platform id with no touch down.
    case notDown(PlatformTouchID)

    /// The sentence every host and replay reports.
    package var description: String {
        switch self {
        case let .stillDown(id): return "\(id): began while a touch with this id is down (end or cancel it first)"
        case let .notDown(id): return "\(id): no such active touch"
        }
    }
}
