@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkCore
@_spi(Tooling) import InkRecording
import InkTesting

/// `ink-replay host`'s line protocol (docs/host.md), without the process: one JSON line in,
/// the JSON lines it causes out. The executable is a shell over it that reads standard input
/// and writes standard output; a test drives it directly.
///
/// A session is a shell over the live loop (`InkLoop`) on a clock the input lines move: each
/// line's `t` advances a `ManualClock`, and the deadlines due by then fire as the loop's
/// wake-ups, at their own times, before the line's input is submitted. The loop owns the
/// engine, the wake-up at the next deadline, the sends, the recorder and the audit; the
/// session turns lines into the loop's inputs and its events into lines, and keeps no
/// deadline, recording or audit of its own.
///
/// ```swift
/// let session = HostProtocolSession(configuration: InkEngineConfiguration(), seed: 1)
/// var splitter = LineSplitter(maxLineBytes: HostProtocolSession.maxLineBytes)
/// var pieces: [LineSplitter.Piece] = []
/// splitter.feed(Array(input.utf8), into: &pieces)
/// for piece in pieces { write(session.take(piece)) }      // each line's output as it comes
/// if let last = splitter.finish() { write(session.take(last)) }
/// write(session.finish())                                 // the deadline, summary and audit lines
/// ```
///
/// Every call returns the output lines (JSON objects, without their line endings) in the
/// order things happened; a recording's sink has been offered what the call recorded before
/// it returns, so a shell that writes the lines afterwards never shows a front end an answer
/// the recording lacks. Not thread-safe: one session is driven from one thread at a time.
package final class HostProtocolSession {
    /// The longest input line taken, without its line ending (1 MiB, a session log's): a
    /// longer one is refused with an `error` line and not held (``take(_:)``).
    package static let maxLineBytes = SessionLog.maxLineBytes

    /// The device a recording's header names.
    package static let recordingDevice = "ink-replay host"

    let configuration: InkEngineConfiguration
    let seed: UInt64?
    /// The host's clock: each line's `t` moves it, and the deadlines due by then fire as
    /// the loop's wake-ups, at their own times.
    let clock = ManualClock(start: -.infinity)
    /// The loop, made at the first line (a header, if it is one, sets the page transform
    /// and the recording's canvas).
    private(set) var loop: InkLoop?
    /// Where the loop's recorder writes, when the session is recorded.
    let recordingSink: (@Sendable ([UInt8]) -> Bool)?
    /// The loop's shell: this session's side of ``InkLoopShell``, kept here (the loop holds
    /// its shell weakly) and out of the session's API.
    private var shell: Shell?
    var reader = SessionLogLineReader(file: "<stdin>")
    var layer: InkLayer?
    /// How many stable segments of each stroke a `stroke` line has carried (stable
    /// segments never change, so the count says which are new).
    var sentStable: [TouchID: Int] = [:]
    /// The touches of each round trip the engine asked about, until the loop sends it.
    var asked: [QueryToken: (touches: [EngineTouch], time: Double)] = [:]
    /// The output lines of the call under way.
    var out: [String] = []
    /// `error` lines written so far (the summary's `refused_lines`).
    var errors = 0
    /// The wake-up last announced in a `deadline` line (`nil`: none armed).
    var announcedDeadline: Double?

    /// The input lines taken so far, refused ones included (1-based numbers in `error` and
    /// `warning` lines name them).
    package private(set) var lineCount = 0

    /// A session that has taken no line yet.
    /// - Parameters:
    ///   - configuration: The engine's configuration (`ink-replay host`'s options).
    ///   - seed: Seeds the query tokens, for tests; `nil` makes them unpredictable.
    ///   - geometry: Also write `stroke` lines, each changed stroke's outline as SVG path data.
    ///   - recordingSink: Records the session as a live recording (session log version 2):
    ///     the loop's `SessionRecorder` offers it whole lines as it goes (`false`: the sink is
    ///     behind, and the recorder holds them within its budget or counts them dropped).
    package init(configuration: InkEngineConfiguration, seed: UInt64? = nil, geometry: Bool = false,
                 recordingSink: (@Sendable ([UInt8]) -> Bool)? = nil) {
        self.configuration = configuration
        self.seed = seed
        self.recordingSink = recordingSink
        layer = geometry ? InkLayer() : nil
    }

    /// Takes one input line (its bytes without the line ending) and returns the lines it
    /// caused: the lines of the deadlines that fired before it, its own (`error`, `ignored`,
    /// `warning` and the events of its input), the `query` lines of the round trips sent, and a
    /// `deadline` line if the loop's wake-up changed. A blank line is skipped, but counted.
    package func take(line bytes: [UInt8]) -> [String] {
        lineCount += 1
        handle(bytes)
        return drain()
    }

    /// Takes a piece of the input as a `LineSplitter` cut it (with
    /// ``maxLineBytes``): a line, or one too long, refused with an `error` line naming its
    /// size (the lines after it are taken as usual).
    package func take(_ piece: LineSplitter.Piece) -> [String] {
        switch piece {
        case let .line(bytes): take(line: bytes)
        case let .tooLong(bytes): refuseLine("a line of \(bytes) bytes, longer than \(Self.maxLineBytes)")
        }
    }

    /// Counts one more input line and refuses it with an `error` line saying `message`: a
    /// line the shell could not hand over (too long, or a read that failed, as
    /// `standard input: cannot read (…); nothing after line N was read`).
    package func refuseLine(_ message: String) -> [String] {
        lineCount += 1
        error(message)
        return drain()
    }

    /// The end of the input: the loop stops (touches still down are cancelled, undecided
    /// ones get the fallback, the audit closes, the recording's last lines are offered to its
    /// sink), then a `deadline` line (`at` null) if one was armed, the `summary` line and
    /// one `audit` line per delivery problem the live audit found. Call it once.
    package func finish() -> [String] {
        writeSummary()
        return drain()
    }

    /// The loop's recorder, when the session is recorded: whether it kept every line
    /// (`isComplete`, `droppedLines`).
    package var recorder: SessionRecorder? { loop?.recorder }

    /// Offers what the recorder holds to its sink once more (a sink that was behind may
    /// have caught up): `true` when nothing is held. Call it before committing a recording.
    @discardableResult
    package func flushRecording() -> Bool { loop?.flushRecording() ?? true }

    /// The lines of the call under way, after the recording was offered what it recorded.
    private func drain() -> [String] {
        _ = loop?.flushRecording()
        defer { out.removeAllBounded() }
        return out
    }

    /// The host's time: the latest line's `t` or deadline.
    var now: Double { max(clock.now, loop?.engine.now ?? -.infinity) }

    /// The loop, made now if it was not (`transform` and `canvas` from the header, if any).
    @discardableResult
    func start(transform: PageTransform = .identity, canvas: (width: Double, height: Double) = (1024, 768)) -> InkLoop {
        if let loop { return loop }
        let recorder = recordingSink.map { sink in
            SessionRecorder(canvasWidth: canvas.width, canvasHeight: canvas.height, device: Self.recordingDevice, sink: sink)
        }
        let made = InkLoop(configuration: configuration, transform: transform, clock: clock, seed: seed, recorder: recorder)
        let shell = Shell(session: self)
        self.shell = shell
        made.shell = shell
        loop = made
        return made
    }

    func emit(_ members: [(String, JSONValue)]) {
        var line = ""
        JSONValue.object(JSONObject(members.map { (key: $0.0, value: $0.1) })).write(to: &line)
        out.append(line)
    }

    func error(_ message: String) {
        errors += 1
        emit([("kind", .string("error")), ("line", .number(Double(lineCount))), ("message", .string(InputText.printable(message)))])
    }

    func ignored(_ why: String, at time: Double) {
        emit([("kind", .string("ignored")), ("t", .number(time)), ("why", .string(why))])
    }

    /// A forward jump of time this large (seconds) in one line gets a `warning` line.
    static let absurdJump = 3_600.0

    /// One input line (``lineCount`` is its number): a header (first line only) starts the
    /// loop with its transform and canvas; any other line is read into the loop's input,
    /// the clock moves to its `t` (the deadlines due fire first) and the loop takes it. A line
    /// refused here (not JSON, not an event, back in time) never reaches the loop.
    func handle(_ bytes: [UInt8]) {
        let bytes = lineCount == 1 ? Array(SessionLogLineReader.withoutByteOrderMark(bytes)) : bytes
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return }
        defer {
            asked.removeAll()   // every round trip still waiting was sent
            announceDeadline()
        }
        do {
            let value = try JSONParser.parse(bytes)
            let object = try JSONFieldReader(value)
            if object.has("format") {
                guard loop == nil else { throw HostLineError("a session header is only accepted as the first line") }
                let header = try reader.decodeHeader(value: value, number: lineCount)
                start(transform: header.pageTransform ?? .identity, canvas: (header.canvas.width, header.canvas.height))
                return
            }
            let loop = start()
            let kind = try object.string("kind")
            let time = try object.double("t")
            let now = now
            if now.isFinite, time - now > Self.absurdJump {
                // Still taken (time only moves on), but every later line must be as late.
                emit([("kind", .string("warning")), ("line", .number(Double(lineCount))),
                      ("message", .string("time jumps \(JSONValue.format(differenceOf: time, minus: now)) s ahead, from \(JSONValue.format(now)) to "
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
            case _ where FrontEndInput.kinds.contains(kind):
                input = try FrontEndInput.decode(kind: kind, object)?.input
            default:
                switch try reader.decodeEvent(value: value, number: lineCount) {
                case let .touch(event, _): input = .touch(event)
                case let .update(update, _): input = .update(update)
                case let .regions(snapshot, _): input = .decodedPageMessage(.regions(snapshot))
                case let .answer(touch, verdict, _): input = .recordedAnswer(touch: touch, verdict: verdict)
                case let .recorded(.nativePageTouch(event), _): input = .nativePageTouch(event)
                case .recorded:
                    throw HostLineError("a '\(kind)' line belongs to a recording's replay (ink-replay verify), not to a live host")
                }
            }
            // The loop takes inputs at its clock's time, which never goes back.
            guard time.isFinite else { throw HostLineError("t is \(time), not a time") }
            guard time >= now else {
                throw HostLineError("time went backwards from \(JSONValue.format(now)) s to \(JSONValue.format(time)) s")
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

    /// The end of the input: the loop stops, then the summary (``finish()``).
    private func writeSummary() {
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

    // MARK: - The loop's shell (``Shell`` forwards here)

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
            if case let .action(action) = event.kind, let touch = event.engineTouch, let change = layer?.apply(action) {
                if change.removed {
                    sentStable[change.touch] = nil
                    changed.removeAll { $0.engine == change.touch }
                } else if !changed.contains(touch) {
                    changed.append(touch)
                }
            }
            switch event.kind {
            case let .action(.ink(_, sample)), let .action(.release(_, sample)):
                guard let touch = event.engineTouch else { continue }
                let kind: String
                if case .action(.ink) = event.kind { kind = "ink" } else { kind = "release" }
                if let current = batch, current.kind == kind, current.touch == touch {
                    batch!.samples.append(sample)
                } else {
                    flushBatch()
                    batch = (kind, event.time, touch, [sample])
                }
            case .pageTouch:
                continue   // the release, end_release and cancel lines carry the page's pointer already
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
              ("touches", .array(touches.map { .number(Double($0.platform.rawValue)) })),
              ("engine_touches", .array(touches.map { .number(Double($0.engine.rawValue)) })),
              ("page_x", .number(request.pagePoint.x)), ("page_y", .number(request.pagePoint.y)),
              ("generation", .number(Double(request.generation))), ("request", .string(request.json))])
    }

    func cancelSend(_ request: HitTestRequest) { asked[request.token] = nil }

    /// A `push_regions` line: a navigation was reported (the page says which document it
    /// shows), or the view's size settled after a resize (the snapshot was dropped); the front
    /// end has the page script push one (`PageScript.pushRegionsInvocation`).
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
        [("touch", .number(Double(touch.platform.rawValue))), ("engine_touch", .number(Double(touch.engine.rawValue)))]
    }

    /// `pointer`, the id the page sees for a touch handed to it (the engine's id, `EngineTouch.pagePointer`):
    /// unique among the page's pointers down, unlike `touch`, which the platform may reuse.
    static func pointerField(_ touch: EngineTouch) -> [(String, JSONValue)] {
        [("pointer", .number(Double(touch.pagePointer)))]
    }

    func emit(_ event: EngineEvent) {
        let t = ("t", JSONValue.number(event.time))
        switch event.kind {
        case .took, .layout, .newDocument, .viewResized, .replay, .pageTouch, .scrollPage, .zoomPage:
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
            guard let touch = event.engineTouch else { return }
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

extension HostProtocolSession {
    /// The session's side of the live loop, out of its API: the loop holds its shell weakly,
    /// the session holds this, and this reaches back to the session without holding it.
    final class Shell: InkLoopShell {
        unowned let session: HostProtocolSession

        init(session: HostProtocolSession) { self.session = session }

        func carryOut(_ events: [EngineEvent]) { session.carryOut(events) }
        func send(_ request: HitTestRequest) { session.send(request) }
        func cancelSend(_ request: HitTestRequest) { session.cancelSend(request) }
        func askForRegions() { session.askForRegions() }
    }
}

/// An input line the session refuses before the loop sees it, with the sentence its `error`
/// line says.
struct HostLineError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
