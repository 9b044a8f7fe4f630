@_spi(Tooling) import InkCore
@_spi(Tooling) import HitTestBridge
/// How to give the strokes of a recording a usable time order, from their time spans alone.
///
/// Session logs need strokes that begin in time order. Real InkML often is not: recognizer
/// output lists traces in layout order (left to right, not in the order they were written),
/// and some writers restart every trace's T channel at 0. Given each stroke's first and last
/// time, in document order:
///
/// - **as recorded**: the strokes already begin in time order (overlapping strokes that do
///   are concurrent touches);
/// - **sorted by time**: sorted by start time (a stable sort), no two strokes overlap, so the
///   document order was a layout order;
/// - **realigned**: sorted, strokes would overlap, so each trace has its own clock: keep the
///   document order and shift each stroke to begin `gap` seconds after the one before ends.
///
/// Either repair keeps every stroke; the converter records which one it made.
public enum RecordedStrokeOrder: Sendable, Hashable {
    /// Nothing to repair.
    case asRecorded
    /// Read the strokes in this order (indices into the document order).
    case sortedByTime([Int])
    /// Keep the document order; add `offsets[i]` seconds to every time of stroke `i`.
    case realigned([Double])

    /// The plan for strokes with these spans (seconds, in document order).
    /// - Parameters:
    ///   - spans: Each stroke's first and last sample time.
    ///   - gap: Seconds between realigned strokes.
    /// - Complexity: O(*n* log *n*) in the number of strokes.
    public static func plan(spans: [(start: Double, end: Double)], gap: Double) -> RecordedStrokeOrder {
        // A stroke that begins before the one before it, or at the very instant a stroke with
        // a duration began (a clock restarted at the same origin), needs a repair; strokes
        // that merely overlap in order are concurrent touches, kept as recorded.
        let needsRepair = zip(spans, spans.dropFirst()).contains { previous, next in
            next.start < previous.start || (next.start == previous.start && previous.end > previous.start)
        }
        guard needsRepair else { return .asRecorded }
        let order = spans.indices.sorted { (spans[$0].start, $0) < (spans[$1].start, $1) }
        let overlaps = zip(order, order.dropFirst()).contains { spans[$1].start < spans[$0].end }
        if !overlaps { return .sortedByTime(order) }
        var offsets: [Double] = []
        var previousEnd = -Double.infinity
        for span in spans {
            let offset = span.start < previousEnd ? previousEnd + gap - span.start : 0
            offsets.append(offset)
            previousEnd = span.end + offset
        }
        return .realigned(offsets)
    }

    /// How many strokes the plan moves (0 for ``asRecorded``).
    public var movedStrokes: Int {
        switch self {
        case .asRecorded: return 0
        case let .sortedByTime(order): return order.enumerated().filter { $0.offset != $0.element }.count
        case let .realigned(offsets): return offsets.filter { $0 != 0 }.count
        }
    }
}
