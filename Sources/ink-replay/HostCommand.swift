import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif
@_spi(Tooling) @_spi(FrontEnd) import HitTestBridge
import InkTesting
@_spi(Tooling) import InkRecording
@_spi(Tooling) @_spi(FrontEnd) import InkCore

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
        deadlines due by then fire first, at their own times. Writes JSON Lines: query (send
        it to the page), decided, ink, predict, refine, end_ink, retract, release,
        end_release, cancel, finished, stroke (with --geometry), ignored (a page message
        that changed nothing: late, duplicate, forged, stale), error (a refused line; nothing
        changed), deadline (when to send a tick), and a summary at the end of the input,
        where touches still down are cancelled. Output is flushed after every input line. A
        session log piped in replays through the engine: its recorded answers are given to
        the round trips their touches wait for. Protocol: docs/host.md.
        """
    static let options = OptionTable(
        [Option("--geometry", help: "Also write each changed stroke's outline as SVG path data.")],
        EngineOptions.declarations(.host),
        [Option("--seed", kind: .integer("n", 0...9_007_199_254_740_991), help: "Seed the query tokens", default: "unpredictable; for tests"),
        Option("--record", kind: .text("file"),
               help: "Record the session (what the engine took and decided) as a session log, streamed to a temporary file beside <file> and renamed to <file> at the end of the input; `ink-replay verify <file>` replays it and checks every decision.")])

    static func run(_ arguments: inout ArgumentList) throws -> Int32 {
        guard arguments.positional.isEmpty else { throw UsageError(message: "unexpected argument '\(arguments.positional[0])'") }
        let configuration = try EngineOptions.Defaults.host.configuration(arguments)
        let seed = arguments.integer("--seed").map { UInt64($0) }
        var recording: RecordingFile?
        if let path = arguments.string("--record") {
            // Refused before the session (exit 1), naming the path: a target the final rename
            // could not reach, or an input (standard input's file included).
            do { recording = try RecordingFile(path: path) } catch { throw CommandFailure(message: "--record \(error.description)") }
        }
        let session = HostSession(configuration: configuration, seed: seed, geometry: arguments.flag("--geometry"), recording: recording)
        // Read what is there as soon as it is there (a live front end waits for our reply
        // to each line), and handle complete lines one by one.
        var lines = LineSplitter(maxLineBytes: SessionLog.maxLineBytes)
        var pieces: [LineSplitter.Piece] = []
        func handle(_ piece: LineSplitter.Piece) {
            session.line += 1
            switch piece {
            case let .line(bytes): session.handle(bytes)
            case let .tooLong(bytes): session.error("a line of \(bytes) bytes, longer than \(SessionLog.maxLineBytes)")
            }
            session.flush()
        }
        // read(2) on standard input, not FileHandle.availableData, which traps on a read error
        // (EIO from a terminal that went away, EISDIR for `< some-directory`).
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var readFailed = false
        while true {
            let count = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                let reason = String(cString: strerror(errno))
                session.line += 1
                session.error("standard input: cannot read (\(reason)); nothing after line \(session.line - 1) was read")
                readFailed = true
                break
            }
            if count == 0 { break }
            lines.feed(buffer[0..<count], into: &pieces)
            for piece in pieces { handle(piece) }
            pieces.removeAll(keepingCapacity: true)
        }
        if !readFailed, let last = lines.finish() { handle(last) }
        session.finish()
        session.flush()
        return session.commitRecording() && !readFailed ? 0 : 1
    }
}

/// One `host` run: a shell over the live loop (`InkLoop`), on a clock the input lines move.
/// The loop owns the engine, the wake-up at the next deadline, the sends, the recorder and
/// the audit; the shell turns lines into inputs and events into lines.
final class HostSession: InkLoopShell {
    let configuration: InkEngineConfiguration
    let seed: UInt64?
    /// The host's clock: each line's `t` moves it, and the deadlines due by then fire as
    /// the loop's wake-ups, at their own times.
    let clock = ManualClock(start: -.infinity)
    /// The loop, made at the first line (a header, if it is one, sets the page transform
    /// and the recording's canvas).
    private(set) var loop: InkLoop?
    let recording: RecordingFile?
    var reader = SessionLogLineReader(file: "<stdin>")
    var layer: InkLayer?
    /// How many stable segments of each stroke a `stroke` line has carried (stable
    /// segments never change, so the count says which are new).
    var sentStable: [TouchID: Int] = [:]
    /// The touches of each round trip the engine asked about, until the loop sends it.
    var asked: [QueryToken: (touches: [EngineTouch], time: Double)] = [:]
    /// The input line being handled (1-based): its refusals' `error` lines name it.
    var line = 0
    var out = ""
    var errors = 0
    /// The wake-up last announced in a `deadline` line (`nil`: none armed).
    var announcedDeadline: Double?

    init(configuration: InkEngineConfiguration, seed: UInt64?, geometry: Bool, recording: RecordingFile?) {
        self.configuration = configuration
        self.seed = seed
        self.recording = recording
        layer = geometry ? InkLayer() : nil
    }

    /// The host's time: the latest line's `t` or deadline.
    var now: Double { max(clock.now, loop?.engine.now ?? -.infinity) }

    /// The loop, made now if it was not (`transform` and `canvas` from the header, if any).
    @discardableResult
    func start(transform: PageTransform = .identity, canvas: (width: Double, height: Double) = (1024, 768)) -> InkLoop {
        if let loop { return loop }
        let recorder = recording.map { file in
            SessionRecorder(canvasWidth: canvas.width, canvasHeight: canvas.height, device: "ink-replay host",
                            sink: { bytes in file.offer(bytes) })
        }
        let made = InkLoop(configuration: configuration, transform: transform, clock: clock, seed: seed, recorder: recorder)
        made.shell = self
        loop = made
        return made
    }

    /// Writes what the last input line recorded (to the recording's temporary file first:
    /// a kill after the front end read the answer leaves every line of it), then the lines
    /// for the front end, flushed.
    func flush() {
        _ = loop?.flushRecording()
        guard !out.isEmpty else { return }
        StandardStream.output.write(out)
        StandardStream.output.flush()
        out = ""
    }

    func emit(_ members: [(String, JSONValue)]) {
        JSONValue.object(JSONObject(members.map { (key: $0.0, value: $0.1) })).write(to: &out)
        out += "\n"
    }

    func error(_ message: String) {
        errors += 1
        emit([("kind", .string("error")), ("line", .number(Double(line))), ("message", .string(InputText.printable(message)))])
    }

    func ignored(_ why: String, at time: Double) {
        emit([("kind", .string("ignored")), ("t", .number(time)), ("why", .string(why))])
    }

    /// A forward jump of time this large (seconds) in one line gets a `warning` line.
    static let absurdJump = 3_600.0

    func handle(_ bytes: [UInt8]) {
        let bytes = line == 1 ? Array(SessionLogLineReader.withoutByteOrderMark(bytes)) : bytes
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return }
        defer {
            asked.removeAll()   // every round trip still waiting was sent
            announceDeadline()
        }
        do {
            let value = try JSONParser.parse(bytes)
            let object = try JSONFieldReader(value)
            if object.has("format") {
                guard loop == nil else { throw EngineInputError("a session header is only accepted as the first line") }
                let header = try reader.decodeHeader(value: value, number: line)
                start(transform: header.pageTransform ?? .identity, canvas: (header.canvas.width, header.canvas.height))
                return
            }
            let loop = start()
            let kind = try object.string("kind")
            let time = try object.double("t")
            let now = now
            if now.isFinite, time - now > Self.absurdJump {
                // Still taken (time only moves on), but every later line must be as late.
                emit([("kind", .string("warning")), ("line", .number(Double(line))),
                      ("message", .string("time jumps \(JSONValue.format(time - now)) s ahead, from \(JSONValue.format(now)) to "
                          + "\(JSONValue.format(time)) s: were milliseconds sent as seconds? Every later line must be at least this late"))])
            }
            let input: EngineInput?
            switch kind {
            case "tick":
                input = nil   // time passes: the clock wakes the loop at the deadlines due
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
            case "layout", "resize", "document":
                let t = try object.nested("page_transform")
                let transform = PageTransform(scale: try t.double("scale"), offsetX: try t.optionalDouble("offset_x") ?? 0,
                                              offsetY: try t.optionalDouble("offset_y") ?? 0)
                switch kind {
                case "resize": input = .viewResized(transform)
                case "document": input = .newDocument(transform)
                default: input = .layout(transform, generation: try object.optionalUnsigned("generation"))
                }
            default:
                switch try reader.decodeEvent(value: value, number: line) {
                case let .touch(event, _): input = .touch(event)
                case let .update(update, _): input = .update(update)
                case let .regions(snapshot, _): input = .decodedPageMessage(.regions(snapshot))
                case let .answer(touch, verdict, _): input = .recordedAnswer(touch: touch, verdict: verdict)
                case let .recorded(.nativePageTouch(event), _): input = .nativePageTouch(event)
                case .recorded:
                    throw EngineInputError("a '\(kind)' line belongs to a recording's replay (ink-replay verify), not to a live host")
                }
            }
            // The loop takes inputs at its clock's time, which never goes back.
            guard time.isFinite else { throw EngineInputError("t is \(time), not a time") }
            guard time >= now else {
                throw EngineInputError("time went backwards from \(JSONValue.format(now)) s to \(JSONValue.format(time)) s")
            }
            clock.advance(to: time)   // the deadlines due by then fire, each at its time
            if let input { loop.submit(input) }   // its refusal, if any, is an `error` line (carryOut)
        } catch let failure as JSONSyntaxError {
            error("malformed JSON at column \(failure.column): \(failure.message)")
        } catch let failure as JSONShapeError {
            error(failure.description)
        } catch let failure as SessionLogError {
            error(failure.message)
        } catch let failure {
            error("\(failure)")
        }
    }

    /// Tells the front end when to send its next `tick`, whenever the loop's wake-up
    /// changed: a `{"kind":"deadline","t":…,"at":…}` line (`at` null when nothing waits).
    func announceDeadline() {
        let next = loop?.armedWakeUp
        guard next != announcedDeadline else { return }
        announcedDeadline = next
        emit([("kind", .string("deadline")), ("t", .number(now)), ("at", next.map { JSONValue.number($0) } ?? .null)])
    }

    /// The end of the input: the loop stops (touches still down are cancelled, undecided
    /// ones get the fallback, the audit closes, the recording is flushed), then the summary.
    func finish() {
        let loop = start()
        loop.stop()
        announceDeadline()
        let ledger = loop.ledger
        let metrics = loop.metrics
        let page = metrics.pageRefusals
        let verdict = loop.audit.verify(against: ledger)
        func count(_ name: String, _ value: Int) -> (String, JSONValue) { (name, .number(Double(value))) }
        func sentences(_ name: String, _ list: [String]) -> (String, JSONValue) {
            (name, .array(list.map { .string(InputText.printable($0)) }))
        }
        // docs/host.md lists every field and what it counts.
        emit([("kind", .string("summary")),
              count("received", ledger.received), count("inked", ledger.inked), count("released", ledger.released),
              count("cancelled", ledger.cancelled), count("refused", ledger.refused), count("pending", ledger.pending),
              count("dropped", ledger.dropped),
              count("queries", metrics.bridge.queries), count("round_trips", metrics.bridge.roundTrips),
              count("cache_hits", metrics.bridge.cacheHits), count("shared_queries", metrics.bridge.sharedQueries),
              count("timeouts", metrics.bridge.timeouts), count("deadlines", metrics.router.deadlinesPassed),
              count("overloaded", metrics.bridge.overloaded), count("speculations", metrics.bridge.speculations),
              count("retractions", metrics.router.retractions), count("gestures", metrics.router.gestures),
              count("late_answers", page.lateAnswers), count("duplicate_answers", page.duplicateAnswers),
              count("unknown_answers", page.unknownAnswers), count("stale_answers", page.staleAnswers),
              count("refused_messages", page.malformed), count("old_document_messages", page.oldDocument),
              count("snapshots_accepted", metrics.bridge.snapshotsAccepted), count("snapshots_refused", page.snapshots),
              count("answers_without_round_trip", loop.engine.answersWithoutRoundTrip),
              count("refused_inputs", metrics.refusedInputs), count("refused_lines", errors),
              sentences("refusals", metrics.recentRefusals),
              count("audit_problems", loop.audit.problemCount), sentences("audit_failures", metrics.auditFailures),
              ("verified", .bool(verdict.isEmpty)), sentences("verdict", verdict)])
        for problem in loop.audit.problems {
            emit([("kind", .string("audit")), ("message", .string(problem))])
        }
    }

    /// Renames the recording into place (the loop's `stop()` flushed its recorder); `false`
    /// (said on standard error) when it could not be written.
    func commitRecording() -> Bool {
        guard let recording else { return true }
        loop?.flushRecording()   // a sink that was behind is offered what is held once more
        do {
            try recording.commit()
            if let recorder = loop?.recorder, !recorder.isComplete {
                printError("Warning: --record \(recording.path): \(recorder.droppedLines) lines were left out (the file could not take them)")
            }
            return true
        } catch {
            printError("Error: --record \(recording.path): \(error.message)")
            return false
        }
    }

    // MARK: - InkLoopShell

    /// Writes the events, with consecutive samples of one touch and kind in one line.
    func carryOut(_ events: [EngineEvent]) {
        var batch: (kind: String, time: Double, touch: EngineTouch, samples: [TouchSample])?
        func flushBatch() {
            guard let current = batch else { return }
            let pointer: [(String, JSONValue)] = current.kind == "release" ? Self.pointerField(current.touch) : []
            emit([("kind", .string(current.kind)), ("t", .number(current.time))] + Self.touchFields(current.touch) + pointer + [
                  ("samples", .array(current.samples.map(SessionLog.sampleObject)))])
            batch = nil
        }
        var changed: [EngineTouch] = []
        for event in events {
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
                    flushBatch()
                    batch = (kind, event.time, touch, [sample])
                }
            default:
                flushBatch()
                emit(event)
            }
        }
        flushBatch()
        let time = events.last?.time ?? now
        for touch in changed { emitStroke(touch, at: time) }
    }

    /// A `query` line: the loop sends only round trips that still wait for the page.
    func send(_ request: HitTestRequest) {
        let question = asked.removeValue(forKey: request.token)
        let touches = question?.touches ?? []
        emit([("kind", .string("query")), ("t", .number(question?.time ?? now)), ("token", .string(request.token.description)),
              ("touches", .array(touches.map { .number(Double($0.platform)) })),
              ("engine_touches", .array(touches.map { .number(Double($0.engine.rawValue)) })),
              ("page_x", .number(request.pagePoint.x)), ("page_y", .number(request.pagePoint.y)),
              ("generation", .number(Double(request.generation))), ("request", .string(request.json))])
    }

    func cancelSend(_ roundTrip: QueryToken) { asked[roundTrip] = nil }

    /// A `push_regions` line: the view was resized and the snapshot dropped; the front end
    /// has the page script push one of the new layout.
    func askForRegions() { emit([("kind", .string("push_regions")), ("t", .number(now))]) }

    func emitStroke(_ touch: EngineTouch, at time: Double) {
        // The stroke is the touch's active one, or the one it just finished (the last).
        guard let layer, let stroke = layer.active.last(where: { $0.touch == touch.engine })
                ?? layer.finished.last(where: { $0.touch == touch.engine }) else { return }
        let stable = stroke.builder.stableSegments
        let keep = min(sentStable[touch.engine] ?? 0, stable.count)
        // Kept after the stroke finishes too (an estimated-property update can still make
        // more of it stable); forgotten when the stroke is removed.
        sentStable[touch.engine] = stable.count
        emit([("kind", .string("stroke")), ("t", .number(time))] + Self.touchFields(touch) + [
              ("keep_stable", .number(Double(keep))), ("stable_segments", .number(Double(stable.count))),
              ("stable", .string(StrokeOutline.svgPathData(Array(stable[keep...])))),
              ("volatile", .string(StrokeOutline.svgPathData(stroke.builder.volatileSegments)))])
    }

    /// How an output names a touch: `touch`, the id the front end gave it, and `engine_touch`,
    /// the engine's own id, unique over the session (the two differ once a platform id is reused).
    static func touchFields(_ touch: EngineTouch) -> [(String, JSONValue)] {
        [("touch", .number(Double(touch.platform))), ("engine_touch", .number(Double(touch.engine.rawValue)))]
    }

    /// `pointer`, the id the page sees for a touch handed to it (`EngineTouch.pagePointer`):
    /// unique among the page's pointers down, unlike `touch`, which the platform may reuse.
    static func pointerField(_ touch: EngineTouch) -> [(String, JSONValue)] {
        [("pointer", .number(Double(touch.pagePointer)))]
    }

    func emit(_ event: EngineEvent) {
        let t = ("t", JSONValue.number(event.time))
        switch event.kind {
        case .took, .layout, .newDocument, .viewResized, .replay, .scrollPage:
            return   // the host routes by hand-over: no replays, no gesture scrolls
        case let .refused(_, refusal):
            error(refusal.description)
        case let .pageMessage(_, outcome):
            switch outcome {
            case let .refused(why)?: error("page message refused: \(why)")
            case let .regionsRefused(why)?: error("region snapshot refused: \(why)")
            case .late?: ignored("late: its round trip already timed out or was cancelled", at: event.time)
            case .duplicate?: ignored("duplicate: its round trip was already answered", at: event.time)
            case .unknownQuery?: ignored("unknown query id (forged or garbled)", at: event.time)
            case .staleGeneration?: ignored("stale: computed for another layout; the question was sent again", at: event.time)
            case .oldDocument?: ignored("from a page document that was replaced", at: event.time)
            case .answered?, .regionsAccepted?, nil: break
            }
        case let .send(request, touches):
            asked[request.token] = (touches, event.time)   // the `query` line is written when the loop sends it
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
                emit([("kind", .string("end_release")), t] + touchFields + Self.pointerField(touch))
            case let .cancel(_, previously):
                emit([("kind", .string("cancel")), t] + touchFields + [("previously", .string(previously.rawValue))]
                     + (previously == .page ? Self.pointerField(touch) : []))
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
