import InkCore

/// Maps the `time` of GDK input events to the engine's clock.
///
/// A GDK event carries the time the display server stamped it with: milliseconds of the
/// server's own clock, 32 bits wide (it wraps after 49.7 days). The engine counts seconds of
/// the monotonic clock the window uses (``GTK/now``). The events of one frame often reach
/// the window together; stamped with the time the window sees them, a burst looks
/// simultaneous, and velocities and predictions explode. Mapped from their own times, the
/// samples keep their pace.
///
/// The mapping is an offset, engine seconds minus event seconds, learned from the first
/// event (taken as fresh) and kept as small as the events allow: an event that would map to
/// later than now moves the offset back so it maps to now (so a mapping learned from a late
/// event corrects itself). An event that maps more than ``maxLag`` seconds before now means
/// the server's clock drifted or jumped: the offset is learned again from it. Event times are
/// unwrapped across the 32-bit wrap by their signed difference from the previous one. Within a
/// touch, time never goes backwards; no sample is later than now.
struct EventClock {
    /// How far before now an event may map before the offset is learned again, seconds.
    static let maxLag = 1.0
    /// Touches followed at once, at most (a touch whose end never came is forgotten then).
    static let maxTouches = 64

    /// Engine seconds minus unwrapped event seconds; `nil` until the first event.
    private(set) var offset: Double?
    /// How many times the offset was learned again because the mapping lagged now too far.
    private(set) var relearned = 0
    private var lastRaw: UInt32 = 0
    /// The last event time, unwrapped, milliseconds.
    private var unwrapped: Int64 = 0
    /// Each touch's latest sample time, and when that sample was seen.
    private var touches: [UInt64: (time: Double, seen: Double)] = [:]

    /// The engine time of an event stamped `raw` (milliseconds of the server's clock), seen
    /// at `now`. An event without a time (`GDK_CURRENT_TIME`, 0) is taken at `now`.
    mutating func time(ofEvent raw: UInt32, now: Double) -> Double {
        guard raw != 0, now.isFinite else { return now }
        if offset == nil {
            unwrapped = Int64(raw)
        } else {
            unwrapped += Int64(Int32(bitPattern: raw &- lastRaw))
        }
        lastRaw = raw
        let seconds = Double(unwrapped) / 1000
        guard let offset, offset.isFinite else {
            self.offset = now - seconds
            return now
        }
        let mapped = seconds + offset
        if mapped > now {
            self.offset = now - seconds
            return now
        }
        if mapped < now - Self.maxLag {
            self.offset = now - seconds
            relearned += 1
            return now
        }
        return mapped
    }

    /// The timestamp of a sample of `touch` from an event stamped `raw`, seen at `now`: the
    /// event's time on the engine's clock, never before the touch's previous sample and
    /// never after `now`. A touch that begins starts afresh; one that ends or is cancelled is
    /// forgotten.
    ///
    /// Two events of a touch stamped in the same millisecond (or out of order) would make
    /// two samples at one instant, whose movement a velocity filter cannot use: the later one
    /// is placed after the earlier by the time between seeing them, at least half and at most
    /// one millisecond (the stamps' resolution), and never after `now`.
    mutating func sampleTime(ofEvent raw: UInt32, touch: UInt64, phase: TouchPhase, now: Double) -> Double {
        var time = min(time(ofEvent: raw, now: now), now)
        if phase != .began, let previous = touches[touch], time <= previous.time {
            time = min(previous.time + min(max(now - previous.seen, 0.0005), 0.001), max(now, previous.time))
        }
        switch phase {
        case .ended, .cancelled:
            touches[touch] = nil
        case .began, .moved:
            if touches[touch] == nil, touches.count >= Self.maxTouches { touches.removeAll() }
            touches[touch] = (time, now)
        }
        return time
    }
}
