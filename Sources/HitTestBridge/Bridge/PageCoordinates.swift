@_spi(Tooling) import InkCore

/// A position on the exercise page, in page coordinates: CSS pixels of the document, its
/// scroll included (x right, y down). What the page hit-tests, what its region snapshots and
/// replays are written in; a `CanvasPoint` is where the overlay saw a touch. The two meet
/// only through ``PageTransform``: `PageTransform.pagePoint(for:)` one way,
/// `PageTransform.canvasPoint(for:)` back.
public struct PagePoint: Sendable, Hashable {
    /// Horizontal position in page units (CSS pixels).
    public var x: Double
    /// Vertical position in page units (CSS pixels).
    public var y: Double

    /// Creates a point from its page coordinates.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// An axis-aligned rectangle on the exercise page, in page coordinates (CSS pixels of the
/// document): a region's rectangle, the page area a canvas rectangle shows
/// (`PageTransform.pageRect(for:)`, and back with `PageTransform.canvasRect(for:)`).
public struct PageRect: Sendable, Hashable {
    /// Smallest x.
    public var minX: Double
    /// Smallest y.
    public var minY: Double
    /// Largest x.
    public var maxX: Double
    /// Largest y.
    public var maxY: Double

    /// Creates a rectangle from its extremes.
    public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }

    /// Width in page units.
    public var width: Double { maxX - minX }
    /// Height in page units.
    public var height: Double { maxY - minY }

    /// Whether the point lies inside (edges included).
    public func contains(_ point: PagePoint) -> Bool {
        point.x >= minX && point.x <= maxX && point.y >= minY && point.y <= maxY
    }
}

/// A front end that keeps its ink on the page (an `InkLayer` fed
/// `RouterAction.inPageCoordinates(_:)`, so the ink scrolls and zooms with the content) holds
/// page coordinates in InkCore's geometry types: its strokes, their bounds and its tiles. These
/// name that one crossing, so a page rectangle never becomes a canvas one unnoticed.
extension PageRect {
    /// The page rectangle an ink-on-the-page layer's `CanvasRect` (a change's bounds, a
    /// tile) stands for.
    public init(inkLayerRect rect: CanvasRect) {
        self.init(minX: rect.minX, minY: rect.minY, maxX: rect.maxX, maxY: rect.maxY)
    }

    /// The rectangle in an ink-on-the-page layer's geometry type, to compare with its
    /// strokes and tiles.
    public var inkLayerRect: CanvasRect {
        CanvasRect(minX: minX, minY: minY, maxX: maxX, maxY: maxY)
    }
}

extension PagePoint {
    /// The page point an ink-on-the-page layer's `CanvasPoint` (a point of a stroke's
    /// outline) stands for.
    public init(inkLayerPoint point: CanvasPoint) {
        self.init(x: point.x, y: point.y)
    }
}
