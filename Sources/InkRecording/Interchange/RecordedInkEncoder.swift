@_spi(Tooling) import InkCore
@_spi(Tooling) import HitTestBridge
/// Turns recorded strokes (from InkML, Quick, Draw! or any other recording) into the events
/// of a session log, one stroke at a time, over a ``PageLayout``:
///
/// - each stroke becomes one touch at its recorded pace: `began` with the first sample, one
///   `moved` per middle sample, `ended` with the last;
/// - the page pushes its region snapshot every `maxAge / 2` seconds, like the page script's
///   heartbeat; only the ticks of intervals that hold a sample are written (the others
///   change nothing in a replay, and hours of pauses would bloat the log);
/// - the page's answer for each touch arrives `answerLatency` seconds after touch-down and
///   says what the layout has under the first sample (the page's when an interactive
///   rectangle is there).
///
/// Strokes may overlap in time (several fingers): events are held until no later stroke
/// can precede them, so memory is bounded by the strokes in progress, not the recording.
/// Strokes must begin in time order.
public struct RecordedInkEncoder: Sendable {
    /// The page under the ink.
    public let layout: PageLayout
    /// Seconds between a touch-down and the page's recorded answer.
    public let answerLatency: Double
    /// How recorded coordinates map to canvas points.
    public let placement: InkPlacement
    private var pending: [(event: SessionEvent, order: Int)] = []
    private var order = 0
    private var heartbeatOrigin: Double?
    private var lastTick = Int.min
    private var lastStart = -Double.infinity
    /// The number of strokes added.
    public private(set) var strokeCount = 0

    /// An encoder over `layout`.
    public init(layout: PageLayout, answerLatency: Double, placement: InkPlacement = .identity) {
        self.layout = layout
        self.answerLatency = answerLatency
        self.placement = placement
    }

    /// Adds the next stroke (samples in recorded coordinates, timestamps in seconds) and
    /// returns the events that are now final, in time order.
    ///
    /// - Throws: ``RecordedInkError`` when the stroke is empty, begins before the previous
    ///   one began, goes back in time, or has a non-finite value. Nothing is added then.
    public mutating func add(_ recorded: [TouchSample]) throws(RecordedInkError) -> [SessionEvent] {
        let stroke = strokeCount
        guard let first = recorded.first else { throw RecordedInkError(stroke: stroke, message: "empty stroke") }
        for (index, sample) in recorded.enumerated() {
            guard sample.isValid else {
                throw RecordedInkError(stroke: stroke, message: "sample \(index) has a non-finite value")
            }
            if index > 0, sample.timestamp < recorded[index - 1].timestamp {
                throw RecordedInkError(
                    stroke: stroke,
                    message: "time goes backwards at sample \(index) (\(recorded[index - 1].timestamp) s to \(sample.timestamp) s)")
            }
        }
        guard first.timestamp >= lastStart else {
            throw RecordedInkError(
                stroke: stroke,
                message: "begins at \(first.timestamp) s, before the previous stroke began (\(lastStart) s)")
        }
        let start = first.timestamp
        let end = recorded[recorded.count - 1].timestamp
        let interval = layout.maxAge / 2
        let origin = heartbeatOrigin ?? (start - interval / 2)
        // One push per heartbeat interval that holds a sample of the stroke: the ticks a
        // replay can notice, never more than the samples (a stroke with a gap of years
        // inside it does not become years of heartbeats).
        var ticks: [Int] = []
        var latestTick = lastTick
        for sample in recorded {
            let position = ((sample.timestamp - origin) / interval).rounded(.down)
            guard abs(position) < 1e15 else {
                throw RecordedInkError(
                    stroke: stroke, message: "sample time \(sample.timestamp) s is too far from the first stroke's (\(origin) s)")
            }
            let tick = Int(position)
            if tick > latestTick {
                ticks.append(tick)
                latestTick = tick
            }
        }
        // Checked: from here on the stroke is taken.
        heartbeatOrigin = origin
        lastTick = latestTick
        lastStart = start
        strokeCount += 1
        let samples = recorded.map(placement.apply)
        let touch = PlatformTouchID(UInt64(stroke + 1))
        var ready = start
        var newEvents: [SessionEvent] = []
        for tick in ticks {
            let time = origin + Double(tick) * interval
            ready = min(ready, time)
            newEvents.append(.regions(layout.snapshot, time: time))
        }
        newEvents.append(.touch(TouchEvent(touch: touch, phase: .began, samples: [samples[0]]), time: start))
        for sample in samples.dropFirst().dropLast() {
            newEvents.append(.touch(TouchEvent(touch: touch, phase: .moved, samples: [sample]), time: sample.timestamp))
        }
        newEvents.append(.touch(TouchEvent(touch: touch, phase: .ended, samples: samples.count > 1 ? [samples[samples.count - 1]] : []), time: end))
        newEvents.append(.answer(touch: touch, verdict: layout.verdict(atCanvas: samples[0].point), time: start + answerLatency))

        let flushed = take { $0 < ready }
        for event in newEvents {
            pending.append((event, order))
            order += 1
        }
        return flushed
    }

    /// Every event still held, in time order (call once, after the last stroke).
    public mutating func finish() -> [SessionEvent] { take { _ in true } }

    private mutating func take(while isReady: (Double) -> Bool) -> [SessionEvent] {
        pending.sort { ($0.event.time, $0.order) < ($1.event.time, $1.order) }
        let count = pending.firstIndex { !isReady($0.event.time) } ?? pending.count
        defer { pending.removeFirst(count) }
        return pending.prefix(count).map(\.event)
    }
}

/// Why a recorded stroke could not be encoded.
public struct RecordedInkError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The 0-based index of the stroke among those added.
    public var stroke: Int
    /// What was wrong.
    public var message: String

    /// `stroke N: message`.
    public var description: String { "stroke \(stroke): \(message)" }
}

/// A uniform scale and a translation from recorded coordinates to canvas points.
public struct InkPlacement: Sendable, Hashable {
    /// Canvas points per recorded unit.
    public var scale: Double
    /// Added after scaling, in canvas points.
    public var offsetX: Double
    /// Added after scaling, in canvas points.
    public var offsetY: Double

    /// Coordinates kept as recorded.
    public static let identity = InkPlacement(scale: 1, offsetX: 0, offsetY: 0)

    /// Creates a placement.
    public init(scale: Double, offsetX: Double, offsetY: Double) {
        self.scale = scale
        self.offsetX = offsetX
        self.offsetY = offsetY
    }

    /// The placement that scales `bounds` uniformly and centres it in `area`.
    @_spi(Tooling) public static func fitting(_ bounds: InkBounds, into area: PageRegion) -> InkPlacement {
        let width = max(bounds.maxX - bounds.minX, 1e-9)
        let height = max(bounds.maxY - bounds.minY, 1e-9)
        let scale = min(area.width / width, area.height / height)
        return InkPlacement(
            scale: scale,
            offsetX: area.x + (area.width - width * scale) / 2 - bounds.minX * scale,
            offsetY: area.y + (area.height - height * scale) / 2 - bounds.minY * scale)
    }

    /// A sample moved to canvas points (time and other properties unchanged).
    public func apply(_ sample: TouchSample) -> TouchSample {
        var moved = sample
        moved.x = sample.x * scale + offsetX
        moved.y = sample.y * scale + offsetY
        return moved
    }
}

/// The bounding box of recorded ink.
public struct InkBounds: Sendable, Hashable {
    /// Smallest x.
    public var minX = Double.infinity
    /// Smallest y.
    public var minY = Double.infinity
    /// Largest x.
    public var maxX = -Double.infinity
    /// Largest y.
    public var maxY = -Double.infinity

    /// An empty box.
    public init() {}

    /// Whether no point has been included.
    public var isEmpty: Bool { minX > maxX }

    /// Grows the box to include a sample.
    public mutating func include(_ sample: TouchSample) {
        minX = min(minX, sample.x)
        minY = min(minY, sample.y)
        maxX = max(maxX, sample.x)
        maxY = max(maxY, sample.y)
    }
}
