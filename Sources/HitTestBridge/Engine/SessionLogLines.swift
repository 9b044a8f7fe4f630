@_spi(Tooling) import InkCore

/// The one encoder of session-log lines (docs/session-format.md): the recorder an app
/// embeds (``SessionRecorder``) and the tooling's writers (InkRecording's `SessionLog`,
/// `SessionLogWriter`) both write through it. Not public API.
package enum SessionLogLines {
    /// The format name every session log's header carries.
    package static let formatName = "scratchpad-ink-session"
    /// The version of a log that carries only inputs (touches, updates, answers, regions).
    package static let plainVersion = 1
    /// The first version of a recording: a header with a `recorder` block, and the recorded
    /// kinds (`decided`, `finished`, `page_answer`, `layout`, `document`, `send_failed`,
    /// `finish`, `dropped`, touches with `native_page`). A version-1 reader refuses it up front.
    /// Version 2 recordings carry no chain: they are read as they were, as unchained.
    package static let firstRecordingVersion = 2
    /// The version a recording is written in: version 2 plus a chain (every line after the
    /// header ends with `"chain"`, the ``LineChain`` digest of every line before it) and an
    /// `end` line of totals. A version-2 reader refuses it up front.
    package static let recordingVersion = 3

    /// The longest session-log line a reader takes (`SessionLog.maxLineBytes`, the host's
    /// input lines too): 8 MiB, so that it admits the longest line the recorder writes for any
    /// input the engine takes at its maximum limits (``longestRecordedLine(limits:)`` of
    /// `Limits.maximum`: 7,714,571 bytes). Issue 53: the cap was 1 MiB, the same as the
    /// engine's message cap, and a 494 KB snapshot of 10,500 regions the engine took grew past
    /// it in the recorder's text (each `1e15` written `1000000000000000.0`): the line was
    /// dropped and the recording could never verify.
    package static let maxLineBytes = 8 << 20

    /// The longest line the recorder writes for a page message the engine takes under
    /// `limits` (a `regions` line; an answer's is short): the message's own bytes
    /// (`messageBytes`, the cap), plus ``JSONTextCursor/maximumGrowth`` (11) for each number
    /// it can carry (four per region, up to `regions` of them, and the generation), plus 256
    /// for what the line has and the message has not (`t`, the chain; `max_age` in seconds
    /// instead of `maxAge` in milliseconds). Keys, punctuation and strings are never longer in
    /// the recorder's text than in the page's (strings use the short escapes). For the default
    /// limits (1 MiB, 20,000 regions): 1,928,843 bytes; for `Limits.maximum` (4 MiB, 80,000):
    /// 7,714,571.
    package static func longestRecordedLine(limits: InkEngineConfiguration.Limits) -> Int {
        limits.messageBytes + JSONTextCursor.maximumGrowth * (4 * limits.regions + 1) + 256
    }

    /// Why a recorder left lines out, as `verify` and `host` say it: `tooLong`, the bytes of the
    /// longest line left out for its length (`nil`: all for a sink that was behind).
    package static func droppedReason(tooLong: Int?) -> String {
        guard let tooLong else { return "while its sink was behind" }
        return "because a line of \(tooLong) bytes is longer than the \(maxLineBytes) bytes a session-log line may have"
    }

    /// A header line's object.
    package static func header(version: Int, canvasWidth: Double, canvasHeight: Double, transform: PageTransform?,
                               exercise: String?, device: String?, source: String?,
                               synthesizedTiming: (sampleRate: Double, strokeGap: Double)?,
                               recorder: JSONObject?) -> JSONValue {
        var object = JSONObject()
        object.append("format", .string(formatName))
        object.append("version", .number(Double(version)))
        object.append("canvas", .object(JSONObject([("width", .number(canvasWidth)), ("height", .number(canvasHeight))])))
        if let transform { object.append("page_transform", transformObject(transform)) }
        object.append("exercise", ifPresent: exercise.map(JSONValue.string))
        object.append("device", ifPresent: device.map(JSONValue.string))
        object.append("source", ifPresent: source.map(JSONValue.string))
        if let timing = synthesizedTiming {
            object.append("synthesized_timing", .object(JSONObject([
                ("sample_rate", .number(timing.sampleRate)), ("stroke_gap", .number(timing.strokeGap)),
            ])))
        }
        if let recorder { object.append("recorder", .object(recorder)) }
        return .object(object)
    }

    /// A page transform as headers and `layout` lines write it.
    package static func transformObject(_ t: PageTransform) -> JSONValue {
        .object(JSONObject([("scale", .number(t.scale)), ("offset_x", .number(t.offsetX)), ("offset_y", .number(t.offsetY))]))
    }

    /// Writes a `touch` line (without its newline) to `out`: the one line per platform event,
    /// written straight into the text rather than through a `JSONValue` tree (a recorder
    /// writes one per sample). `tools` remembers each touch's tool so that only a `began`
    /// event (or a change) spells it out; a touch it no longer remembers (beyond
    /// ``HeldTools/limit`` touches) gets its tool spelled out again. `nativePage`: the front
    /// end routed the touch to the page at touch-down (`EngineInput.nativePageTouch`).
    package static func writeTouch(_ touch: TouchEvent, time: Double, nativePage: Bool = false, tools: inout HeldTools,
                                   to out: inout some JSONTextOutput) {
        out.write(ascii: #"{"kind":"touch","t":"#)
        out.write(number: time)
        out.write(ascii: #","touch":"#)
        out.write(integer: Int64(touch.touch.rawValue))
        out.write(ascii: #","phase":""#)
        out.write(touch.phase.rawValue)
        out.write(ascii: "\"")
        let known = tools.tool(of: touch.touch)
        let tool = touch.samples.first?.tool ?? known ?? .finger
        if touch.phase == .began || tool != (known ?? .finger) || (known == nil && tools.hasForgotten) {
            out.write(ascii: #","tool":""#)
            out.write(tool.rawValue)
            out.write(ascii: "\"")
        }
        switch touch.phase {
        case .began: tools.began(touch.touch, tool: tool)
        case .ended, .cancelled: tools.ended(touch.touch)
        case .moved: tools.remember(touch.touch, tool: tool)
        }
        if nativePage { out.write(ascii: #","native_page":true"#) }
        out.write(ascii: #","samples":["#)
        writeSamples(touch.samples, to: &out)
        out.write(ascii: "]")
        if !touch.predicted.isEmpty {
            out.write(ascii: #","predicted":["#)
            writeSamples(touch.predicted, to: &out)
            out.write(ascii: "]")
        }
        out.write(ascii: "}")
    }

    /// The most bytes one sample's text takes: its keys and punctuation (under 96 bytes), seven
    /// numbers and an integer.
    static let sampleTextLength = 96 + 8 * JSONTextCursor.numberLength

    private static func writeSamples(_ samples: [TouchSample], to out: inout some JSONTextOutput) {
        for (i, sample) in samples.enumerated() {
            // Each sample's text is built on the stack and appended in one piece.
            out.withJSONText(capacity: sampleTextLength) { text in
                if i > 0 { text.put(ascii: ",") }
                text.put(ascii: #"{"t":"#)
                text.put(number: sample.timestamp)
                text.put(ascii: #","x":"#)
                text.put(number: sample.x)
                text.put(ascii: #","y":"#)
                text.put(number: sample.y)
                if let force = sample.force {
                    text.put(ascii: #","force":"#)
                    text.put(number: force)
                }
                if let altitude = sample.altitude {
                    text.put(ascii: #","altitude":"#)
                    text.put(number: altitude)
                }
                if let azimuth = sample.azimuth {
                    text.put(ascii: #","azimuth":"#)
                    text.put(number: azimuth)
                }
                if let index = sample.estimationUpdateIndex {
                    text.put(ascii: #","update_index":"#)
                    text.put(integer: Int64(index))
                }
                if let radius = sample.majorRadius {
                    text.put(ascii: #","radius":"#)
                    text.put(number: radius)
                }
                text.put(ascii: "}")
            }
        }
    }

    /// An `update` line.
    package static func update(_ update: EstimatedPropertyUpdate, time: Double) -> JSONValue {
        var object = JSONObject()
        object.append("kind", .string("update"))
        object.append("t", .number(time))
        object.append("touch", .number(Double(update.touch.rawValue)))
        object.append("update_index", .number(Double(update.updateIndex)))
        object.append("force", ifPresent: update.force.map(JSONValue.number))
        object.append("altitude", ifPresent: update.altitude.map(JSONValue.number))
        object.append("azimuth", ifPresent: update.azimuth.map(JSONValue.number))
        if !update.isFinal { object.append("final", .bool(false)) }
        return .object(object)
    }

    /// An `answer` line: the page's answer by touch (a recorded answer).
    package static func answer(touch: PlatformTouchID, verdict: HitTestVerdict, time: Double) -> JSONValue {
        .object(JSONObject([("kind", .string("answer")), ("t", .number(time)), ("touch", .number(Double(touch.rawValue))),
                            ("verdict", .string(verdict.rawValue))]))
    }

    /// A `regions` line; `elementIDs: false` leaves the regions' element ids out. The
    /// snapshot's page document id is written as `document` when it has one.
    package static func regions(_ snapshot: RegionSnapshot, time: Double, elementIDs: Bool = true) -> JSONValue {
        var object = JSONObject()
        object.append("kind", .string("regions"))
        object.append("t", .number(time))
        object.append("generation", .number(Double(snapshot.generation)))
        object.append("document", ifPresent: snapshot.document.map { .string($0.text) })
        object.append("max_age", ifPresent: snapshot.maxAge.map(JSONValue.number))
        object.append("regions", .array(snapshot.regions.map { region in
            var r = JSONObject([("x", .number(region.x)), ("y", .number(region.y)),
                                ("width", .number(region.width)), ("height", .number(region.height))])
            if elementIDs { r.append("element", ifPresent: region.element.map(JSONValue.string)) }
            return .object(r)
        }))
        return .object(object)
    }

    /// A sample as the session log writes it (the host protocol uses the same form).
    package static func sample(_ sample: TouchSample) -> JSONValue {
        var object = JSONObject([("t", .number(sample.timestamp)), ("x", .number(sample.x)), ("y", .number(sample.y))])
        object.append("force", ifPresent: sample.force.map(JSONValue.number))
        object.append("altitude", ifPresent: sample.altitude.map(JSONValue.number))
        object.append("azimuth", ifPresent: sample.azimuth.map(JSONValue.number))
        object.append("update_index", ifPresent: sample.estimationUpdateIndex.map { .number(Double($0)) })
        object.append("radius", ifPresent: sample.majorRadius.map(JSONValue.number))
        return .object(object)
    }

    // MARK: - The recorded kinds (version 2)

    /// A `page_answer` line: the page's answer to the `roundTrip`-th round trip of the
    /// session (0-based, in the order the engine sent them; `nil`: a round trip the engine
    /// never sent, or one the recorder no longer remembers); `document`: the page document
    /// the answer named, when it named one.
    package static func pageAnswer(roundTrip: Int?, verdict: HitTestVerdict, generation: UInt64, document: PageDocumentID? = nil,
                                   time: Double) -> JSONValue {
        var object = JSONObject([("kind", .string("page_answer")), ("t", .number(time)),
                                 ("round_trip", roundTrip.map { .number(Double($0)) } ?? .null),
                                 ("verdict", .string(verdict.rawValue)), ("generation", .number(Double(generation)))])
        object.append("document", ifPresent: document.map { .string($0.text) })
        return .object(object)
    }

    // The `layout`, `document` and `resize` lines are `FrontEndInput`'s (its encoder beside
    // its decoder).

    /// A `send_failed` line: the transport could not send the `roundTrip`-th round trip.
    package static func sendFailed(roundTrip: Int, time: Double) -> JSONValue {
        .object(JSONObject([("kind", .string("send_failed")), ("t", .number(time)), ("round_trip", .number(Double(roundTrip)))]))
    }

    /// A `finish` line: the front end settled every undecided touch by the fallback.
    package static func finish(time: Double) -> JSONValue {
        .object(JSONObject([("kind", .string("finish")), ("t", .number(time))]))
    }

    /// A `decided` line: the live engine decided a touch (`at`: the engine's time of the
    /// decision, which a deadline may put before `t`).
    package static func decided(touch: EngineTouch, owner: HitTestVerdict, reason: DecisionReason, at: Double, time: Double) -> JSONValue {
        .object(JSONObject([("kind", .string("decided")), ("t", .number(time)), ("touch", .number(Double(touch.platform.rawValue))),
                            ("engine", .number(Double(touch.engine.rawValue))), ("owner", .string(owner.rawValue)),
                            ("reason", .string(reason.rawValue)), ("at", .number(at))]))
    }

    /// A `finished` line: where a touch's samples went, live, and a digest of its ink.
    package static func finished(touch: EngineTouch, ledger: SampleLedger, ink: String, at: Double, time: Double) -> JSONValue {
        .object(JSONObject([("kind", .string("finished")), ("t", .number(time)), ("touch", .number(Double(touch.platform.rawValue))),
                            ("engine", .number(Double(touch.engine.rawValue))),
                            ("received", .number(Double(ledger.received))), ("inked", .number(Double(ledger.inked))),
                            ("released", .number(Double(ledger.released))), ("cancelled", .number(Double(ledger.cancelled))),
                            ("ink", .string(ink)), ("at", .number(at))]))
    }

    /// A `dropped` line: the sink fell behind and the recorder left out `lines` lines
    /// (carrying `samples` touch samples), recorded between `from` and `to`.
    /// `tooLong`: the bytes of the longest of them, when some were left out for their length
    /// (longer than ``maxLineBytes``: no reader would take them), written `too_long`.
    package static func dropped(lines: Int, samples: Int, from: Double, to: Double, tooLong: Int? = nil, time: Double) -> JSONValue {
        var object = JSONObject([("kind", .string("dropped")), ("t", .number(time)), ("lines", .number(Double(lines))),
                                 ("samples", .number(Double(samples))), ("from", .number(from)), ("to", .number(to))])
        object.append("too_long", ifPresent: tooLong.map { .number(Double($0)) })
        return .object(object)
    }

    /// An `end` line: the recording is whole. `lines`: the lines before it (the header
    /// included); `samples`: the touch samples in them; `touches`: the touches begun in them
    /// (`began` lines, native page touches included); `ledger`: the engine's final ledger.
    package static func end(lines: Int, samples: Int, touches: Int, ledger: SampleLedger, time: Double) -> JSONValue {
        .object(JSONObject([("kind", .string("end")), ("t", .number(time)), ("lines", .number(Double(lines))),
                            ("samples", .number(Double(samples))), ("touches", .number(Double(touches))),
                            ("ledger", ledgerObject(ledger))]))
    }

    /// A sample ledger as an `end` line writes it.
    package static func ledgerObject(_ l: SampleLedger) -> JSONValue {
        .object(JSONObject([("received", .number(Double(l.received))), ("inked", .number(Double(l.inked))),
                            ("released", .number(Double(l.released))), ("released_natively", .number(Double(l.releasedNatively))),
                            ("replayed", .number(Double(l.replayed))), ("cancelled", .number(Double(l.cancelled))),
                            ("refused", .number(Double(l.refused))), ("pending", .number(Double(l.pending)))]))
    }

    // MARK: - The configuration in the header

    /// The engine's configuration as a recording's header names it.
    package static func configuration(_ c: InkEngineConfiguration) -> JSONValue {
        let limits = c.limits
        return .object(JSONObject([
            ("decision_timeout", .number(c.decisionTimeout)), ("fallback", .string(c.fallback.rawValue)),
            ("pencil_only", .bool(c.pencilOnly)), ("gesture_window", .number(c.gestureWindow)),
            ("region_cache", .bool(c.useRegionCache)), ("speculative_ink", .bool(c.speculativeInk)),
            ("speculation_margin", .number(c.speculationMargin)), ("share_radius", .number(c.shareRadius)),
            ("default_region_max_age", .number(c.defaultRegionMaxAge)), ("routing", .string(c.routing.rawValue)),
            ("palm_hold", .number(c.palmHold)), ("palm_radius", .number(c.palmRadius ?? -1)),
            ("limits", .object(JSONObject([
                ("queued_samples_per_touch", .number(Double(limits.queuedSamplesPerTouch))),
                ("active_touches", .number(Double(limits.activeTouches))), ("bound_fallback", .string(limits.boundFallback.rawValue)),
                ("message_bytes", .number(Double(limits.messageBytes))), ("regions", .number(Double(limits.regions))),
                ("round_trips_in_flight", .number(Double(limits.roundTripsInFlight))),
            ]))),
        ]))
    }

    /// Reads a configuration written by ``configuration(_:)``; a field left out keeps its
    /// default. A limit or a timeout beyond the engine's maximum
    /// (`InkEngineConfiguration.Limits.maximum`,
    /// ``InkEngineConfiguration/maximumDecisionTimeout``) is refused, naming the field: the
    /// engine never runs with more, so it never writes more (`InkEngine` runs with
    /// ``InkEngineConfiguration/bounded``), and a replay with the maximum instead would not be
    /// the recorded session.
    package static func configuration(from object: JSONFieldReader) throws(JSONShapeError) -> InkEngineConfiguration {
        var c = InkEngineConfiguration()
        // A header that names no palm rule was written by an engine without one (before 1.2).
        c.palmHold = 0
        c.palmRadius = nil
        func seconds(_ key: String) throws(JSONShapeError) -> Double? {
            guard let value = try object.optionalDouble(key) else { return nil }
            guard value >= 0 else { throw JSONShapeError(field: object.fieldPath(key), message: "must not be negative") }
            return value
        }
        if let v = try seconds("decision_timeout") {
            let maximum = InkEngineConfiguration.maximumDecisionTimeout
            guard v <= maximum else {
                throw JSONShapeError(field: object.fieldPath("decision_timeout"),
                                     message: "must be at most \(Int(maximum)) seconds (the engine's maximum), not \(v)")
            }
            c.decisionTimeout = v
        }
        if object.has("fallback") { c.fallback = try object.choice("fallback", as: HitTestVerdict.self) }
        if let v = try object.optionalBool("pencil_only") { c.pencilOnly = v }
        if let v = try seconds("gesture_window") { c.gestureWindow = v }
        if let v = try object.optionalBool("region_cache") { c.useRegionCache = v }
        if let v = try object.optionalBool("speculative_ink") { c.speculativeInk = v }
        if let v = try seconds("speculation_margin") { c.speculationMargin = v }
        if let v = try seconds("share_radius") { c.shareRadius = v }
        if let v = try seconds("default_region_max_age") { c.defaultRegionMaxAge = v }
        if object.has("routing") { c.routing = try object.choice("routing", as: TouchRouting.self) }
        if let v = try seconds("palm_hold") { c.palmHold = v }
        // -1: no radius rule.
        if let v = try object.optionalDouble("palm_radius") { c.palmRadius = v == -1 ? nil : try seconds("palm_radius") }
        if let l = try object.optionalNested("limits") {
            let top = InkEngineConfiguration.Limits.maximum
            func count(_ key: String, maximum: Int) throws(JSONShapeError) -> Int? {
                guard let value = try l.optionalUnsigned(key) else { return nil }
                guard value >= 1, value <= UInt64(maximum) else {
                    throw JSONShapeError(field: l.fieldPath(key), message: "must be 1 to \(maximum) (the engine's maximum), not \(value)")
                }
                return Int(value)
            }
            if let v = try count("queued_samples_per_touch", maximum: top.queuedSamplesPerTouch) { c.limits.queuedSamplesPerTouch = v }
            if let v = try count("active_touches", maximum: top.activeTouches) { c.limits.activeTouches = v }
            if l.has("bound_fallback") { c.limits.boundFallback = try l.choice("bound_fallback", as: HitTestVerdict.self) }
            if let v = try count("message_bytes", maximum: top.messageBytes) { c.limits.messageBytes = v }
            if let v = try count("regions", maximum: top.regions) { c.limits.regions = v }
            if let v = try count("round_trips_in_flight", maximum: top.roundTripsInFlight) { c.limits.roundTripsInFlight = v }
        }
        return c
    }
}

/// The chain of a recording (format version 3): a running 64-bit FNV-1a digest of every
/// line before the current one, each line's bytes as written (without its line ending)
/// followed by one LF. Every line after the header carries it as its last field,
/// `,"chain":"<16 lowercase hex digits>"}`, so a line removed, edited, inserted or moved
/// anywhere before a line changes that line's chain. FNV-1a is a check against cuts, losses
/// and edits, not a signature: anyone can compute a chain for lines they wrote.
package struct LineChain: Sendable, Hashable {
    package private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    package init() {}

    /// The bytes a chained line ends with: `,"chain":"` + 16 hex digits + `"}`.
    package static let suffixLength = 28
    static let suffixStart = Array(#","chain":""#.utf8)

    /// 16 lowercase hex digits.
    package var hex: String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// Takes one line (its bytes without the line ending) into the chain.
    package mutating func take(line: some Collection<UInt8>) {
        var v = value
        for byte in line { v = (v ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        value = (v ^ 0x0A) &* 0x0000_0100_0000_01B3
    }

    /// Seals a JSON object's line (`{…}`, no newline): appends the chain of the lines before
    /// it as its last field, then takes the sealed line into the chain.
    package mutating func seal(_ line: inout String) {
        guard appendSeal(to: &line) else { return }
        take(line: line.utf8)
    }

    /// Seals a line of bytes as the `String` one seals text (allocating nothing).
    package mutating func seal(_ line: inout [UInt8]) {
        guard appendSeal(to: &line) else { return }
        take(line: line)
    }

    private func appendSeal(to line: inout some JSONTextOutput) -> Bool {
        guard line.lastByte == UInt8(ascii: "}") else { return false }
        line.removeLastByte()
        if line.lastByte == UInt8(ascii: "{") {
            line.write(ascii: #""chain":""#)
        } else {
            line.write(ascii: #","chain":""#)
        }
        line.write(hex16: value)
        line.write(ascii: "\"}")
        return true
    }

    /// The chain a line carries, read from its last bytes (`nil` when it does not end as a
    /// chained line does); `content` is then the line without it, closed with `}`.
    package static func split(_ line: some Collection<UInt8>) -> (chain: UInt64, contentBytes: Int)? {
        let bytes = Array(line.suffix(suffixLength))
        guard bytes.count == suffixLength, bytes.starts(with: suffixStart), bytes[26] == UInt8(ascii: "\""),
              bytes[27] == UInt8(ascii: "}") else { return nil }
        var value: UInt64 = 0
        for byte in bytes[10..<26] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            default: return nil
            }
            value = value << 4 | UInt64(digit)
        }
        return (value, line.count - suffixLength)
    }
}

/// A digest of one touch's ink: every sample committed to its stroke (time, position,
/// force, altitude, azimuth, bit for bit), every refinement, every retraction and its end,
/// in order. The stroke geometry (and so every stable segment a renderer draws) is a pure
/// function of that sequence, so two runs with equal digests drew the same ink. FNV-1a, 64
/// bits: a check of identity, not a security measure.
package struct InkDigest: Sendable, Hashable {
    package private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325
    /// Ink samples taken in.
    package private(set) var samples = 0

    package init() {}

    /// 16 lowercase hex digits.
    package var hex: String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    private mutating func mix(_ word: UInt64) {
        var word = word
        for _ in 0..<8 {
            value = (value ^ (word & 0xFF)) &* 0x0000_0100_0000_01B3
            word >>= 8
        }
    }

    private mutating func mix(_ sample: TouchSample) {
        mix(sample.timestamp.bitPattern)
        mix(sample.x.bitPattern)
        mix(sample.y.bitPattern)
        mix(sample.force?.bitPattern ?? 0x7FF8_DEAD_0000_0001)
        mix(sample.altitude?.bitPattern ?? 0x7FF8_DEAD_0000_0002)
        mix(sample.azimuth?.bitPattern ?? 0x7FF8_DEAD_0000_0003)
    }

    /// Takes an ink action of the touch in; other actions change nothing.
    package mutating func take(_ action: RouterAction) {
        switch action {
        case let .ink(_, sample):
            mix(1)
            mix(sample)
            samples += 1
        case let .refineInk(_, index, sample):
            mix(2)
            mix(UInt64(truncatingIfNeeded: index))
            mix(sample)
        case .retractInk:
            mix(3)
        case .endInk:
            mix(4)
        default:
            break
        }
    }
}

/// The ink digests of the touches a run has not finished, folded from its event stream:
/// what the recorder writes into `finished` lines and what the identity replay compares.
/// Holds one entry per unfinished touch the engine tracks.
package struct InkDigests: Sendable {
    private var open: [TouchID: InkDigest] = [:]

    package init() {}

    /// Touches with a digest in progress.
    package var count: Int { open.count }

    /// Folds one action in; returns the touch's digest when the action finished it.
    package mutating func take(_ action: RouterAction) -> InkDigest? {
        switch action {
        case .ink, .retractInk, .endInk:
            open[action.touch, default: InkDigest()].take(action)
            return nil
        case .refineInk:
            // A refinement after the touch finished (force refined after lift) is not in
            // its digest: the digest was written when the touch finished.
            if open[action.touch] != nil { open[action.touch]!.take(action) }
            return nil
        case let .touchFinished(touch, _):
            return open.removeValue(forKey: touch) ?? InkDigest()
        default:
            return nil
        }
    }
}

/// The tools of the touches down in a log, remembered so that their later events may omit
/// `tool`: at most ``limit`` of them. A log whose touches begin and never end, each with a
/// new id, would otherwise grow the map by one entry per touch; beyond the limit the touch
/// that began longest ago is forgotten, and a later event of it without `tool` is read with
/// the finger tool (the engine made room for such a touch long before, at its bound of
/// active touches, so that event is refused and its samples counted refused anyway).
package struct HeldTools: Sendable {
    /// The most touches remembered.
    package static let limit = 4_096
    private var tools: [PlatformTouchID: (tool: ToolKind, serial: Int)] = [:]
    /// The touches begun, oldest first, with the serial of their `began`; entries whose
    /// touch ended (or began again) are skipped, and swept when they pile up.
    private var order: [(touch: PlatformTouchID, serial: Int)] = []
    private var orderStart = 0
    private var serial = 0
    /// The touch named last and its tool, as `tools` has them: a log's lines mostly follow
    /// one touch, whose tool is then found without hashing.
    private var last: (touch: PlatformTouchID, tool: ToolKind)?

    package init() {}

    /// The touches remembered.
    package var count: Int { tools.count }
    /// Whether a touch was ever forgotten at the limit (a writer then spells out the tool of
    /// a touch it does not know, so that the reader cannot take an older tool for it).
    package private(set) var hasForgotten = false

    /// The tool of a touch down, if remembered.
    package func tool(of touch: PlatformTouchID) -> ToolKind? {
        if let last, last.touch == touch { return last.tool }
        return tools[touch]?.tool
    }

    /// A touch began with `tool` (remembered as the newest, even if it was known).
    package mutating func began(_ touch: PlatformTouchID, tool: ToolKind) {
        tools[touch] = nil
        if last?.touch == touch { last = nil }
        remember(touch, tool: tool)
    }

    /// Remembers a touch's tool: a touch already known keeps its place, a new one is the
    /// newest (and may make the oldest be forgotten).
    package mutating func remember(_ touch: PlatformTouchID, tool: ToolKind) {
        if let last, last.touch == touch {
            if last.tool != tool {
                tools[touch]!.tool = tool
                self.last = (touch, tool)
            }
            return
        }
        if tools[touch] != nil {
            tools[touch]!.tool = tool
            last = (touch, tool)
            return
        }
        serial += 1
        tools[touch] = (tool, serial)
        last = (touch, tool)
        order.append((touch, serial))
        while tools.count > Self.limit, orderStart < order.count {
            let oldest = order[orderStart]
            orderStart += 1
            // Never `last`: that is the touch just remembered, the newest.
            if tools[oldest.touch]?.serial == oldest.serial {
                tools[oldest.touch] = nil
                hasForgotten = true
            }
        }
        if order.count - orderStart > 2 * Self.limit || orderStart > Self.limit {
            order = order[orderStart...].filter { tools[$0.touch]?.serial == $0.serial }
            orderStart = 0
        }
    }

    /// A touch ended or was cancelled: its tool is forgotten.
    package mutating func ended(_ touch: PlatformTouchID) {
        tools[touch] = nil
        if last?.touch == touch { last = nil }
    }
}

