@_spi(Tooling) import InkCore
@_spi(Tooling) import HitTestBridge

// Reading the lines of a live recording (format version 2; docs/session-format.md). The
// lines are written by HitTestBridge's `SessionLogLines`, the one encoder.
extension SessionLogLineReader {
    /// Reads a header's `recorder` block, when there is one.
    static func readRecorder(_ object: JSONFieldReader, into header: inout SessionHeader) throws(JSONShapeError) {
        guard let recorder = try object.optionalNested("recorder") else {
            // A recording's header cannot switch its checks off by losing its recorder block.
            guard header.version < SessionLogLines.firstRecordingVersion else {
                throw JSONShapeError(field: "recorder", message: "missing: format version \(header.version) is a live recording, whose header names "
                    + "its recorder (engine and configuration); a log of inputs is version 1")
            }
            return
        }
        guard header.version >= SessionLogLines.firstRecordingVersion else {
            throw JSONShapeError(field: "recorder", message: "a recording is format version \(SessionLogLines.firstRecordingVersion) or later")
        }
        header.engineVersion = try recorder.optionalString("engine")
        header.engineConfiguration = try SessionLogLines.configuration(from: try recorder.nested("configuration"))
        header.pageGeneration = try recorder.optionalUnsigned("page_generation")
        header.elementIDs = try recorder.optionalBool("element_ids") ?? true
    }

    /// A line's optional `document`: a page document id (``PageDocumentID``), validated.
    static func document(_ object: JSONFieldReader) throws(JSONShapeError) -> PageDocumentID? {
        guard let text = try object.optionalString("document") else { return nil }
        do { return try PageDocumentID(text) } catch { throw JSONShapeError(field: object.fieldPath("document"), message: error.description) }
    }

    /// Decodes a line of a recorded kind; `nil` for a kind that is not one.
    func recordedEvent(_ kind: String, _ object: JSONFieldReader, line: Int) throws(SessionLogError) -> RecordedEvent? {
        try fields(line) { () throws(JSONShapeError) -> RecordedEvent? in
            func roundTrip(_ key: String) throws(JSONShapeError) -> Int? {
                guard let value = try object.optionalUnsigned(key) else { return nil }
                guard value <= UInt64(Int.max) else { throw JSONShapeError(field: key, message: "too large") }
                return Int(value)
            }
            func touch() throws(JSONShapeError) -> EngineTouch {
                EngineTouch(engine: TouchID(try object.unsigned("engine")), platform: PlatformTouchID(try object.unsigned("touch")))
            }
            func count(_ key: String) throws(JSONShapeError) -> Int {
                let value = try object.unsigned(key)
                guard value <= UInt64(Int.max) else { throw JSONShapeError(field: key, message: "too large") }
                return Int(value)
            }
            if let view = try FrontEndInput.decode(kind: kind, object) { return .frontEnd(view) }
            switch kind {
            case "page_answer":
                return .pageAnswer(roundTrip: try roundTrip("round_trip"), verdict: try object.choice("verdict", as: HitTestVerdict.self),
                                   generation: try object.unsigned("generation"), document: try Self.document(object))
            case "send_failed":
                guard let order = try roundTrip("round_trip") else { throw JSONShapeError(field: "round_trip", message: "missing") }
                return .sendFailed(roundTrip: order)
            case "finish":
                return .finish
            case "decided":
                return .decided(touch: try touch(), owner: try object.choice("owner", as: HitTestVerdict.self),
                                reason: try object.choice("reason", as: DecisionReason.self), at: try object.optionalDouble("at") ?? 0)
            case "finished":
                let ledger = SampleLedger(received: try count("received"), inked: try count("inked"), released: try count("released"),
                                          cancelled: try count("cancelled"))
                return .finished(touch: try touch(), ledger: ledger, ink: try object.string("ink"), at: try object.optionalDouble("at") ?? 0)
            case "end":
                let l = try object.nested("ledger")
                func tally(_ key: String) throws(JSONShapeError) -> Int {
                    let value = try l.unsigned(key)
                    guard value <= UInt64(Int.max) else { throw JSONShapeError(field: l.fieldPath(key), message: "too large") }
                    return Int(value)
                }
                func optionalTally(_ key: String) throws(JSONShapeError) -> Int { l.has(key) ? try tally(key) : 0 }
                let ledger = SampleLedger(received: try tally("received"), inked: try tally("inked"), released: try tally("released"),
                                          cancelled: try tally("cancelled"), refused: try tally("refused"), pending: try tally("pending"),
                                          releasedNatively: try optionalTally("released_natively"), replayed: try optionalTally("replayed"))
                return .end(lines: try count("lines"), samples: try count("samples"), touches: try count("touches"), ledger: ledger)
            case "dropped":
                let lines = try count("lines")
                guard lines > 0 else { throw JSONShapeError(field: "lines", message: "a dropped line names at least one missing line") }
                return .dropped(lines: lines, samples: try count("samples"), from: try object.optionalDouble("from") ?? 0,
                                to: try object.optionalDouble("to") ?? 0, tooLong: object.has("too_long") ? try count("too_long") : nil)
            default:
                return nil
            }
        }
    }
}
