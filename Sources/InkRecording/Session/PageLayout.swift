@_spi(Tooling) import InkCore
@_spi(Tooling) import HitTestBridge
/// A page to lay under recorded ink: the interactive rectangles of an exercise page, the
/// canvas over it and how canvas points map to the page. Converters use a layout to turn
/// ink recorded elsewhere (InkML, Quick, Draw!) into sessions that also exercise the
/// ink-or-page decision: a touch that begins on an interactive rectangle is the page's.
///
/// The file format (`scratchpad-ink-layout`, version 1) is documented in
/// `docs/session-format.md`; the repository ships layouts in `Fixtures/layouts`.
public struct PageLayout: Sendable, Hashable {
    /// The format name every layout file carries.
    public static let formatName = "scratchpad-ink-layout"

    /// A short name (used in session headers).
    public var name: String
    /// The canvas size in canvas points.
    public var canvas: CanvasSize
    /// Canvas points to page coordinates.
    public var pageTransform: PageTransform
    /// The interactive rectangles, in page coordinates.
    @_spi(Tooling) public var regions: [PageRegion]
    /// Seconds a pushed snapshot stays fresh; the page re-pushes it every half of this
    /// (like the page script's heartbeat).
    public var maxAge: Double
    /// Where recorded ink is placed, in canvas points: the ink's bounding box is scaled
    /// uniformly and centred into this rectangle. `nil` keeps the recorded coordinates.
    @_spi(Tooling) public var inkArea: PageRegion?

    /// Creates a layout.
    @_spi(Tooling) public init(
        name: String, canvas: CanvasSize, pageTransform: PageTransform = .identity, regions: [PageRegion],
        maxAge: Double = 1, inkArea: PageRegion? = nil
    ) {
        self.name = name
        self.canvas = canvas
        self.pageTransform = pageTransform
        self.regions = regions
        self.maxAge = maxAge
        self.inkArea = inkArea
    }

    /// A page with nothing interactive on it (what a drawing game has under its canvas).
    public static func emptyPage(canvas: CanvasSize) -> PageLayout {
        PageLayout(name: "empty page", canvas: canvas, regions: [])
    }

    /// The snapshot the page pushes.
    @_spi(Tooling) public var snapshot: RegionSnapshot { RegionSnapshot(generation: 1, maxAge: maxAge, regions: regions) }

    /// What the page answers for a canvas point.
    public func verdict(atCanvas point: CanvasPoint) -> HitTestVerdict {
        snapshot.verdict(at: pageTransform.pagePoint(for: point))
    }

    /// Reads a layout file's JSON.
    ///
    /// - Throws: ``PageLayoutError`` naming the field (or the column of a syntax error).
    public static func parse<Bytes: Collection>(_ bytes: Bytes, file: String? = nil) throws(PageLayoutError) -> PageLayout
    where Bytes.Element == UInt8 {
        let value: JSONValue
        do { value = try JSONParser.parse(bytes, maxDepth: 8) } catch {
            throw PageLayoutError(file: file, field: nil, message: "malformed JSON at column \(error.column): \(error.message)")
        }
        do throws(JSONShapeError) {
            let object = try JSONFieldReader(value)
            guard try object.string("format") == formatName else {
                throw JSONShapeError(field: "format", message: "expected \"\(formatName)\"")
            }
            let version = try object.unsigned("version")
            guard version == 1 else { throw JSONShapeError(field: "version", message: "version \(version) is not supported (1 is)") }
            let canvasObject = try object.nested("canvas")
            let canvas = CanvasSize(width: try canvasObject.double("width"), height: try canvasObject.double("height"))
            guard canvas.width > 0, canvas.height > 0, canvas.width.isFinite, canvas.height.isFinite else {
                throw JSONShapeError(field: "canvas", message: "width and height must be positive and finite")
            }
            var transform = PageTransform.identity
            if let t = try object.optionalNested("page_transform") {
                transform = try PageTransform(pageTransformField: t)
                guard transform.isValid else {
                    throw JSONShapeError(field: "page_transform", message: "scale must be positive and every value finite")
                }
            }
            let maxAge = try object.optionalDouble("max_age") ?? 1
            guard maxAge > 0, maxAge.isFinite else { throw JSONShapeError(field: "max_age", message: "must be positive and finite") }
            var regions: [PageRegion] = []
            for (index, region) in try object.objects("regions").enumerated() {
                regions.append(try rectangle(region, field: "regions[\(index)]"))
            }
            let inkArea = try object.optionalNested("ink_area").map { (area) throws(JSONShapeError) in
                try rectangle(area, field: "ink_area")
            }
            return PageLayout(
                name: try object.optionalString("name") ?? "layout", canvas: canvas, pageTransform: transform,
                regions: regions, maxAge: maxAge, inkArea: inkArea)
        } catch {
            throw PageLayoutError(file: file, field: error.field, message: error.message)
        }
    }

    private static func rectangle(_ object: JSONFieldReader, field: String) throws(JSONShapeError) -> PageRegion {
        let region = PageRegion(
            x: try object.double("x"), y: try object.double("y"), width: try object.double("width"),
            height: try object.double("height"), element: try object.optionalString("element"))
        guard [region.x, region.y, region.width, region.height].allSatisfy(\.isFinite), region.width > 0, region.height > 0 else {
            throw JSONShapeError(field: field, message: "x, y must be finite and width, height positive")
        }
        return region
    }
}

/// Why a layout file could not be read.
public struct PageLayoutError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file, when known.
    public var file: String?
    /// The field at fault (`regions[2].width`), when the JSON itself was well formed.
    public var field: String?
    /// What was wrong.
    public var message: String

    /// `file: field: message`.
    public var description: String {
        (file ?? "<layout>") + ": " + (field.map { "\($0): " } ?? "") + message
    }
}
