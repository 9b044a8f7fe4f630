/// The inputs a front end gives the engine besides touches and the page's messages: about the
/// page's view and document (``EngineInput/layout(_:generation:)``,
/// ``EngineInput/newDocument(_:)``, ``EngineInput/viewResized(_:)``) and about the pencil
/// (``EngineInput/pencilHovering(_:)``, ``EngineInput/pencilOnly(_:)``), with their one wire
/// form: the line a recording and the host protocol carry, encoder beside decoder.
///
/// Adding such an input is a case here (the compiler then finds its line, its decoding and
/// its ``input``, all in this file), a case of `EngineInput` and the engine's handling of it;
/// the recorder, the recording's reader and writer, the replay and the host take every case
/// of this type as it is.
@_spi(Tooling) public enum FrontEndInput: Sendable, Hashable {
    /// The page's transform changed (`layout` line; `generation`, when the front end knows
    /// the layout generation it read the transform in).
    case layout(PageTransform, generation: UInt64?)
    /// The page's document was replaced (`document` line), under this transform.
    case newDocument(PageTransform)
    /// The view showing the page changed size (`resize` line), under this transform.
    case viewResized(PageTransform)
    /// The pencil began (`true`) or stopped (`false`) hovering over the overlay
    /// (`pencil_hover` line, field `hovering`).
    case pencilHovering(Bool)
    /// The user's pencil-only setting, read now (`pencil_only` line, field `on`).
    case pencilOnly(Bool)

    /// The input, as the engine takes it.
    public var input: EngineInput {
        switch self {
        case let .layout(transform, generation): .layout(transform, generation: generation)
        case let .newDocument(transform): .newDocument(transform)
        case let .viewResized(transform): .viewResized(transform)
        case let .pencilHovering(hovering): .pencilHovering(hovering)
        case let .pencilOnly(on): .pencilOnly(on)
        }
    }

    /// The front-end input an engine input is, or `nil` for one of another kind.
    public init?(_ input: EngineInput) {
        switch input {
        case let .layout(transform, generation): self = .layout(transform, generation: generation)
        case let .newDocument(transform): self = .newDocument(transform)
        case let .viewResized(transform): self = .viewResized(transform)
        case let .pencilHovering(hovering): self = .pencilHovering(hovering)
        case let .pencilOnly(on): self = .pencilOnly(on)
        case .tick, .touch, .nativePageTouch, .update, .pageMessage, .decodedPageMessage, .recordedAnswer, .sendFailed: return nil
        }
    }

    /// The transform the page is shown under from this input on; `nil` for an input about
    /// the pencil, which leaves it as it was.
    public var transform: PageTransform? {
        switch self {
        case let .layout(transform, _), let .newDocument(transform), let .viewResized(transform): transform
        case .pencilHovering, .pencilOnly: nil
        }
    }

    /// The line's `kind`.
    package var kind: String {
        switch self {
        case .layout: "layout"
        case .newDocument: "document"
        case .viewResized: "resize"
        case .pencilHovering: "pencil_hover"
        case .pencilOnly: "pencil_only"
        }
    }

    /// The kinds of line this type reads.
    package static let kinds: Set<String> = ["layout", "document", "resize", "pencil_hover", "pencil_only"]

    /// Its line at `time`: `{"kind":…,"t":…}` with the page transform (and a layout's
    /// `generation` when it has one), or the pencil's `hovering` or `on`.
    package func line(time: Double) -> JSONValue {
        var object = JSONObject([("kind", .string(kind)), ("t", .number(time))])
        switch self {
        case let .layout(transform, generation):
            object.append("page_transform", SessionLogLines.transformObject(transform))
            object.append("generation", ifPresent: generation.map { .number(Double($0)) })
        case let .newDocument(transform), let .viewResized(transform):
            object.append("page_transform", SessionLogLines.transformObject(transform))
        case let .pencilHovering(hovering):
            object.append("hovering", .bool(hovering))
        case let .pencilOnly(on):
            object.append("on", .bool(on))
        }
        return .object(object)
    }

    /// Reads a line of `kind` (its other fields in `object`); `nil` when `kind` is not one of
    /// ``kinds``. A transform is decoded, not validated: the engine refuses an invalid one
    /// and counts it, as it does from a live front end.
    package static func decode(kind: String, _ object: JSONFieldReader) throws(JSONShapeError) -> FrontEndInput? {
        switch kind {
        case "pencil_hover": return .pencilHovering(try object.bool("hovering"))
        case "pencil_only": return .pencilOnly(try object.bool("on"))
        case "document": return .newDocument(try PageTransform(pageTransformField: try object.nested("page_transform")))
        case "resize": return .viewResized(try PageTransform(pageTransformField: try object.nested("page_transform")))
        case "layout":
            return .layout(try PageTransform(pageTransformField: try object.nested("page_transform")),
                           generation: try object.optionalUnsigned("generation"))
        default: return nil
        }
    }
}
