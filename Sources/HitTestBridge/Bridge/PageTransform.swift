import InkCore

/// Maps canvas points to page coordinates (CSS pixels of the exercise page):
/// `page = canvas × scale + offset`, where the offset is the page's scroll position.
public struct PageTransform: Sendable, Hashable {
    /// Page units per canvas point (1 when the canvas and the page share a scale).
    public var scale: Double
    /// Horizontal page offset in page units (the page's horizontal scroll position).
    public var offsetX: Double
    /// Vertical page offset in page units (the page's vertical scroll position).
    public var offsetY: Double

    /// The identity transform.
    public static let identity = PageTransform(scale: 1, offsetX: 0, offsetY: 0)

    /// Creates a transform.
    public init(scale: Double, offsetX: Double, offsetY: Double) {
        self.scale = scale
        self.offsetX = offsetX
        self.offsetY = offsetY
    }

    /// The page position under a canvas point.
    public func pagePoint(for point: CanvasPoint) -> CanvasPoint {
        CanvasPoint(x: point.x * scale + offsetX, y: point.y * scale + offsetY)
    }
}
