/// One conditioned point of a stroke's centreline.
package struct StrokeNode: Sendable, Hashable {
    /// Position in canvas points: filtered by `PenFilter` at the live tip, then settled by
    /// a local least-squares fit once its neighbours are known (the first and last nodes too).
    package var position: CanvasPoint
    /// The time the node stands for, seconds (its sample's timestamp).
    package var time: Double
    /// Ink width at this node in canvas points (after tapers).
    package var width: Double
    /// The force it was made with, 0...1; `nil` when the samples had none.
    package var force: Double?
}

/// One piece of a stroke: a cubic Bézier of the centreline with the ink widths at its ends.
///
/// A renderer draws a segment as the region swept by a disc whose diameter goes from
/// ``startWidth`` to ``endWidth`` along ``curve`` (see ``StrokeOutline``): round caps and
/// joins come for free, and segments can be drawn independently.
public struct StrokeSegment: Sendable, Hashable {
    /// The centreline.
    public var curve: CubicBezier
    /// Ink width at the start, canvas points.
    public var startWidth: Double
    /// Ink width at the end, canvas points.
    public var endWidth: Double
    /// Time the start stands for, seconds.
    public var startTime: Double
    /// Time the end stands for, seconds.
    public var endTime: Double

    /// Creates a segment.
    public init(curve: CubicBezier, startWidth: Double, endWidth: Double, startTime: Double, endTime: Double) {
        self.curve = curve
        self.startWidth = startWidth
        self.endWidth = endWidth
        self.startTime = startTime
        self.endTime = endTime
    }

    /// A rectangle containing all the ink of the segment.
    public var bounds: CanvasRect {
        let b = curve.bounds
        let r = max(startWidth, endWidth) / 2
        return CanvasRect(minX: b.minX - r, minY: b.minY - r, maxX: b.maxX + r, maxY: b.maxY + r)
    }

    /// `true` for a segment that is a single point (a dot).
    public var isDot: Bool { curve.controlPolygonLength < 1e-9 }
}
