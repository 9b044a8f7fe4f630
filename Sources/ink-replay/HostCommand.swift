import Foundation
import HitTestBridge
import InkRecording
import SessionReplay
import InkCore

/// `ink-replay host`: the engine and the bridge as a process. A front end in any language
/// writes touch events and page messages as JSON Lines to standard input and reads what to
/// do as JSON Lines from standard output. The protocol is documented in docs/host.md.
enum HostCommand: Command {
    static let name = "host"
    static let synopsis = ""
    static let overview = """
        OVERVIEW: Run the engine and the bridge live over standard input and output.

        Reads JSON Lines: an optional session header first (for the page transform), then
        session-log events (touch, update, regions, answer), page messages as the page
        script sends them ({"kind":"page","t":…,"message":{…}}), time passing
        ({"kind":"tick","t":…}) and layout changes ({"kind":"layout","t":…,
        "page_transform":{…}}). Each line's t (seconds, on the samples' clock) is the time:
        deadlines due by then fire first. Writes JSON Lines: query (send it to the page),
        decided, ink, predict, refine, end_ink, retract, release, end_release, cancel,
        finished, stroke (with --geometry), ignored (a page message that changed nothing:
        late, duplicate, forged, stale), error (a refused line; nothing changed), and a
        summary at the end of the input. Output is flushed after every input line. A
        session log piped in replays through the engine: its recorded answers are given to
        the round trips their touches wait for. Protocol: docs/host.md.
        """
    static let options = OptionTable([
        Option("--geometry", help: "Also write each changed stroke's outline as SVG path data."),
        Option("--cache", kind: .onOff, help: "Let fresh region snapshots decide without a round trip", default: "on"),
        Option("--speculative", kind: .onOff,
               help: "Draw a touch that waits for a round trip as tentative ink when the page's last region snapshot (kept even when too old to decide, or with --cache off) shows nothing interactive near it (default: off). With a fresh snapshot and the cache on, the cache decides at once, and with no snapshot there is nothing to go on: no tentative ink then."),
        Option("--timeout", kind: .number("ms", 0...3_600_000), help: "Deadline for an unanswered hit test", default: "250"),
        Option("--fallback", kind: .choice(HitTestVerdict.allCases.map(\.rawValue)), help: "Where an unanswered touch goes", default: "ink"),
        Option("--gesture-window", kind: .number("ms", 0...60_000), help: "A second finger within this time makes a gesture", default: "150"),
        Option("--pencil-only", help: "Fingers go to the page, pencils ink, without asking."),
        Option("--seed", kind: .number("n", 0...9_007_199_254_740_991), help: "Seed the query tokens", default: "unpredictable; for tests"),
        Option("--record", kind: .text("file"),
               help: "Record the session (what the engine took and decided) as a session log, streamed to a temporary file beside <file> and renamed to <file> at the end of the input; `ink-replay verify <file>` replays it and checks every decision."),
    ])

    static func run(_ arguments: inout ArgumentList) throws -> Int32 {
        guard arguments.positional.isEmpty else { throw UsageError(message: "unexpected argument '\(arguments.positional[0])'") }
        var configuration = InkEngineConfiguration()
        if let timeout = arguments.number("--timeout") { configuration.decisionTimeout = timeout / 1000 }
        if let window = arguments.number("--gesture-window") { configuration.gestureWindow = window / 1000 }
        configuration.pencilOnly = arguments.flag("--pencil-only")
        configuration.fallback = try arguments.choice("--fallback", as: HitTestVerdict.self) ?? .ink
        configuration.useRegionCache = arguments.onOff("--cache") ?? true
        configuration.speculativeInk = arguments.onOff("--speculative") ?? false
        let seed = arguments.number("--seed").map { UInt64($0) }
        var session = HostSession(configuration: configuration, seed: seed, geometry: arguments.flag("--geometry"))
        if let path = arguments.string("--record") {
            do { session.recording = try RecordingFile(path: path) } catch { throw UsageError(message: "--record: \(error.message)") }
        }
        // Read what is there as soon as it is there (a live front end waits for our reply
        // to each line), and handle complete lines one by one.
        var number = 0
        var lines = LineSplitter(maxLineBytes: SessionLog.maxLineBytes)
        var pieces: [LineSplitter.Piece] = []
        func handle(_ piece: LineSplitter.Piece) {
            number += 1
            switch piece {
            case let .line(bytes): session.handle(bytes, number: number)
            case let .tooLong(bytes): session.error(number, "a line of \(bytes) bytes, longer than \(SessionLog.maxLineBytes)")
            }
            session.flush()
        }
        while true {
            let chunk = FileHandle.standardInput.availableData
            if chunk.isEmpty { break }
            lines.feed(chunk, into: &pieces)
            for piece in pieces { handle(piece) }
            pieces.removeAll(keepingCapacity: true)
        }
        if let last = lines.finish() { handle(last) }
        session.finish()
        session.flush()
        return session.commitRecording() ? 0 : 1
    }

}

/// The state of one `host` run: the engine host, the stroke geometry, the output buffer.
struct HostSession {
    let configuration: InkEngineConfiguration
    let seed: UInt64?
    /// The engine, driven as every replay drives it: one audit.
    var driver: ReplayDriver
    var host: InkEngine { driver.engine }
    var reader = SessionLogLineReader(file: "<stdin>")
    var layer: InkLayer?
    /// How many stable segments of each stroke a `stroke` line has carried (stable
    /// segments never change, so the count says which are new).
    var sentStable: [TouchID: Int] = [:]
    var out = ""
    var started = false
    var errors = 0
    /// The next deadline last announced in a `deadline` line (`nil`: none pending).
    var announcedDeadline: Double?
    /// With `--record`: the file the recording streams to, and the recorder (begun at the
    /// first line after an optional header, which names the canvas).
    var recording: RecordingFile?
    var recorder: SessionRecorder?
    var canvas = (width: 1024.0, height: 768.0)

    init(configuration: InkEngineConfiguration, seed: UInt64?, geometry: Bool) {
        self.configuration = configuration
        self.seed = seed
        driver = ReplayDriver(engine: InkEngine(configuration: configuration, seed: seed), keepsOutcomes: false)
        layer = geometry ? InkLayer() : nil
    }

    mutating func flush() {
        guard !out.isEmpty else { return }
        FileHandle.standardOutput.write(Data(out.utf8))
        out = ""
    }

    mutating func emit(_ members: [(String, JSONValue)]) {
        JSONValue.object(JSONObject(members.map { (key: $0.0, value: $0.1) })).write(to: &out)
        out += "\n"
    }

    mutating func error(_ line: Int, _ message: String) {
        errors += 1
        emit([("kind", .string("error")), ("line", .number(Double(line))), ("message", .string(InputText.printable(message)))])
    }

    mutating func ignored(_ why: String) {
        emit([("kind", .string("ignored")), ("t", .number(host.now)), ("why", .string(why))])
    }

    /// A forward jump of time this large (seconds) in one line gets a `warning` line.
    static let absurdJump = 3_600.0

    mutating func handle(_ bytes: [UInt8], number: Int) {
        let bytes = number == 1 ? Array(SessionLogLineReader.withoutByteOrderMark(bytes)) : bytes
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return }
        var output: [EngineEvent] = []
        defer {
            write(output)
            announceDeadline()
        }
        do {
            let value = try JSONParser.parse(bytes)
            let object = try JSONFieldReader(value)
            if object.has("format") {
                guard !started else { throw EngineInputError("a session header is only accepted as the first line") }
                let header = try reader.decodeHeader(value: value, number: number)
                canvas = (header.canvas.width, header.canvas.height)
                driver = ReplayDriver(engine: InkEngine(configuration: configuration, transform: header.pageTransform ?? .identity,
                                                        seed: seed),
                                      keepsOutcomes: false)
                started = true
                return
            }
            started = true
            let kind = try object.string("kind")
            let time = try object.double("t")
            if host.now.isFinite, time - host.now > Self.absurdJump {
                // Still taken (time only moves on), but every later line must be as late.
                emit([("kind", .string("warning")), ("line", .number(Double(number))),
                      ("message", .string("time jumps \(JSONValue.format(time - host.now)) s ahead, from \(JSONValue.format(host.now)) to "
                          + "\(JSONValue.format(time)) s: were milliseconds sent as seconds? Every later line must be at least this late"))])
            }
            let input: EngineInput
            switch kind {
            case "tick":
                input = .tick
            case "page":
                // Decoded once: a message given as JSON text is parsed here, one given as an
                // object is read from this line's parse; the size cap is the engine's.
                let message = try object.value("message")
                if case let .string(raw) = message {
                    input = .pageMessage(Array(raw.utf8))
                } else if let decoded = try? PageMessage.decode(value: message) {
                    input = .decodedPageMessage(decoded)
                } else {
                    // Refused by the engine, which counts it and says why.
                    input = .pageMessage(Array(message.serialized().utf8))
                }
            case "layout":
                let t = try object.nested("page_transform")
                let transform = PageTransform(scale: try t.double("scale"), offsetX: try t.optionalDouble("offset_x") ?? 0,
                                              offsetY: try t.optionalDouble("offset_y") ?? 0)
                input = .layout(transform, generation: try object.optionalUnsigned("generation"))
            default:
                switch try reader.decodeEvent(value: value, number: number) {
                case let .touch(event, _): input = .touch(event)
                case let .update(update, _): input = .update(update)
                case let .regions(snapshot, _): input = .decodedPageMessage(.regions(snapshot))
                case let .answer(touch, verdict, _): input = .recordedAnswer(touch: touch, verdict: verdict)
                case let .recorded(.nativePageTouch(event), _): input = .nativePageTouch(event)
                case .recorded:
                    throw EngineInputError("a '\(kind)' line belongs to a recording's replay (ink-replay verify), not to a live host")
                }
            }
            beginRecording()
            let step = driver.deliver(input, at: time, into: &output)
            recorder?.record(input, at: time, events: output)
            if let refusal = step.refusal { throw EngineInputError(refusal.description) }
            switch step.outcome {
            case let .refused(why)?: throw EngineInputError("page message refused: \(why)")
            case .late?: ignored("late: its round trip already timed out or was cancelled")
            case .duplicate?: ignored("duplicate: its round trip was already answered")
            case .unknownQuery?: ignored("unknown query id (forged or garbled)")
            case .staleGeneration?: ignored("stale: computed for another layout; the question was sent again")
            case .oldDocument?: ignored("from a page document that was replaced")
            case let .regionsRefused(why)?: throw EngineInputError("region snapshot refused: \(why)")
            case .answered?, .regionsAccepted?, nil: break
            }
        } catch let failure as JSONSyntaxError {
            error(number, "malformed JSON at column \(failure.column): \(failure.message)")
        } catch let failure as JSONShapeError {
            error(number, failure.description)
        } catch let failure as SessionLogError {
            error(number, failure.message)
        } catch let failure {
            error(number, "\(failure)")
        }
    }

    /// Tells the front end when to send its next `tick`, whenever that changed: a
    /// `{"kind":"deadline","t":…,"at":…}` line (`at` null when nothing waits).
    mutating func announceDeadline() {
        let next = host.nextDeadline
        guard next != announcedDeadline else { return }
        announcedDeadline = next
        emit([("kind", .string("deadline")), ("t", .number(host.now)), ("at", next.map { JSONValue.number($0) } ?? .null)])
    }

    mutating func finish() {
        var output: [EngineEvent] = []
        beginRecording()
        driver.finish(runningDeadlines: false, into: &output)
        let now = host.now
        recorder?.recordFinish(at: now, events: output)
        write(output)
        let ledger = host.ledger
        let metrics = host.bridgeMetrics
        let counters = host.counters
        func count(_ name: String, _ value: Int) -> (String, JSONValue) { (name, .number(Double(value))) }
        // docs/host.md lists every field and what it counts.
        emit([("kind", .string("summary")),
              count("received", ledger.received), count("inked", ledger.inked), count("released", ledger.released),
              count("cancelled", ledger.cancelled), count("refused", ledger.refused), count("pending", ledger.pending),
              count("dropped", ledger.dropped),
              count("queries", metrics.queries), count("round_trips", metrics.roundTrips),
              count("cache_hits", metrics.cacheHits), count("shared_queries", metrics.sharedQueries),
              count("timeouts", metrics.timeouts), count("deadlines", counters.deadlinesPassed),
              count("overloaded", metrics.overloaded), count("speculations", metrics.speculations),
              count("retractions", counters.retractions), count("gestures", counters.gestures),
              count("late_answers", metrics.lateAnswers), count("duplicate_answers", metrics.duplicateAnswers),
              count("unknown_answers", metrics.unknownAnswers), count("stale_answers", metrics.staleAnswers),
              count("refused_messages", metrics.refusedMessages),
              count("snapshots_accepted", metrics.snapshotsAccepted), count("snapshots_refused", metrics.snapshotsRefused),
              count("answers_without_round_trip", host.answersWithoutRoundTrip),
              count("refused_lines", errors), count("audit_problems", driver.problems.count)])
        for problem in driver.problems.first {
            emit([("kind", .string("audit")), ("message", .string(problem))])
        }
    }

    /// Starts the recording, once, from the engine as it is before its first input.
    mutating func beginRecording() {
        guard let recording, recorder == nil else { return }
        var started = SessionRecorder(canvasWidth: canvas.width, canvasHeight: canvas.height, device: "ink-replay host",
                                      sink: { bytes in recording.offer(bytes) })
        started.begin(host)
        recorder = started
    }

    /// Writes what the recorder still holds and renames the recording into place; `false`
    /// (said on standard error) when it could not be written.
    mutating func commitRecording() -> Bool {
        guard let recording else { return true }
        beginRecording()
        recorder?.flush()
        do {
            try recording.commit()
            if let recorder, !recorder.isComplete {
                printError("Warning: --record \(recording.path): \(recorder.droppedLines) lines were left out (the file could not take them)")
            }
            return true
        } catch {
            printError("Error: --record \(recording.path): \(error.message)")
            return false
        }
    }

    /// Writes the outputs, with consecutive samples of one touch and kind in one line.
    mutating func write(_ output: [EngineEvent]) {
        var batch: (kind: String, touch: EngineTouch, samples: [TouchSample])?
        func flushBatch(_ session: inout HostSession) {
            guard let current = batch else { return }
            session.emit([("kind", .string(current.kind)), ("t", .number(session.host.now))] + HostSession.touchFields(current.touch) + [
                          ("samples", .array(current.samples.map(SessionLog.sampleObject)))])
            batch = nil
        }
        var changed: [EngineTouch] = []
        for event in output {
            if case let .action(action) = event.kind, let touch = event.touch, let change = layer?.apply(action) {
                if change.removed {
                    sentStable[change.touch] = nil
                    changed.removeAll { $0.engine == change.touch }
                } else if !changed.contains(touch) {
                    changed.append(touch)
                }
            }
            switch event.kind {
            case let .action(.ink(_, sample)), let .action(.release(_, sample)):
                guard let touch = event.touch else { continue }
                let kind: String
                if case .action(.ink) = event.kind { kind = "ink" } else { kind = "release" }
                if let current = batch, current.kind == kind, current.touch == touch {
                    batch!.samples.append(sample)
                } else {
                    flushBatch(&self)
                    batch = (kind, touch, [sample])
                }
            default:
                flushBatch(&self)
                emit(event)
            }
        }
        flushBatch(&self)
        for touch in changed { emitStroke(touch) }
    }

    mutating func emitStroke(_ touch: EngineTouch) {
        // The stroke is the touch's active one, or the one it just finished (the last).
        guard let layer, let stroke = layer.active.last(where: { $0.touch == touch.engine })
                ?? layer.finished.last(where: { $0.touch == touch.engine }) else { return }
        let stable = stroke.builder.stableSegments
        let keep = min(sentStable[touch.engine] ?? 0, stable.count)
        // Kept after the stroke finishes too (an estimated-property update can still make
        // more of it stable); forgotten when the stroke is removed.
        sentStable[touch.engine] = stable.count
        emit([("kind", .string("stroke")), ("t", .number(host.now))] + Self.touchFields(touch) + [
              ("keep_stable", .number(Double(keep))), ("stable_segments", .number(Double(stable.count))),
              ("stable", .string(StrokeOutline.svgPathData(Array(stable[keep...])))),
              ("volatile", .string(StrokeOutline.svgPathData(stroke.builder.volatileSegments)))])
    }

    /// How an output names a touch: `touch`, the id the front end gave it, and `engine_touch`,
    /// the engine's own id, unique over the session (the two differ once a platform id is reused).
    static func touchFields(_ touch: EngineTouch) -> [(String, JSONValue)] {
        [("touch", .number(Double(touch.platform))), ("engine_touch", .number(Double(touch.engine.rawValue)))]
    }

    mutating func emit(_ event: EngineEvent) {
        let t = ("t", JSONValue.number(host.now))
        switch event.kind {
        case .took, .refused, .pageMessage, .layout, .newDocument, .replay, .scrollPage:
            return   // (the host routes by hand-over: no replays) what the host made of its own input is said by the line's error or ignored line
        case let .send(request, touches):
            emit([("kind", .string("query")), t, ("token", .string(request.token.description)),
                  ("touches", .array(touches.map { .number(Double($0.platform)) })),
                  ("engine_touches", .array(touches.map { .number(Double($0.engine.rawValue)) })),
                  ("page_x", .number(request.pagePoint.x)), ("page_y", .number(request.pagePoint.y)),
                  ("generation", .number(Double(request.generation))), ("request", .string(request.json))])
        case let .action(action):
            guard let touch = event.touch else { return }
            let touchFields = Self.touchFields(touch)
            switch action {
            case .queryPage, .abandonQuery, .ink, .release, .nativeRelease:
                return   // the bridge's query line says what to ask; samples are batched
            case let .decided(_, verdict, reason):
                emit([("kind", .string("decided")), t] + touchFields + [("owner", .string(verdict.rawValue)),
                      ("reason", .string(reason.rawValue))])
            case let .predictInk(_, samples):
                emit([("kind", .string("predict")), t] + touchFields + [("samples", .array(samples.map(SessionLog.sampleObject)))])
            case let .refineInk(_, index, sample):
                emit([("kind", .string("refine")), t] + touchFields + [("index", .number(Double(index))), ("sample", SessionLog.sampleObject(sample))])
            case .endInk:
                emit([("kind", .string("end_ink")), t] + touchFields)
            case .retractInk:
                emit([("kind", .string("retract")), t] + touchFields)
            case .endRelease:
                emit([("kind", .string("end_release")), t] + touchFields)
            case let .cancel(_, previously):
                emit([("kind", .string("cancel")), t] + touchFields + [("previously", .string(previously.rawValue))])
            case let .touchFinished(_, ledger):
                emit([("kind", .string("finished")), t] + touchFields + [("received", .number(Double(ledger.received))),
                      ("inked", .number(Double(ledger.inked))), ("released", .number(Double(ledger.released))),
                      ("cancelled", .number(Double(ledger.cancelled)))])
            }
        }
    }
}

struct EngineInputError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
