@_spi(Tooling) import InkCore

/// Records a live session as session-log lines (docs/session-format.md, version 2) and hands
/// them to a sink the app owns: what `InkEngine` took (touches, native page touches,
/// estimated updates, the page's answers and region snapshots with the page document that
/// sent them, layout changes, new documents) and what it
/// decided (each touch's owner and reason, where its samples went, a digest of its ink), under
/// a header naming the engine's version and configuration. `ink-replay verify` replays such a
/// recording and checks that every touch is decided and inked the same way.
///
/// It does no file I/O and never blocks: it encodes each line into a buffer of at most
/// `budgetBytes` and offers the buffer to the sink (a closure that must return at once) when
/// it holds `chunkBytes` or more, and on ``flush()``. A sink that returns `false` is behind:
/// the buffer is offered again later. When a line does not fit the budget it is dropped and
/// counted; the first line the sink takes after a gap is a `dropped` line saying how many lines
/// (and samples) are missing and when, so that a replay claims no identity over it.
///
/// Every line after the header carries the chain of the lines before it (a running 64-bit
/// FNV-1a digest, format version 3), and ``recordEnd(at:ledger:)`` ends the recording with
/// a line of totals: `ink-replay verify` then names the first line where a cut, removed or
/// edited recording breaks, and calls a recording with no end incomplete.
///
/// A recording holds handwriting (every sample: position, time, force, tilt), times, the
/// page's interactive rectangles and, unless `elementIDs` is `false`, the element ids the page
/// script reports; never page text. Where the lines go is the app's decision.
///
/// Drive it beside the engine, on the same thread or actor (``InkSession`` does, when given
/// one):
///
/// ```swift
/// var recorder = SessionRecorder(canvasWidth: 1024, canvasHeight: 768) { bytes in
///     writer.offer(bytes)          // returns at once: false when it is behind
/// }
/// recorder.begin(engine)           // the header: engine version, configuration, transform
/// let start = events.count
/// engine.take(input, now: now, into: &events)
/// recorder.record(input, at: now, events: events[start...])
/// // … at the end:
/// var finished: [EngineEvent] = []
/// engine.finish(now: engine.now, into: &finished)   // the deadlines due, then the fallback
/// recorder.recordFinish(at: engine.now, events: finished)
/// recorder.recordEnd(at: engine.now, ledger: engine.ledger)   // the end line: the recording is whole
/// recorder.flush()
/// ```
///
/// One `record(_:at:events:)` per input, right after the `take` that took it, with that
/// input's events only: a platform callback that hands over several inputs takes and
/// records each in turn. Deadlines are inputs too: when the app's timer fires, take
/// `EngineInput.tick` and record it like any other (``InkLoop`` does, for every wake-up).
/// `InkEngine.advance(to:)` fires the same deadlines but is not an input and leaves no line;
/// an app that calls it must record a `.tick` at that time with the events it appended, or
/// the replay decides those touches at a different moment than they were live.
public struct SessionRecorder: Sendable {
    private let sink: @Sendable ([UInt8]) -> Bool
    private let canvas: (width: Double, height: Double)
    private let exercise: String?
    private let device: String?
    private let elementIDs: Bool
    private let budget: Int
    private let chunk: Int
    private var buffer: [UInt8] = []
    private var line: [UInt8] = []
    /// The `dropped` line a gap writes before the next line kept.
    private var marker: [UInt8] = []
    private var begun = false
    private var tools = HeldTools()
    private var digests = InkDigests()
    /// The round trips sent, by token: their 0-based order in the session (the last
    /// ``roundTripMemory`` only).
    private var roundTrips: [QueryToken: Int] = [:]
    private var roundTripOrder: [QueryToken] = []
    private var roundTripStart = 0
    private var nextRoundTrip = 0
    /// The chain of the lines in the recording so far (docs/session-format.md, version 3).
    private var chain = LineChain()
    /// Lines in the recording so far (the header included), the touch samples in them and
    /// the touches begun in them: what the `end` line totals.
    private var linesChained = 0
    private var samplesChained = 0
    private var touchesChained = 0
    /// The drops not yet reported in a `dropped` line (`tooLong`: the longest line left out
    /// for its length, if any was).
    private var gap: (lines: Int, samples: Int, from: Double, to: Double, tooLong: Int?)?

    /// How many round trips the recorder remembers, to name the one a page answer is for.
    static let roundTripMemory = 4_096

    /// Lines the recorder left out (the sink was behind, or the line was too long), over the
    /// whole session.
    public private(set) var droppedLines = 0
    /// Lines left out for their length: longer than the 8 MiB a session-log line may have
    /// (no reader would take them). A line of any input within the engine's limits is shorter.
    public private(set) var linesTooLong = 0
    /// The longest line left out for its length, in bytes (0: none was).
    public private(set) var longestLineLeftOut = 0
    /// Touch samples in the lines left out.
    public private(set) var droppedSamples = 0
    /// Lines the sink has taken.
    public private(set) var linesWritten = 0
    /// Bytes held, waiting for the sink.
    public var bufferedBytes: Int { buffer.count }
    private var linesBuffered = 0

    /// Creates a recorder; it writes nothing until `begin(_:)`.
    /// - Parameters:
    ///   - canvasWidth: The canvas's width in canvas points (> 0), for the header.
    ///   - canvasHeight: The canvas's height in canvas points (> 0).
    ///   - exercise: An identifier path of the exercise under the canvas, for the header.
    ///   - device: Free text about the device, for the header.
    ///   - elementIDs: Whether region snapshots keep the page's element ids (`false` leaves
    ///     them out: the recording then holds rectangles only).
    ///   - budgetBytes: The most bytes held for the sink (default 1 MiB, at least 64 KiB); a
    ///     line that does not fit while the sink is behind is dropped and counted. One line
    ///     longer than the budget is taken alone once the sink took what was held; a line
    ///     longer than a reader takes (8 MiB) is dropped and counted apart (``linesTooLong``).
    ///   - chunkBytes: The sink is offered the buffer once it holds this many bytes (default
    ///     16 KiB), and on ``flush()``.
    ///   - sink: Takes a piece of the log (whole lines, each ending with a newline) and returns
    ///     `true`, or returns `false` at once when it cannot take it now (the same bytes, and
    ///     more, are offered again later). Called on the recorder's caller's thread.
    public init(canvasWidth: Double, canvasHeight: Double, exercise: String? = nil, device: String? = nil,
                elementIDs: Bool = true, budgetBytes: Int = 1 << 20, chunkBytes: Int = 16 << 10,
                sink: @escaping @Sendable (_ lines: [UInt8]) -> Bool) {
        canvas = (canvasWidth > 0 && canvasWidth.isFinite ? canvasWidth : 1, canvasHeight > 0 && canvasHeight.isFinite ? canvasHeight : 1)
        self.exercise = exercise
        self.device = device
        self.elementIDs = elementIDs
        budget = max(budgetBytes, 64 << 10)
        chunk = min(max(chunkBytes, 1), budget)
        self.sink = sink
    }

    /// Whether nothing was left out so far.
    public var isComplete: Bool { droppedLines == 0 }

    /// Whether the recording has its `end` line (``recordEnd(at:ledger:)``): it records
    /// nothing more.
    public private(set) var isEnded = false

    /// Writes the header from the engine's state before its first input: its version, its
    /// configuration, its page transform and layout generation. Call it once, before the
    /// first `record(_:at:events:)`; a second call does nothing.
    @_spi(Tooling) public mutating func begin(_ engine: InkEngine) {
        guard !begun else { return }
        begun = true
        // The number formatter's powers of ten are computed on first use: here, at the
        // header, rather than on the first touch's line.
        ShortestDecimal.prepare()
        var recorder = JSONObject()
        recorder.append("engine", .string(InkEngine.version))
        recorder.append("configuration", SessionLogLines.configuration(engine.configuration))
        recorder.append("page_generation", .number(Double(engine.pageGeneration)))
        recorder.append("element_ids", .bool(elementIDs))
        let transform = engine.pageTransform
        write(SessionLogLines.header(version: SessionLogLines.recordingVersion, canvasWidth: canvas.width, canvasHeight: canvas.height,
                                     transform: transform == .identity ? nil : transform, exercise: exercise, device: device,
                                     source: "recorded live by SessionRecorder", synthesizedTiming: nil, recorder: recorder),
              time: -.infinity, samples: 0)
    }

    /// Records one input the engine took at `time` (the `now` given to `InkEngine.take(_:now:into:)`)
    /// and the events it appended for it: the input's line (unless it was refused, or is a
    /// tick), then a `decided` line per decision and a `finished` line per finished touch.
    /// Before `begin(_:)` it records nothing and counts the input as dropped.
    public mutating func record(_ input: EngineInput, at time: Double, events: some Collection<EngineEvent>) {
        // The events are read from contiguous storage: iterating a collection of the
        // caller's module, unspecialized, costs a heap-allocated accessor per element.
        let done: Void? = events.withContiguousStorageIfAvailable { record(input, at: time, eventsIn: $0) }
        if done == nil { Array(events).withUnsafeBufferPointer { record(input, at: time, eventsIn: $0) } }
    }

    private mutating func record(_ input: EngineInput, at time: Double, eventsIn events: UnsafeBufferPointer<EngineEvent>) {
        guard !isEnded else { return }
        guard begun else {
            drop(samples: input.sampleCount, time: time)
            return
        }
        var refused = false
        var page: (PageMessage?, ReceiveOutcome?)?
        // Decisions a deadline made before the input are written after it, at its time (a
        // line's `t` never goes back); `at` keeps when they happened.
        for event in events {
            switch event.kind {
            case .refused: refused = true
            case let .pageMessage(message, outcome): page = (message, outcome)
            case let .send(request, _): noteRoundTrip(request.token)
            default: break
            }
        }
        if !refused {
            switch input {
            case .tick:
                break
            case let .touch(event):
                writeTouch(event, nativePage: false, time: time)
            case let .nativePageTouch(event):
                writeTouch(event, nativePage: true, time: time)
            case let .update(update):
                write(SessionLogLines.update(update, time: time), time: time, samples: 0)
            case .pageMessage, .decodedPageMessage:
                recordPage(page, time: time)
            case let .recordedAnswer(touch, verdict):
                write(SessionLogLines.answer(touch: touch, verdict: verdict, time: time), time: time, samples: 0)
            case let .sendFailed(request):
                if let order = roundTrips[request.token] { write(SessionLogLines.sendFailed(roundTrip: order, time: time), time: time, samples: 0) }
            case .layout, .newDocument, .viewResized, .pencilHovering, .pencilOnly:
                if let view = FrontEndInput(input) { write(view.line(time: time), time: time, samples: 0) }
            }
        }
        recordDecisions(events, time: time)
    }

    /// Records that the front end called `InkEngine.finish(into:)` at `time` (the engine's
    /// `now`), and the events it appended: a replay settles the same touches at the same point.
    public mutating func recordFinish(at time: Double, events: some Collection<EngineEvent>) {
        let done: Void? = events.withContiguousStorageIfAvailable { recordFinish(at: time, eventsIn: $0) }
        if done == nil { Array(events).withUnsafeBufferPointer { recordFinish(at: time, eventsIn: $0) } }
    }

    private mutating func recordFinish(at time: Double, eventsIn events: UnsafeBufferPointer<EngineEvent>) {
        guard begun, !isEnded, time.isFinite else { return }   // an engine given no input has nothing to settle
        write(SessionLogLines.finish(time: time), time: time, samples: 0)
        recordDecisions(events, time: time)
    }

    /// Ends the recording with its `end` line: the totals of the lines written (lines, touch
    /// samples, touches begun) and the engine's final `ledger` (`InkEngine.ledger`), at
    /// `time` (the engine's `now`, or the last input's time when it never took one). A
    /// recording without it reads as incomplete: the session did not finish. Call it once,
    /// after the last `record(_:at:events:)` and ``recordFinish(at:events:)``, then
    /// ``flush()``; the recorder records nothing more.
    public mutating func recordEnd(at time: Double, ledger: SampleLedger) {
        guard begun, !isEnded else { return }
        let end = time.isFinite ? time : 0
        let lines = linesChained + (gap == nil ? 0 : 1)
        write(SessionLogLines.end(lines: lines, samples: samplesChained, touches: touchesChained, ledger: ledger, time: end),
              time: end, samples: 0)
        isEnded = true
    }

    /// Offers everything held to the sink now. Returns `true` when the sink took it (nothing
    /// is held), `false` when it is behind.
    @discardableResult
    public mutating func flush() -> Bool {
        guard !buffer.isEmpty else { return true }
        guard sink(buffer) else { return false }
        buffer.removeAll(keepingCapacity: buffer.capacity <= chunk * 2)
        linesWritten += linesBuffered
        linesBuffered = 0
        return true
    }

    // MARK: - Private

    private mutating func recordDecisions(_ events: UnsafeBufferPointer<EngineEvent>, time: Double) {
        for event in events {
            guard case let .action(action) = event.kind else { continue }
            let digest = digests.take(action)
            guard let touch = event.engineTouch else { continue }
            switch action {
            case let .decided(_, owner, reason):
                write(SessionLogLines.decided(touch: touch, owner: owner, reason: reason, at: event.time, time: time), time: time, samples: 0)
            case let .touchFinished(_, ledger):
                write(SessionLogLines.finished(touch: touch, ledger: ledger, ink: (digest ?? InkDigest()).hex, at: event.time, time: time),
                      time: time, samples: 0)
            default:
                break
            }
        }
    }

    private mutating func recordPage(_ page: (PageMessage?, ReceiveOutcome?)?, time: Double) {
        guard let (message, outcome) = page, let message else { return }   // refused: it changed nothing but a count
        switch message {
        case let .answer(answer):
            write(SessionLogLines.pageAnswer(roundTrip: roundTrips[answer.token], verdict: answer.verdict,
                                             generation: answer.generation, document: answer.document, time: time), time: time, samples: 0)
        case let .regions(snapshot):
            // A snapshot refused for what it holds changed nothing but a count, unless it named
            // a document: that may have started a new document, so it is written, refused or
            // not (as an old document's too), and the replay takes or refuses it the same way.
            if case .regionsRefused = outcome, snapshot.document == nil { return }
            write(SessionLogLines.regions(snapshot, time: time, elementIDs: elementIDs), time: time, samples: 0)
        }
    }

    private mutating func noteRoundTrip(_ token: QueryToken) {
        guard roundTrips[token] == nil else { return }
        roundTrips[token] = nextRoundTrip
        nextRoundTrip += 1
        roundTripOrder.append(token)
        if roundTripOrder.count - roundTripStart > Self.roundTripMemory {
            roundTrips[roundTripOrder[roundTripStart]] = nil
            roundTripStart += 1
            if roundTripStart >= Self.roundTripMemory {
                roundTripOrder.removeFirst(roundTripStart)
                roundTripStart = 0
            }
        }
    }

    private mutating func drop(samples: Int, time: Double, tooLong: Int? = nil) {
        droppedLines += 1
        droppedSamples += samples
        if let tooLong {
            linesTooLong += 1
            longestLineLeftOut = max(longestLineLeftOut, tooLong)
        }
        let longest = [gap?.tooLong, tooLong].compactMap { $0 }.max()
        if let current = gap {
            gap = (current.lines + 1, current.samples + samples, current.from, max(current.to, time), longest)
        } else {
            gap = (1, samples, time, time, longest)
        }
    }

    /// A touch line, the one written per sample: encoded straight into the line.
    private mutating func writeTouch(_ event: TouchEvent, nativePage: Bool, time: Double) {
        // The tools are remembered even when the line is dropped: the reader then meets a
        // gap, and the identity check is off anyway.
        var text: [UInt8] = []
        swap(&text, &line)
        text.removeAllBounded()
        SessionLogLines.writeTouch(event, time: time, nativePage: nativePage, tools: &tools, to: &text)
        swap(&text, &line)
        append(time: time, samples: event.samples.count, touches: event.phase == .began ? 1 : 0)
    }

    /// Encodes a line into the buffer, or drops it when the buffer is full; offers the buffer
    /// to the sink once it holds a chunk.
    private mutating func write(_ value: JSONValue, time: Double, samples: Int) {
        line.removeAllBounded()
        value.write(to: &line)
        append(time: time, samples: samples)
    }

    /// Appends ``line`` (and, after a gap, the `dropped` line before it) to the buffer,
    /// sealed with the chain (the header is only taken into it), or drops it when the budget
    /// is full: the chain then goes on from the last line kept.
    private mutating func append(time: Double, samples: Int, touches: Int = 0) {
        if buffer.count >= chunk { flush() }
        var sealed = chain
        marker.removeAllBounded()
        if let gap {
            SessionLogLines.dropped(lines: gap.lines, samples: gap.samples, from: gap.from, to: gap.to, tooLong: gap.tooLong, time: time)
                .write(to: &marker)
            sealed.seal(&marker)
        }
        if linesChained == 0, marker.isEmpty {
            sealed.take(line: line)   // the header: the first line, the chain's start
        } else {
            sealed.seal(&line)
        }
        // A line no reader would take is left out for its length, and said so.
        guard line.count <= SessionLogLines.maxLineBytes else {
            drop(samples: samples, time: time, tooLong: line.count)
            return
        }
        let count = line.count + 1 + (marker.isEmpty ? 0 : marker.count + 1)
        // What is held is offered first; a line longer than the budget is then taken alone
        // (the budget bounds what waits for a sink that is behind, not one line: issue 53, a
        // snapshot the engine took was dropped as if the sink were behind).
        if buffer.count + count > budget, !buffer.isEmpty { flush() }
        guard buffer.isEmpty || buffer.count + count <= budget else {
            drop(samples: samples, time: time)
            return
        }
        chain = sealed
        if !marker.isEmpty {
            buffer.append(contentsOf: marker)
            buffer.append(0x0A)
            gap = nil
            linesBuffered += 1
            linesChained += 1
        }
        buffer.append(contentsOf: line)
        buffer.append(0x0A)
        linesBuffered += 1
        linesChained += 1
        samplesChained += samples
        touchesChained += touches
    }
}
