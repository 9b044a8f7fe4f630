@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkCore

/// The messages the bundled page script posts, as JSON text, for a fake page in an app's
/// tests: hand them to `InkLoop.submit(_:)` or `InkSession.submit(_:)` as
/// `EngineInput.pageMessage(_:)`, as a web view's message handler would.
///
/// ```swift
/// loop.submit(.pageMessage(FakePage.answer(to: request, verdict: .page)))
/// loop.submit(.pageMessage(FakePage.answer(to: request, interactiveRegions: regions)))
/// loop.submit(.pageMessage(FakePage.regions([FakePage.Region(x: 20, y: 20, width: 100, height: 40)])))
/// ```
public enum FakePage {
    /// An interactive element's rectangle, in page coordinates (CSS pixels of the document).
    public struct Region: Sendable, Hashable {
        /// The rectangle.
        public var x: Double, y: Double, width: Double, height: Double
        /// A description of the element (for logs), such as `button#check`.
        public var element: String?

        /// Creates a region.
        public init(x: Double, y: Double, width: Double, height: Double, element: String? = nil) {
            (self.x, self.y, self.width, self.height, self.element) = (x, y, width, height, element)
        }

        /// Whether the page point lies in the rectangle, edges included.
        public func contains(_ point: PagePoint) -> Bool {
            point.x >= x && point.x <= x + width && point.y >= y && point.y <= y + height
        }
    }

    /// The page script's first layout generation, as it starts on a new document.
    public static let firstGeneration = PageScript.firstGeneration

    /// The page's answer to a hit test: `{"type":"answer","id":…,"interactive":1|0,"generation":N}`.
    /// - Parameters:
    ///   - request: The question, as the engine sent it.
    ///   - verdict: `.page` when an interactive element lies under the point, else `.ink`.
    ///   - generation: The page's layout generation when it answered (default: the request's).
    ///   - document: The page document's id, as the page script names it, if any. An id the
    ///     page script would never write (empty, too long, not printable ASCII) is written as
    ///     given, so a test sees the engine refuse the message.
    public static func answer(to request: HitTestRequest, verdict: HitTestVerdict, generation: UInt64? = nil,
                              document: String? = nil) -> String {
        var answer = PageAnswer(token: request.token, verdict: verdict, generation: generation ?? request.generation)
        return naming(document, answer.json) { answer.document = $0; return answer.json }
    }

    /// `json` with the document id: the page script's encoding when the id is one it can
    /// write, else the id as given, added as the message's last field.
    private static func naming(_ document: String?, _ json: String, _ encoded: (PageDocumentID) -> String) -> String {
        guard let document else { return json }
        if let id = try? PageDocumentID(document) { return encoded(id) }
        return String(json.dropLast()) + #","document":"# + JSONValue.string(document).serialized() + "}"
    }

    /// What the page script finds under a request's point (page coordinates, as the engine
    /// computed it): `.page` when one of `regions` contains it (edges included), else `.ink`.
    public static func verdict(for request: HitTestRequest, interactiveRegions regions: [Region]) -> HitTestVerdict {
        regions.contains { $0.contains(request.pagePoint) } ? .page : .ink
    }

    /// The page's answer to a hit test, decided as the page script decides it: `.page` when
    /// one of `regions` lies under the request's point (``verdict(for:interactiveRegions:)``).
    /// - Parameters:
    ///   - request: The question, as the engine sent it.
    ///   - regions: The page's interactive elements' rectangles, page coordinates.
    ///   - generation: The page's layout generation when it answered (default: the request's).
    ///   - document: The page document's id, as the page script names it, if any.
    public static func answer(to request: HitTestRequest, interactiveRegions regions: [Region], generation: UInt64? = nil,
                              document: String? = nil) -> String {
        answer(to: request, verdict: verdict(for: request, interactiveRegions: regions), generation: generation, document: document)
    }

    /// A region snapshot the page pushes: `{"type":"regions","generation":N,"maxAge":…,"regions":[…]}`.
    /// - Parameters:
    ///   - regions: The interactive elements' rectangles.
    ///   - generation: The page's layout generation.
    ///   - maxAge: How long the snapshot stays fresh, seconds (`nil`: the engine's default).
    ///   - document: The page document's id, as the page script names it, if any (an id the
    ///     page script would never write is written as given, as in ``answer(to:verdict:generation:document:)``).
    ///   - shown: Whether the snapshot says its document is the one shown (`"shown":true`),
    ///     as the page script's first snapshot, the first after a page is restored from the
    ///     back/forward cache, and the one the loop asks for after a navigation do.
    public static func regions(_ regions: [Region], generation: UInt64 = firstGeneration, maxAge: Double? = nil,
                               document: String? = nil, shown: Bool = false) -> String {
        var snapshot = RegionSnapshot(generation: generation, maxAge: maxAge,
                                      regions: regions.map { PageRegion(x: $0.x, y: $0.y, width: $0.width, height: $0.height, element: $0.element) },
                                      shown: shown)
        return naming(document, snapshot.json) { snapshot.document = $0; return snapshot.json }
    }
}
