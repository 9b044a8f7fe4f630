import Foundation
@_spi(Tooling) import InkCore

/// First-ink latencies, counted in fixed buckets (milliseconds, upper bounds inclusive).
@_spi(Tooling) public struct LatencyHistogram: Sendable, Hashable {
    /// Upper bounds of the buckets, milliseconds; a last bucket holds everything above.
    public static let bounds: [Double] = [0, 8, 16, 33, 100, 250]
    /// Counts per bucket: `counts[i]` for latencies ≤ `bounds[i]` (and above the previous
    /// bound); the last entry for latencies above every bound.
    public private(set) var counts = [Int](repeating: 0, count: bounds.count + 1)

    /// Creates an empty histogram.
    public init() {}

    /// Counts one latency in seconds.
    public mutating func record(_ seconds: Double) {
        let ms = seconds * 1000
        counts[Self.bounds.firstIndex { ms <= $0 + 1e-9 } ?? Self.bounds.count] += 1
    }

    /// How many latencies were recorded.
    public var total: Int { counts.reduce(0, +) }
}

/// A live session for Swift concurrency: an actor over the one live loop (``InkLoop``) with a
/// transport to the page (`send`) and an injected ``InkLoopClock``.
///
/// Everything goes in through ``submit(_:)-([EngineInput])``: touch events, estimated-property
/// updates, the page's messages, layout changes, a new document. It is `nonisolated` and
/// returns at once; inputs are taken by ``run()`` strictly in the order they were submitted,
/// so a region snapshot submitted before a touch is in the cache when the touch asks. The
/// page's replies to the session's own sends and the one timer's wake-ups join the same
/// queue. When ``run()`` ends (its task is cancelled), what was submitted before is taken,
/// the loop stops (every touch still down cancelled, the audit closed, the recording
/// flushed), and anything submitted later is refused and counted: `received` always equals
/// what was handed in.
///
/// What happened comes out of ``events``, one batch per input taken, in order. Iterate it
/// from one task (a `@MainActor` one to draw): a single `for await` loop keeps the batches
/// in order; a task per batch would not.
///
/// The clock must count in the same seconds as the samples' timestamps: the default,
/// the system's uptime (`ProcessInfo.systemUptime`), is the timebase of `UITouch.timestamp`. An app that must answer the
/// platform's synchronous hit test (UIKit) drives an ``InkLoop`` on its main thread instead:
/// an actor cannot answer synchronously.
///
/// ```swift
/// let session = InkSession { request in try await webView.ask(request) }   // the transport
/// Task { await session.run() }                       // takes the inputs until cancelled
/// Task { @MainActor in
///     for await batch in session.events { canvas.apply(batch) }   // in order, on the main actor
/// }
/// session.submit([.touch(event)])                    // from the touch callback
/// session.submit([.pageMessage(messageBody)])        // from the page's message handler
/// ```
public actor InkSession {
    private let loop: InkLoop
    private let shell: SessionShell
    private let timer: SessionTimer
    private let mailbox: Mailbox
    private let signal: AsyncStream<Void>.Continuation
    private let signals: AsyncStream<Void>
    private var settledWaiters: [CheckedContinuation<Void, Never>] = []
    private var sendWaiters: [CheckedContinuation<Void, Never>] = []
    private var running = false

    /// What happened, one batch per input taken, in order. Iterate it from one task; it ends
    /// when ``run()`` returns. Unbounded: a consumer that stops reading makes it grow.
    public nonisolated let events: AsyncStream<[EngineEvent]>

    /// Creates a session. Nothing is taken until ``run()`` runs.
    /// - Parameters:
    ///   - configuration: How touches are decided and the page asked (one timeout).
    ///   - transform: Canvas to page, until a `.layout` input.
    ///   - pageGeneration: The page's layout generation at the start (the bundled page
    ///     script's first, by default).
    ///   - send: How the session reaches the page: a transport only, every decision stays
    ///     with the session's engine. It evaluates ``HitTestRequest/scriptInvocation`` in
    ///     the page (or hands the request to the page script by other means), in a task of
    ///     its own per request, and returns the page's reply message, untrusted, when the
    ///     transport returns it directly, or `nil` when the reply arrives later through
    ///     ``submit(_:)-(EngineInput)``. It throws when the page cannot be asked: the
    ///     request's touches get the fallback at once. A send the session no longer needs (its
    ///     round trip was settled) is cancelled.
    ///   - clock: The clock the deadlines run on, on the samples' timebase. `nil`, the
    ///     default: the system's uptime (`ProcessInfo.systemUptime`, the platform touch
    ///     timestamps' clock), its wake-ups tasks that sleep. A clock given here may call its
    ///     wake-ups on any thread: the session takes them through its own queue, in order
    ///     with the inputs (`ManualClock`, from the InkTesting product, calls them on the
    ///     thread that advances it).
    ///   - seed: Seeds the round trips' ids (`nil`, the default: the system's random generator).
    ///   - recorder: Records the session for `ink-replay verify` (see ``SessionRecorder``):
    ///     the loop records every input taken, every wake-up and every decision, as
    ///     session-log lines handed to the recorder's sink from the session's actor. It offers
    ///     what it holds at the end of ``run()``, on ``flush()`` and on ``flushRecording()``.
    ///     `nil`, the default, records nothing.
    public init(configuration: InkEngineConfiguration = InkEngineConfiguration(), transform: PageTransform = .identity,
                pageGeneration: UInt64 = PageScript.firstGeneration,
                clock: (any InkLoopClock & Sendable)? = nil, seed: UInt64? = nil, recorder: SessionRecorder? = nil,
                send: @escaping @Sendable (HitTestRequest) async throws -> String?) {
        (signals, signal) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let (events, sink) = AsyncStream.makeStream(of: [EngineEvent].self)
        self.events = events
        let mailbox = Mailbox(signal: signal)
        self.mailbox = mailbox
        timer = SessionTimer(clock: clock ?? UptimeClock(), mailbox: mailbox)
        shell = SessionShell(send: send, sink: sink, mailbox: mailbox)
        // The actor's executor holds the loop: one call at a time, on whichever thread runs it.
        loop = InkLoop(configuration: configuration, transform: transform, pageGeneration: pageGeneration, clock: timer,
                       seed: seed, recorder: recorder, boundToThread: false)
        loop.shell = shell
    }

    deinit {
        timer.cancelAll()
        shell.cancelAll()
        shell.sink.finish()
        signal.finish()
    }

    // MARK: - In

    /// Queues inputs, to be taken in order after everything submitted before. Returns at
    /// once; safe from any thread or actor. A refused input never blocks the rest: it comes
    /// out as a `.refused` event and its samples are counted in `SampleLedger.refused`; an
    /// input submitted after ``run()`` ended is refused (``InputRefusal/stopped``) and
    /// counted the next time the session is asked anything.
    public nonisolated func submit(_ inputs: [EngineInput]) {
        mailbox.post(.inputs(inputs))
    }

    /// Queues one input (see ``submit(_:)-([EngineInput])``).
    public nonisolated func submit(_ input: EngineInput) { submit([input]) }

    /// Takes the queued inputs, in order, until the calling task is cancelled; then takes
    /// what was submitted before, stops the loop (``InkLoop/stop()``: touches still down are
    /// cancelled, undecided ones settled by the fallback, the audit closed, the recording
    /// flushed), cancels the sends and ends ``events``. Run it once, in a task of its own.
    public func run() async {
        guard !loop.isStopped, !running else { return }
        running = true
        for await _ in signals {
            takeMail()
            if Task.isCancelled { break }
        }
        takeMail()
        loop.stop()
        mailbox.close()
        takeMail()
        running = false
        shell.sink.finish()
        timer.cancelAll()
        resumeSettledWaiters()
    }

    /// Returns once every input submitted before the call has been taken and no touch waits
    /// for a decision (the page answered, or the deadline decided): everything handed in
    /// has gone to the ink or to the page, or was cancelled or refused. Also returns when
    /// ``run()`` stops.
    ///
    /// - Returns: How many events the session has published to ``events`` by then: a
    ///   consumer that has read that many has seen everything up to the settled state.
    @discardableResult
    public func settled() async -> Int {
        if loop.isStopped {
            takeMail()
            return shell.published
        }
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in mailbox.post(.settled(waiter)) }
        return shell.published
    }

    /// Returns once every input submitted before the call has been taken (decided or not).
    ///
    /// - Returns: How many events the session has published to ``events`` by then.
    @discardableResult
    public func drained() async -> Int {
        if loop.isStopped {
            takeMail()
            return shell.published
        }
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in mailbox.post(.drained(waiter)) }
        return shell.published
    }

    /// Returns once every input submitted before the call has been taken and no send to the
    /// page is in flight (each send's reply, or its failure, has been taken too): a test
    /// waits for the transport deterministically, never by polling ``sendsInFlight``.
    public func sendsSettled() async {
        if loop.isStopped {
            takeMail()
            return
        }
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in mailbox.post(.sendsSettled(waiter)) }
    }

    // MARK: - State

    /// Every sample handed in and where it went (inputs submitted after ``run()`` ended
    /// included, as refused).
    public var ledger: SampleLedger {
        takeMailIfStopped()
        return loop.ledger
    }

    /// What the session has done so far.
    public var metrics: EngineCounters {
        takeMailIfStopped()
        return loop.metrics
    }

    /// Sends to the page in flight (at most one per round trip).
    public var sendsInFlight: Int { shell.sendsRunning }

    /// The recorder, when the session records.
    public var recorder: SessionRecorder? { loop.recorder }

    /// Stops the session now (``InkLoop/stop()``): the page is going away. Touches still
    /// down are cancelled, undecided ones settled by the fallback, the audit closed and the
    /// recording flushed; the events go out as usual. Later inputs are refused and counted.
    public func flush() {
        takeMail()
        loop.stop()
    }

    /// Offers what the recorder holds to its sink now (a sink that was behind may have
    /// caught up). Returns `true` when nothing is held (or nothing is recorded).
    @discardableResult
    public func flushRecording() -> Bool { loop.flushRecording() }

    // MARK: - The one place that takes inputs

    private func takeMailIfStopped() {
        if loop.isStopped { takeMail() }
    }

    private func takeMail() {
        for item in mailbox.take() {
            switch item {
            case let .inputs(inputs): loop.submit(inputs)
            case let .wake(id): timer.fire(id)
            case let .drained(waiter): waiter.resume()
            case let .settled(waiter): settledWaiters.append(waiter)
            case let .sendsSettled(waiter): sendWaiters.append(waiter)
            case let .sendEnded(token): shell.ended(token)
            }
        }
        if loop.engine.isSettled || loop.isStopped { resumeSettledWaiters() }
        if shell.tasksRunning == 0 || loop.isStopped {
            for waiter in sendWaiters { waiter.resume() }
            sendWaiters.removeAll()
        }
    }

    private func resumeSettledWaiters() {
        for waiter in settledWaiters + sendWaiters { waiter.resume() }
        settledWaiters.removeAll()
        sendWaiters.removeAll()
    }
}

/// What a session's queue holds: posted from any thread, taken on the actor in order.
private final class Mailbox: @unchecked Sendable {
    enum Item: Sendable {
        case inputs([EngineInput])
        case wake(UInt64)
        case drained(CheckedContinuation<Void, Never>)
        case settled(CheckedContinuation<Void, Never>)
        case sendsSettled(CheckedContinuation<Void, Never>)
        case sendEnded(QueryToken)
    }

    // Guarded by `lock`.
    private let lock = NSLock()
    private var items: [Item] = []
    private var closed = false
    private let signal: AsyncStream<Void>.Continuation

    init(signal: AsyncStream<Void>.Continuation) { self.signal = signal }

    func post(_ item: Item) {
        let waiter: CheckedContinuation<Void, Never>?
        switch item {
        case let .drained(continuation), let .settled(continuation), let .sendsSettled(continuation): waiter = continuation
        default: waiter = nil
        }
        let wasClosed = lock.withLock {
            // Nobody runs the session any more: a waiter returns at once (it is not queued);
            // inputs wait to be refused and counted when the session is next asked.
            if !closed || waiter == nil { items.append(item) }
            return closed
        }
        if wasClosed {
            waiter?.resume()
        } else {
            signal.yield()
        }
    }

    func take() -> [Item] {
        lock.withLock {
            let taken = items
            items.removeAll()
            return taken
        }
    }

    /// The session stopped: nothing will run the queue any more.
    func close() { lock.withLock { closed = true } }
}

/// The loop's clock in a session: the injected clock, whose wake-up (on any thread) posts
/// to the session's queue, so the loop's wake-up runs on the actor, in order with the inputs.
private final class SessionTimer: InkLoopClock, @unchecked Sendable {
    // Confined to the session's actor, but for `cancelAll` from deinit.
    private let clock: any InkLoopClock & Sendable
    private let mailbox: Mailbox
    private var pending: [UInt64: (wake: () -> Void, cancel: () -> Void)] = [:]
    private var nextID: UInt64 = 0

    init(clock: any InkLoopClock & Sendable, mailbox: Mailbox) {
        self.clock = clock
        self.mailbox = mailbox
    }

    var now: Double { clock.now }

    func wake(at deadline: Double, _ wake: @escaping () -> Void) -> () -> Void {
        nextID += 1
        let id = nextID, mailbox = self.mailbox
        let cancel = clock.wake(at: deadline) { mailbox.post(.wake(id)) }
        pending[id] = (wake, cancel)
        return { [weak self] in self?.pending.removeValue(forKey: id)?.cancel() }
    }

    func fire(_ id: UInt64) {
        pending.removeValue(forKey: id)?.wake()
    }

    func cancelAll() {
        for entry in pending.values { entry.cancel() }
        pending.removeAll()
    }
}

/// The loop's shell in a session: events out to the stream, requests to the oracle, one
/// task per send in flight.
private final class SessionShell: InkLoopShell, @unchecked Sendable {
    // Confined to the session's actor, but for `cancelAll` from deinit.
    let sink: AsyncStream<[EngineEvent]>.Continuation
    private let transport: @Sendable (HitTestRequest) async throws -> String?
    private let mailbox: Mailbox
    private var sends: [QueryToken: Task<Void, Never>] = [:]
    /// Events published to the stream so far.
    private(set) var published = 0

    init(send: @escaping @Sendable (HitTestRequest) async throws -> String?, sink: AsyncStream<[EngineEvent]>.Continuation,
         mailbox: Mailbox) {
        self.transport = send
        self.sink = sink
        self.mailbox = mailbox
    }

    var sendsRunning: Int { sends.count }
    /// Send tasks that have not ended, cancelled ones included (a reply may still come).
    private(set) var tasksRunning = 0

    func carryOut(_ events: [EngineEvent]) {
        published += events.count
        sink.yield(events)
    }

    func send(_ request: HitTestRequest) {
        let transport = self.transport, mailbox = self.mailbox, token = request.token
        sends[token]?.cancel()
        tasksRunning += 1
        sends[token] = Task {
            do {
                // A reply joins the input queue even if the send was cancelled meanwhile:
                // the bridge counts it for what it is (late, duplicate).
                if let reply = try await transport(request) { mailbox.post(.inputs([.pageMessage(reply)])) }
            } catch {
                if !Task.isCancelled { mailbox.post(.inputs([.sendFailed(request)])) }  // nothing, if already settled
            }
            mailbox.post(.sendEnded(token))
        }
    }

    func cancelSend(_ request: HitTestRequest) {
        sends.removeValue(forKey: request.token)?.cancel()
    }

    func ended(_ token: QueryToken) {
        sends[token] = nil
        tasksRunning -= 1
    }

    func cancelAll() {
        for send in sends.values { send.cancel() }
        sends.removeAll()
    }
}
