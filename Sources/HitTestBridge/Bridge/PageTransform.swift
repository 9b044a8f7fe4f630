@_spi(Tooling) import InkCore

/// Maps canvas points to page coordinates (CSS pixels of the exercise page):
/// `page = canvas × scale + offset`, where the offset is the page's scroll position.
///
/// An app builds one (``init(scale:offsetX:offsetY:)``, ``identity``) and hands it to the
/// engine. The rest is the one view-to-page rule every front end uses, each part written
/// once: the conversions between canvas points and page points (``pagePoint(for:)``, its
/// inverse ``canvasPoint(for:)``, their rectangles, and ``pageToCanvas``, the inverse as the
/// affine map a renderer concatenates), the one validation (``isValid``), and where a view
/// that shows the page's visual viewport lands (``viewportScript`` and
/// ``init(viewportResult:)``).
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

    /// Whether the transform can map points: a finite, positive scale and finite offsets.
    /// The one rule: the engine refuses any other (``InputRefusal/invalidTransform(_:)``),
    /// and readers of recorded headers and the viewport script apply it too.
    public var isValid: Bool { scale.isFinite && scale > 0 && offsetX.isFinite && offsetY.isFinite }

    /// The inverse map, page coordinates to canvas points, as the affine transform a
    /// renderer concatenates to draw page-space ink on the view: `canvas = page × a + (tx, ty)`
    /// (`CGAffineTransform(a: a, b: 0, c: 0, d: a, tx: tx, ty: ty)`; cairo's
    /// `cairo_scale(a, a)` after `cairo_translate(tx / a, ty / a)`), the same arithmetic as
    /// ``canvasPoint(for:)``.
    public var pageToCanvas: (a: Double, tx: Double, ty: Double) { (1 / scale, -offsetX / scale, -offsetY / scale) }

    /// JavaScript, evaluated in the page (any world), whose result says where a view that
    /// shows the page's visual viewport one point per CSS pixel lands on the page:
    /// `[zoom, pageLeft, pageTop]` (`window.visualViewport`, or the scroll position where
    /// there is none). ``init(viewportResult:)`` reads it; written once for every front end.
    public static let viewportScript =
        "(function (v) { return v ? [v.scale, v.pageLeft, v.pageTop] : [1, window.scrollX, window.scrollY]; })(window.visualViewport)"

    /// The transform ``viewportScript``'s result describes (its JSON text):
    /// `page = view / zoom + (pageLeft, pageTop)`. `nil` for anything but three numbers
    /// making a valid transform (``isValid``).
    public init?(viewportResult json: String) {
        guard let value = try? JSONParser.parse(Array(json.utf8)), case let .array(items) = value, items.count == 3,
              case let .number(zoom) = items[0], case let .number(x) = items[1], case let .number(y) = items[2], zoom > 0
        else { return nil }
        self.init(scale: 1 / zoom, offsetX: x, offsetY: y)
        guard isValid else { return nil }
    }

    /// Reads a `page_transform` object of the session format and the host protocol
    /// (`{"scale":…,"offset_x":…,"offset_y":…}`, offsets 0 when absent): the one decoding.
    /// Validity (``isValid``) is the caller's rule to apply: a header refuses an invalid
    /// one, a recorded input hands it to the engine, which refuses it and counts it.
    package init(pageTransformField t: JSONFieldReader) throws(JSONShapeError) {
        self.init(scale: try t.double("scale"), offsetX: try t.optionalDouble("offset_x") ?? 0,
                  offsetY: try t.optionalDouble("offset_y") ?? 0)
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
