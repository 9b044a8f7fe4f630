/// The inputs about the page's view and document that a front end gives the engine
/// (``EngineInput/layout(_:generation:)``, ``EngineInput/newDocument(_:)``,
/// ``EngineInput/viewResized(_:)``), with their one wire form: the line a recording and the
/// host protocol carry, encoder beside decoder.
///
/// Adding such an input is a case here (the compiler then finds its line, its decoding and
/// its ``input``, all in this file), a case of `EngineInput` and the engine's handling of it;
/// the recorder, the recording's reader and writer, the replay and the host take every case
/// of this type as it is.
@_spi(Tooling) public enum PageViewInput: Sendable, Hashable {
    /// The page's transform changed (`layout` line; `generation`, when the front end knows
    /// the layout generation it read the transform in).
    case layout(PageTransform, generation: UInt64?)
    /// The page's document was replaced (`document` line), under this transform.
    case newDocument(PageTransform)
    /// The view showing the page changed size (`resize` line), under this transform.
    case viewResized(PageTransform)

    /// The input, as the engine takes it.
    public var input: EngineInput {
        switch self {
        case let .layout(transform, generation): .layout(transform, generation: generation)
        case let .newDocument(transform): .newDocument(transform)
        case let .viewResized(transform): .viewResized(transform)
        }
    }

    /// The view input an engine input is, or `nil` for one of another kind.
    public init?(_ input: EngineInput) {
        switch input {
        case let .layout(transform, generation): self = .layout(transform, generation: generation)
        case let .newDocument(transform): self = .newDocument(transform)
        case let .viewResized(transform): self = .viewResized(transform)
        case .tick, .touch, .nativePageTouch, .update, .pageMessage, .decodedPageMessage, .recordedAnswer, .sendFailed: return nil
        }
    }

    /// The transform the page is shown under from this input on.
    public var transform: PageTransform {
        switch self {
        case let .layout(transform, _), let .newDocument(transform), let .viewResized(transform): transform
        }
    }

    /// The line's `kind`.
    package var kind: String {
        switch self {
        case .layout: "layout"
        case .newDocument: "document"
        case .viewResized: "resize"
        }
    }

    /// The kinds of line this type reads.
    package static let kinds: Set<String> = ["layout", "document", "resize"]

    /// Its line at `time`: `{"kind":…,"t":…,"page_transform":{…}}`, and a layout's
    /// `generation` when it has one.
    package func line(time: Double) -> JSONValue {
        var object = JSONObject([("kind", .string(kind)), ("t", .number(time)),
                                 ("page_transform", SessionLogLines.transformObject(transform))])
        if case let .layout(_, generation) = self {
            object.append("generation", ifPresent: generation.map { .number(Double($0)) })
        }
        return .object(object)
    }

    /// Reads a line of `kind` (its other fields in `object`); `nil` when `kind` is not one of
    /// ``kinds``. The transform is decoded, not validated: the engine refuses an invalid one
    /// and counts it, as it does from a live front end.
    package static func decode(kind: String, _ object: JSONFieldReader) throws(JSONShapeError) -> PageViewInput? {
        guard kinds.contains(kind) else { return nil }
        let transform = try PageTransform(pageTransformField: try object.nested("page_transform"))
        switch kind {
        case "document": return .newDocument(transform)
        case "resize": return .viewResized(transform)
        default: return .layout(transform, generation: try object.optionalUnsigned("generation"))
        }
    }
}
