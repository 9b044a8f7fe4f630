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

/// A stroke's nodes not forgotten, by node index (`startIndex` is the first one kept):
/// a view of ``StrokeBuilder``'s one store of nodes (tooling and tests).
package struct StrokeNodes: RandomAccessCollection, Sendable, Equatable {
    fileprivate let window: StrokeInputModeler.Window

    init(window: StrokeInputModeler.Window) { self.window = window }

    /// The first node kept.
    package var startIndex: Int { window.kept.lowerBound }
    /// How many nodes the stroke has (one past the last).
    package var endIndex: Int { window.kept.upperBound }
    /// Node `i` as drawn; `i` must be a kept node's index.
    package subscript(i: Int) -> StrokeNode { window[i].drawn }
    /// How many nodes the store has room for.
    package var capacity: Int { window.capacity }

    /// The same nodes kept, from the same index.
    package static func == (a: StrokeNodes, b: StrokeNodes) -> Bool {
        a.startIndex == b.startIndex && a.elementsEqual(b)
    }
}

/// One piece of a stroke: a cubic Bézier of the centreline with the ink widths at its ends.
///
/// A renderer draws a segment as the region swept by a disc whose diameter goes from
/// ``startWidth`` to ``endWidth`` along its centreline, a cubic Bézier curve from ``start``
/// to ``end``: round caps and joins come for free, and segments can be drawn independently.
/// A renderer fills ``outline(maxStep:)`` (the swept body) and the round caps
/// ``startCap(maxStep:)`` (and, for a stroke's last segment, ``endCap(maxStep:)``).
public struct StrokeSegment: Sendable, Hashable {
    /// The centreline.
    @_spi(Tooling) public var curve: CubicBezier
    /// Ink width at the start, canvas points.
    public var startWidth: Double
    /// Ink width at the end, canvas points.
    public var endWidth: Double
    /// Time the start stands for, seconds.
    public var startTime: Double
    /// Time the end stands for, seconds.
    public var endTime: Double

    /// Creates a segment.
    @_spi(Tooling) public init(curve: CubicBezier, startWidth: Double, endWidth: Double, startTime: Double, endTime: Double) {
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

    /// Where the centreline starts, canvas points.
    public var start: CanvasPoint { curve.p0 }
    /// Where the centreline ends, canvas points.
    public var end: CanvasPoint { curve.p3 }

    /// The outline of the segment's body without its caps, as a closed polygon (counter-
    /// clockwise in a y-down canvas), for a renderer to fill with the nonzero rule.
    /// - Parameter maxStep: The longest step along the centreline between outline points,
    ///   canvas points.
    public func outline(maxStep: Double = 2) -> [CanvasPoint] { StrokeOutline.polygon(for: self, maxStep: maxStep) }

    /// The round cap at ``start``: a circle of ``startWidth``.
    /// - Parameter maxStep: The longest step along the circle, canvas points.
    public func startCap(maxStep: Double = 1) -> [CanvasPoint] {
        StrokeOutline.circle(center: start, radius: startWidth / 2, maxStep: maxStep)
    }

    /// The round cap at ``end``: a circle of ``endWidth`` (drawn for a stroke's last segment;
    /// inner joins are the next segment's start cap).
    /// - Parameter maxStep: The longest step along the circle, canvas points.
    public func endCap(maxStep: Double = 1) -> [CanvasPoint] {
        StrokeOutline.circle(center: end, radius: endWidth / 2, maxStep: maxStep)
    }
}
