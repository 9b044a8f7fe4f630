@_spi(Tooling) import InkCore

/// Maps canvas points to page coordinates (CSS pixels of the exercise page):
/// `page = canvas × scale + offset`, where the offset is the page's scroll position.
///
/// An app builds one (``init(scale:offsetX:offsetY:)``, ``identity``) and hands it to the
/// engine; the conversions between canvas points and page points (`pagePoint(for:)`, its
/// inverse `canvasPoint(for:)`, and their rectangles) are for front ends and tools
/// (`@_spi(FrontEnd)`), each direction written once.
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

    /// The page position under a canvas point: `page = canvas × scale + offset`, the one
    /// place this direction is written.
    public func pagePoint(for point: CanvasPoint) -> PagePoint {
        PagePoint(x: point.x * scale + offsetX, y: point.y * scale + offsetY)
    }

    /// The canvas point that shows a page position: the inverse of `pagePoint(for:)`
    /// (`canvas = (page − offset) / scale`), the one place it is written.
    public func canvasPoint(for pagePoint: PagePoint) -> CanvasPoint {
        CanvasPoint(x: (pagePoint.x - offsetX) / scale, y: (pagePoint.y - offsetY) / scale)
    }

    /// The page rectangle under a canvas rectangle (each corner through `pagePoint(for:)`).
    public func pageRect(for rect: CanvasRect) -> PageRect {
        let low = pagePoint(for: CanvasPoint(x: rect.minX, y: rect.minY))
        let high = pagePoint(for: CanvasPoint(x: rect.maxX, y: rect.maxY))
        return PageRect(minX: low.x, minY: low.y, maxX: high.x, maxY: high.y)
    }

    /// The canvas rectangle that shows a page rectangle: the inverse of `pageRect(for:)`
    /// (each corner through `canvasPoint(for:)`).
    public func canvasRect(for pageRect: PageRect) -> CanvasRect {
        let low = canvasPoint(for: PagePoint(x: pageRect.minX, y: pageRect.minY))
        let high = canvasPoint(for: PagePoint(x: pageRect.maxX, y: pageRect.maxY))
        return CanvasRect(minX: low.x, minY: low.y, maxX: high.x, maxY: high.y)
    }
}

extension RouterAction {
    /// The action with its samples' positions moved from canvas points to page coordinates
    /// through `transform`, for a front end that keeps ink on the page (it then scrolls and
    /// zooms with the content, drawn back through the current transform). Actions that carry
    /// no sample to draw are returned as they are.
    public func inPageCoordinates(_ transform: PageTransform) -> RouterAction {
        func place(_ sample: TouchSample) -> TouchSample {
            var placed = sample
            let point = transform.pagePoint(for: sample.point)
            placed.x = point.x
            placed.y = point.y
            return placed
        }
        switch self {
        case let .ink(id, sample): return .ink(id, place(sample))
        case let .predictInk(id, samples): return .predictInk(id, samples.map(place))
        case let .refineInk(id, index, sample): return .refineInk(id, index: index, place(sample))
        default: return self
        }
    }
}
