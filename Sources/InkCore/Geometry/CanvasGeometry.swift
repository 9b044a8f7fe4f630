/// Vector arithmetic on canvas points (used as 2-D vectors inside the geometry code).
extension CanvasPoint {
    package static func + (a: CanvasPoint, b: CanvasPoint) -> CanvasPoint { CanvasPoint(x: a.x + b.x, y: a.y + b.y) }
    package static func - (a: CanvasPoint, b: CanvasPoint) -> CanvasPoint { CanvasPoint(x: a.x - b.x, y: a.y - b.y) }
    package static func * (a: CanvasPoint, s: Double) -> CanvasPoint { CanvasPoint(x: a.x * s, y: a.y * s) }
    package static func / (a: CanvasPoint, s: Double) -> CanvasPoint { CanvasPoint(x: a.x / s, y: a.y / s) }

    /// Euclidean length of the point taken as a vector.
    package var length: Double { (x * x + y * y).squareRoot() }

    /// Distance to another point, in canvas points.
    public func distance(to other: CanvasPoint) -> Double { (self - other).length }

    /// The vector turned a quarter turn counter-clockwise (in y-down coordinates: to the left
    /// of the direction of travel when drawn on screen it is to the right; only consistency
    /// matters here).
    package var perpendicular: CanvasPoint { CanvasPoint(x: -y, y: x) }

    /// The unit vector in this direction, or `nil` for a (near) zero vector.
    package var normalized: CanvasPoint? {
        let l = length
        return l > 1e-12 ? self / l : nil
    }

    /// Linear interpolation.
    package static func lerp(_ a: CanvasPoint, _ b: CanvasPoint, _ t: Double) -> CanvasPoint { a + (b - a) * t }
}

/// An axis-aligned rectangle in canvas points.
public struct CanvasRect: Sendable, Hashable {
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

    /// The rectangle around a point, grown by `radius` on every side.
    public init(around point: CanvasPoint, radius: Double) {
        self.init(minX: point.x - radius, minY: point.y - radius, maxX: point.x + radius, maxY: point.y + radius)
    }

    /// Width in canvas points.
    public var width: Double { maxX - minX }
    /// Height in canvas points.
    public var height: Double { maxY - minY }

    /// The smallest rectangle containing both.
    public func union(_ other: CanvasRect) -> CanvasRect {
        CanvasRect(minX: min(minX, other.minX), minY: min(minY, other.minY),
                   maxX: max(maxX, other.maxX), maxY: max(maxY, other.maxY))
    }

    /// Whether the point lies inside (edges included).
    public func contains(_ point: CanvasPoint) -> Bool {
        point.x >= minX && point.x <= maxX && point.y >= minY && point.y <= maxY
    }

    /// The union of an optional rectangle and another.
    package static func union(_ a: CanvasRect?, _ b: CanvasRect?) -> CanvasRect? {
        switch (a, b) {
        case let (a?, b?): return a.union(b)
        case let (a?, nil): return a
        case let (nil, b?): return b
        case (nil, nil): return nil
        }
    }
}
