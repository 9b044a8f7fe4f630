@_spi(Tooling) import InkCore

/// The id of one round trip to the page: 128 random bits, written as 32 lowercase hex
/// digits. A page script cannot guess the id of another touch's query, so it cannot answer
/// for it; an answer with an id never issued is counted as forged.
@_spi(Tooling) public struct QueryToken: Sendable, Hashable, CustomStringConvertible {
    /// The high and low 64 bits.
    public let high: UInt64, low: UInt64

    /// Creates a token from its bits.
    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// Draws a token from a random number generator (the system's in production).
    public static func random(using generator: inout some RandomNumberGenerator) -> QueryToken {
        QueryToken(high: generator.next(), low: generator.next())
    }

    /// Parses 32 lowercase hex digits; `nil` for anything else.
    public init?(hex: String) {
        let utf8 = Array(hex.utf8)
        guard utf8.count == 32 else { return nil }
        var words: [UInt64] = [0, 0]
        for (i, byte) in utf8.enumerated() {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            default: return nil
            }
            words[i / 16] = words[i / 16] << 4 | UInt64(digit)
        }
        self.init(high: words[0], low: words[1])
    }

    /// The 32 hex digits.
    public var description: String {
        func hex(_ word: UInt64) -> String {
            let digits = String(word, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }
        return hex(high) + hex(low)
    }
}

/// The question sent to the page: is an interactive element at this page point?
///
/// A shell sends it (``scriptInvocation``) and hands the same request back when the send
/// failed (``EngineInput/sendFailed(_:)``); the loop names it again when its send is needed no
/// more (``InkLoopShell/cancelSend(_:)``). Two requests are equal exactly when they are the
/// same round trip.
public struct HitTestRequest: Sendable, Hashable {
    /// The round trip's id, echoed by the answer.
    @_spi(Tooling) public var token: QueryToken
    /// The point in page coordinates (the canvas point through the `PageTransform`). A
    /// front end or a fake page reads it; an app hands ``scriptInvocation`` to its page.
    public var pagePoint: PagePoint
    /// The layout generation the point was computed for.
    public var generation: UInt64

    /// Creates a request.
    @_spi(Tooling) public init(token: QueryToken, pagePoint: PagePoint, generation: UInt64) {
        self.token = token
        self.pagePoint = pagePoint
        self.generation = generation
    }

    /// The request as a JSON object:
    /// `{"type":"hitTest","id":"<32 hex>","x":…,"y":…,"generation":…}`.
    public var json: String {
        JSONValue.object(JSONObject([
            ("type", .string("hitTest")), ("id", .string(token.description)),
            ("x", .number(pagePoint.x.isFinite ? pagePoint.x : 0)), ("y", .number(pagePoint.y.isFinite ? pagePoint.y : 0)),
            ("generation", .number(Double(generation))),
        ])).serialized()
    }

    /// JavaScript that hands the request to the page script. Built only from our own
    /// numbers and hex digits, serialised as JSON: no string from the page is ever
    /// interpolated into script source.
    ///
    /// It always evaluates to a boolean, never `undefined`: `true` when the page script was
    /// there to take the request, `false` when it is not installed (yet) in the world the
    /// script was evaluated in. Some WebKit versions' async `evaluateJavaScript` fail on a
    /// script whose result is `undefined`; and `false` tells an oracle the request went nowhere
    /// (throw, and the bridge's fallback decides at once instead of at the timeout).
    public var scriptInvocation: String {
        "(window.scratchpadInk ? (window.scratchpadInk.hitTest(\(json)), true) : false);"
    }
}

/// The page's answer to a ``HitTestRequest``.
@_spi(Tooling) public struct PageAnswer: Sendable, Hashable {
    /// The id of the request answered.
    public var token: QueryToken
    /// `.page` when the page found an interactive element there.
    public var verdict: HitTestVerdict
    /// The page's layout generation when it answered.
    public var generation: UInt64
    /// The page document that answered (`PageDocumentID`); `nil` when the message named
    /// none (an older page script, a session log): it then belongs to the current document.
    public var document: PageDocumentID?

    /// Creates an answer.
    public init(token: QueryToken, verdict: HitTestVerdict, generation: UInt64, document: PageDocumentID? = nil) {
        self.token = token
        self.verdict = verdict
        self.generation = generation
        self.document = document
    }
}

/// A message from the page, decoded and validated.
///
/// Every message may name the page document that posted it, `"document":"<id>"` (see
/// `PageDocumentID`; the bundled page script always does). A malformed id refuses the
/// whole message (`WireMessageError.document(_:)`).
@_spi(Tooling) public enum PageMessage: Sendable, Hashable {
    /// `{"type":"answer","id":"<32 hex>","interactive":1|0|true|false,"generation":N,"document":"<id>"?}`
    case answer(PageAnswer)
    /// `{"type":"regions","generation":N,"document":"<id>"?,"shown":true?,"maxAge":<ms>,"regions":[{"x","y","width","height","element"?}…]}`
    case regions(RegionSnapshot)

    /// The page document the message names, if any.
    public var document: PageDocumentID? {
        switch self {
        case let .answer(answer): answer.document
        case let .regions(snapshot): snapshot.document
        }
    }

    /// The largest message accepted by default, bytes.
    public static let defaultMaxBytes = 1 << 20

    /// Decodes a message the page posted. Size is checked before anything is parsed.
    /// - Throws: `WireMessageError` naming what was wrong and where.
    public static func decode(_ text: String, maxBytes: Int = defaultMaxBytes) throws(WireMessageError) -> PageMessage {
        try decode(text.utf8, maxBytes: maxBytes)
    }

    /// Decodes a message from its UTF-8 bytes. Size is checked before anything is parsed.
    /// - Throws: `WireMessageError` naming what was wrong and where.
    public static func decode<Bytes: Collection<UInt8>>(_ bytes: Bytes, maxBytes: Int = defaultMaxBytes) throws(WireMessageError) -> PageMessage {
        guard bytes.count <= maxBytes else { throw .tooLarge(bytes: bytes.count, limit: maxBytes) }
        let value: JSONValue
        do { value = try JSONParser.parse(bytes) } catch { throw .syntax(column: error.column, message: error.message) }
        return try decode(value: value)
    }

    /// Decodes a message already parsed as JSON (a host protocol that carries page messages
    /// inside its own lines decodes each line once).
    /// - Throws: `WireMessageError.shape(field:message:)` naming what was wrong, or
    ///   `WireMessageError.document(_:)` for a malformed document id.
    package static func decode(value: JSONValue) throws(WireMessageError) -> PageMessage {
        guard case .object = value else { throw .shape(field: "(message)", message: "expected an object, found \(value.typeName)") }
        let documentText: String?
        do throws(JSONShapeError) {
            documentText = try JSONFieldReader(value).optionalString("document")
        } catch {
            throw .shape(field: error.field, message: error.message)
        }
        var document: PageDocumentID?
        if let documentText {
            do { document = try PageDocumentID(documentText) } catch { throw .document(error) }
        }
        do throws(JSONShapeError) {
            let reader = try JSONFieldReader(value)
            let type = try reader.string("type")
            switch type {
            case "answer":
                let id = try reader.string("id")
                guard let token = QueryToken(hex: id) else {
                    throw JSONShapeError(field: "id", message: "expected 32 lowercase hex digits")
                }
                let interactive = try reader.bool("interactive")
                return .answer(PageAnswer(token: token, verdict: interactive ? .page : .ink,
                                          generation: try reader.unsigned("generation"), document: document))
            case "regions":
                let generation = try reader.unsigned("generation")
                let maxAge = try reader.optionalDouble("maxAge")
                if let maxAge, !(maxAge >= 0) {
                    throw JSONShapeError(field: "maxAge", message: "expected milliseconds, at least 0")
                }
                var regions: [PageRegion] = []
                for (i, item) in try reader.array("regions").enumerated() {
                    let region = try JSONFieldReader(item, path: "regions[\(i)]")
                    let width = try region.double("width"), height = try region.double("height")
                    guard width >= 0 else { throw JSONShapeError(field: region.fieldPath("width"), message: "expected at least 0") }
                    guard height >= 0 else { throw JSONShapeError(field: region.fieldPath("height"), message: "expected at least 0") }
                    regions.append(PageRegion(x: try region.double("x"), y: try region.double("y"), width: width, height: height,
                                              element: try region.optionalString("element")))
                }
                return .regions(RegionSnapshot(generation: generation, maxAge: maxAge.map { $0 / 1000 }, regions: regions,
                                               document: document, shown: try reader.optionalBool("shown") ?? false))
            default:
                throw JSONShapeError(field: "type", message: "expected \"answer\" or \"regions\", found \"\(type.prefix(40))\"")
            }
        } catch {
            throw .shape(field: error.field, message: error.message)
        }
    }
}

/// Why a page message was refused.
@_spi(Tooling) public enum WireMessageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The message is larger than the cap; it was not parsed.
    case tooLarge(bytes: Int, limit: Int)
    /// Not valid JSON (or nested too deep, or invalid UTF-8).
    case syntax(column: Int, message: String)
    /// Valid JSON of the wrong shape: which field, what was expected.
    case shape(field: String, message: String)
    /// The `document` field is a string, but not a document id the bridge accepts.
    case document(PageDocumentIDError)

    public var description: String {
        switch self {
        case let .document(error): "field 'document': \(error)"
        case let .tooLarge(bytes, limit): "message of \(bytes) bytes exceeds the limit of \(limit)"
        case let .syntax(column, message): "not JSON: column \(column): \(message)"
        case let .shape(field, message): "field '\(field)': \(message)"
        }
    }
}
