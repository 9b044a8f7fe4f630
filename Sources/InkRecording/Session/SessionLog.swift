@_spi(Tooling) import InkCore
@_spi(Tooling) import HitTestBridge
/// A recorded touch session: a header and events in time order, stored as JSON Lines.
///
/// The format (version 1) is documented in `docs/session-format.md`. Reading is forgiving
/// in one way only: a corrupt or truncated line stops the reader, but everything valid
/// before it is returned alongside the error (see ``SessionLogReadResult``).
///
/// ```swift
/// let result = SessionLog.parse(Array(text.utf8), file: "dot.jsonl")
/// if let failure = result.failure { print(failure) }   // dot.jsonl:7: …
/// let log = result.log                                   // the valid prefix
/// ```
public struct SessionLog: Sendable, Hashable {
    /// The header line.
    public var header: SessionHeader
    /// The events in time order.
    public var events: [SessionEvent]
    /// For a log read from text, the 1-based line number of each event (parallel to
    /// ``events``); empty for a log built in code.
    public var eventLines: [Int]

    /// Creates a log.
    public init(header: SessionHeader, events: [SessionEvent] = [], eventLines: [Int] = []) {
        self.header = header
        self.events = events
        self.eventLines = eventLines
    }

    /// The source line of event `index`, or `nil` for a log built in code.
    public func line(ofEvent index: Int) -> Int? {
        eventLines.indices.contains(index) ? eventLines[index] : nil
    }

    /// Every real sample of the log, per touch in order. Touch ids reused after an end
    /// get separate entries, in the order the touches began.
    public var samplesByTouch: [(touch: PlatformTouchID, samples: [TouchSample])] {
        var result: [(touch: PlatformTouchID, samples: [TouchSample])] = []
        var open: [PlatformTouchID: Int] = [:]
        for case let .touch(event, _) in events {
            if event.phase == .began {
                open[event.touch] = result.count
                result.append((event.touch, []))
            }
            guard let slot = open[event.touch] else { continue }
            result[slot].samples.append(contentsOf: event.samples)
            if event.phase == .ended || event.phase == .cancelled { open[event.touch] = nil }
        }
        return result
    }

    /// The number of real samples in all touch events.
    public var sampleCount: Int {
        events.reduce(0) { count, event in
            switch event {
            case let .touch(touch, _), let .recorded(.nativePageTouch(touch), _): return count + touch.samples.count
            default: break
            }
            return count
        }
    }

    /// Sorts events by time, keeping the order of events with equal times (for writers
    /// that collect answers and touches separately).
    public mutating func sortEventsByTime() {
        let order = events.indices.sorted { (events[$0].time, $0) < (events[$1].time, $1) }
        events = order.map { events[$0] }
        if eventLines.count == order.count { eventLines = order.map { eventLines[$0] } }
    }
}

/// What reading a session log produced: the valid part, and the first fault if any.
public struct SessionLogReadResult: Sendable {
    /// The header and every valid event before the first fault; `nil` when the header
    /// itself could not be read.
    public var log: SessionLog?
    /// The first fault, or `nil` when the whole text was valid.
    public var failure: SessionLogError?

    /// The log, or the fault when there was one.
    public func get() throws(SessionLogError) -> SessionLog {
        if let failure { throw failure }
        guard let log else { throw SessionLogError(file: nil, line: 0, reason: .empty) }
        return log
    }
}
