import InkCore

/// Ink held where it was written on the page: the strokes in page coordinates (CSS pixels of
/// the document, scroll included), so they scroll and zoom with the content and a front end
/// draws them back through the current ``PageTransform`` (``PageTransform/pageToCanvas``).
/// The one ink store of every front end over a page (InkUIKit, the GTK twin, an app's own).
///
/// Actions come in with their samples in canvas points; ``apply(_:through:)`` places them on
/// the page through the transform the engine held for them, the one place canvas samples
/// become page positions. Everything it returns about where ink lies is in page types
/// (``PageRect``); the strokes' own geometry (``finished``, ``active``, `tiles`) is laid out
/// in page coordinates too, in the geometry's types.
///
/// ```swift
/// var ink = PageInk()
/// if let action = event.action, let changed = ink.apply(action, through: transform) {
///     overlay.setNeedsDisplay(transform.canvasRect(for: changed))   // where it shows now
/// }
/// ```
public struct PageInk: Sendable {
    /// The strokes, laid out in page coordinates.
    public private(set) var layer: InkLayer

    /// Creates empty ink.
    /// - Parameters:
    ///   - style: The style new strokes are made with.
    ///   - tileSize: The side of a tile of ``tiles``, in page coordinates.
    public init(style: StrokeStyle = StrokeStyle(), tileSize: Double = 256) {
        layer = InkLayer(style: style, tileSize: tileSize)
    }

    /// Finished strokes, oldest first, in page coordinates.
    public var finished: [InkLayer.Stroke] { layer.finished }
    /// Strokes being drawn (the volatile part a renderer redraws as they change), in page
    /// coordinates.
    public var active: [InkLayer.Stroke] { layer.active }
    /// Every stroke: the finished ones, oldest first, then those being drawn.
    public var strokes: [InkLayer.Stroke] { layer.strokes }
    /// Where the finished strokes lie, by tiles of page coordinates, each with its revision:
    /// what a renderer that keeps finished ink as pictures reads (``tileRect(_:)`` gives a
    /// tile's page rectangle).
    public var tiles: InkTileIndex { layer.tiles }

    /// Applies one engine action, its samples placed on the page through `transform` (the
    /// transform the engine held when it made the action: the front end's current one).
    /// Returns the page area to redraw, or `nil` when nothing visible changed (actions about
    /// the page change nothing).
    @discardableResult
    public mutating func apply(_ action: RouterAction, through transform: PageTransform) -> PageRect? {
        layer.apply(action.inPageCoordinates(transform))?.bounds.map(PageRect.init(inkLayerRect:))
    }

    /// Undo: removes the most recent finished stroke (strokes being drawn stay; the engine's
    /// ledger is unchanged: the samples were inked, the user erased the ink). Returns the
    /// stroke's touch and the page area to redraw, or `nil` when no stroke is finished.
    public mutating func undo() -> (touch: TouchID, bounds: PageRect?)? {
        layer.removeLastStroke().map { ($0.touch, $0.bounds.map(PageRect.init(inkLayerRect:))) }
    }

    /// Clear: removes every finished stroke (strokes being drawn stay). Returns the page area
    /// to redraw, `nil` when nothing was removed.
    public mutating func clear() -> PageRect? {
        layer.removeFinishedStrokes().map(PageRect.init(inkLayerRect:))
    }

    /// Every stroke's outline polygons where they show through `transform` (canvas points),
    /// oldest stroke first: filling each (nonzero winding) draws the ink. The simplest
    /// renderer's whole drawing; one that keeps finished ink as pictures reads ``tiles``.
    public func forEachPolygon(through transform: PageTransform, _ fill: ([CanvasPoint]) -> Void) {
        for stroke in layer.strokes {
            let segments = stroke.segments
            for (index, segment) in segments.enumerated() {
                var polygons = [segment.outline(), segment.startCap()]
                if index == segments.count - 1 { polygons.append(segment.endCap()) }
                for polygon in polygons where !polygon.isEmpty {
                    fill(polygon.map { transform.canvasPoint(for: PagePoint(inkLayerPoint: $0)) })
                }
            }
        }
    }

    /// A tile's rectangle on the page.
    public func tileRect(_ tile: InkTileIndex.Tile) -> PageRect { PageRect(inkLayerRect: layer.tiles.rect(of: tile)) }

    /// The tiles covering a page area, or `nil` when more than `limit` would.
    public func tiles(covering area: PageRect, limit: Int) -> [InkTileIndex.Tile]? {
        layer.tiles.tiles(covering: area.inkLayerRect, limit: limit)
    }

    /// The one colour rule for ink over a page: the app's colour when it set one; else the
    /// candidate that contrasts most with the page's background
    /// (`InkColor.contrasting(with:candidates:)`), or, while the background is unknown, with a
    /// dark canvas in a dark appearance and white otherwise; 92 % opaque, so the page shows
    /// through where ink crosses it.
    /// - Parameters:
    ///   - chosen: The app's own ink colour, if any: used as it is.
    ///   - background: The page's background (``PageBackground``), `nil` until known.
    ///   - darkAppearance: Whether the system shows a dark appearance.
    public static func color(chosen: InkColor? = nil, background: InkColor?, darkAppearance: Bool) -> InkColor {
        if let chosen { return chosen }
        let backdrop = background ?? (darkAppearance ? PageBackground.darkCanvas : .white)
        return InkColor.contrasting(with: backdrop).withAlpha(0.92)
    }
}
