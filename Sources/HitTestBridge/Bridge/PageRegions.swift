@_spi(Tooling) import InkCore
/// A rectangle of the page that holds an interactive element, in page coordinates.
@_spi(Tooling) public struct PageRegion: Sendable, Hashable {
    /// Left edge in page units.
    public var x: Double
    /// Top edge in page units.
    public var y: Double
    /// Width in page units (≥ 0).
    public var width: Double
    /// Height in page units (≥ 0).
    public var height: Double
    /// The element's identifier on the page (for reports); `nil` when the page gave none.
    public var element: String?

    /// Creates a region.
    public init(x: Double, y: Double, width: Double, height: Double, element: String? = nil) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.element = element
    }

    /// The region's rectangle, in page coordinates.
    public var rect: PageRect { PageRect(minX: x, minY: y, maxX: x + width, maxY: y + height) }

    /// Whether the page point lies inside the region (edges included).
    public func contains(_ point: PagePoint) -> Bool {
        point.x >= x && point.x <= x + width && point.y >= y && point.y <= y + height
    }
}

/// The interactive regions of the page at one moment, as the page pushed them.
@_spi(Tooling) public struct RegionSnapshot: Sendable, Hashable {
    /// The page's layout generation; increases whenever the layout changes.
    public var generation: UInt64
    /// Seconds the snapshot may be trusted after it was taken (like an HTTP max-age);
    /// `nil` when the page gave no bound.
    public var maxAge: Double?
    /// The interactive regions, in page coordinates.
    public var regions: [PageRegion]
    /// The page document that pushed the snapshot (`PageDocumentID`); `nil` when the
    /// message named none (an older page script, a session log): it then belongs to the
    /// current document.
    public var document: PageDocumentID?
    /// Whether the page says, with this snapshot, that its document is the one shown now
    /// (`"shown":true`): the page script's first snapshot, the first after the page is shown
    /// again from the back/forward cache (`pageshow` with `persisted`), and one the front end
    /// asked for (`PageScript.pushRegionsInvocation`). A shown snapshot makes its document the
    /// current one, a retired one included (see `HitTestBroker`'s document rule).
    public var shown: Bool

    /// Creates a snapshot.
    public init(generation: UInt64, maxAge: Double? = nil, regions: [PageRegion], document: PageDocumentID? = nil,
                shown: Bool = false) {
        self.generation = generation
        self.maxAge = maxAge
        self.regions = regions
        self.document = document
        self.shown = shown
    }

    /// What the page would answer for a point in page coordinates: `.page` when an
    /// interactive region contains it, else `.ink`.
    public func verdict(at pagePoint: PagePoint) -> HitTestVerdict {
        regions.contains { $0.contains(pagePoint) } ? .page : .ink
    }
}
