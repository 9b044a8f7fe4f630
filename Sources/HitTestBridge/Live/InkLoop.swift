@_spi(Tooling) import InkCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The time an ``InkLoop`` runs on, and its one way of being woken.
///
/// The loop keeps at most one wake-up armed, for its engine's next deadline (or for the
/// moment the page's region snapshot stops being fresh), and cancels it before arming
/// another. `ManualClock` is one (tests and app integration tests: time moves when the
/// test says); the default (``InkLoop/init(configuration:transform:pageGeneration:clock:seed:recorder:)``
/// with no clock) arms a `Timer` on the run loop of the thread the loop lives on (UIKit's
/// main thread); a GTK front end arms a GLib timeout.
public protocol InkLoopClock: AnyObject {
    /// Now, seconds on the samples' timebase (the clock of the platform's touch timestamps).
    var now: Double { get }
    /// Calls `wake` once, on the thread the loop lives on, when ``now`` has reached
    /// `deadline`, unless it is cancelled first.
    ///
    /// - Returns: The wake-up's cancel: once it is called, `wake` will not be (calling it
    ///   after `wake` ran does nothing). The loop calls it before arming another wake-up.
    func wake(at deadline: Double, _ wake: @escaping () -> Void) -> () -> Void
}

/// What a front end does for its ``InkLoop``: the platform's side only. Input goes in
/// through ``InkLoop/submit(_:)-(EngineInput)``; the loop calls these, on the loop's thread,
/// in the order the engine's events say.
///
/// A shell keeps no timer, no touch ids, no round-trip bookkeeping, no recorder and no
/// audit: the loop has them. Every method but ``carryOut(_:)`` and ``send(_:)`` has a
/// default that does nothing.
public protocol InkLoopShell: AnyObject {
    /// Carries out one input's events, in order: draw the ink actions (`InkLayer` does),
    /// evaluate each ``EngineEvent/Kind-swift.enum/replay(_:)``'s script in the page, hand
    /// `.release` samples to the page where the platform lets a host hand touches over.
    /// Requests are sent through ``send(_:)``, gesture scrolls through
    /// ``scrollPage(dx:dy:)``: both may be ignored here. It may submit inputs to the loop;
    /// they are taken after these events.
    func carryOut(_ events: [EngineEvent])
    /// Sends a request to the page (evaluates ``HitTestRequest/scriptInvocation`` in the
    /// page script's world). The page's reply comes back as a
    /// ``EngineInput/pageMessage(_:)-(String)`` submitted to the loop; a transport that
    /// failed submits ``EngineInput/sendFailed(_:)``. Only requests whose round trip still
    /// waits are sent.
    func send(_ request: HitTestRequest)
    /// The round trip needs its send no more (answered, decided by its deadline, abandoned
    /// with its touch): a transport that can cancel a send still in flight may. Default:
    /// nothing.
    func cancelSend(_ request: HitTestRequest)
    /// A two-finger gesture the engine gave the page began on the overlay, where the web
    /// view cannot see it (or, with ``InkEngineConfiguration/pencilOnly``, one finger did):
    /// scroll the page's view by this much (canvas points, summed over
    /// the inputs taken together), then submit the new ``EngineInput/layout(_:generation:)``.
    /// Default: nothing.
    func scrollPage(dx: Double, dy: Double)
    /// The two fingers of such a gesture pinch: zoom the page's view by `scale` (the
    /// product over the inputs taken together) about `about` (canvas points: the content
    /// under it stays there), before their ``scrollPage(dx:dy:)``, then submit the new
    /// ``EngineInput/layout(_:generation:)``. Default: nothing.
    func zoomPage(scale: Double, about: CanvasPoint)
    /// Ask the page script to push a region snapshot now, saying which document it shows
    /// (``PageScript/pushRegionsInvocation``): a pointer hovers and none is fresh, the view
    /// was resized (``EngineInput/viewResized(_:)``: the snapshot of the old layout was
    /// dropped), or a new document began (a report of a navigation: the live page's answer
    /// names the document the view shows).
    /// Default: nothing.
    func askForRegions()
}

extension InkLoopShell {
    /// Does nothing.
    public func cancelSend(_ request: HitTestRequest) {}
    /// Does nothing.
    public func scrollPage(dx: Double, dy: Double) {}
    /// Does nothing.
    public func zoomPage(scale: Double, about: CanvasPoint) {}
    /// Does nothing.
    public func askForRegions() {}
}

/// A shell that must hear when the areas routed at touch-down change: `PageSide`, which hands
/// them to a front end that routes by shape (`PageSide.Page.regionsChanged`: the GTK overlay's
/// input shape gives the page's regions to the web view). A front end that asks
/// ``InkLoop/route(at:tool:)`` on every hit test (UIKit's overlay) needs none of it.
package protocol TouchDownRegionsObserver: AnyObject {
    /// The page areas that route to the page at touch-down changed: a snapshot arrived, the
    /// layout moved, the snapshot stopped being fresh (`nil`), a new document.
    func touchDownRegionsChanged(_ regions: TouchDownRegions?)
}

/// What the engine has done, counted: the one set of counters a front end reads
/// (``InkLoop/metrics``, ``InkSession/metrics``). How the touches went, how the page was
/// asked, how soon ink appeared, what was refused and why, and the live audit's health.
public struct EngineCounters: Sendable, Hashable {
    /// The decision engine's own counts (tooling reads every one).
    @_spi(Tooling) public var router: RouterCounters
    /// The bridge's own counts (tooling reads every one).
    @_spi(Tooling) public var bridge: BridgeMetrics
    /// First-ink latencies in the histogram's buckets.
    @_spi(Tooling) public var firstInk: LatencyHistogram
    /// Page messages that changed nothing, by reason.
    @_spi(Tooling) public var pageRefusals: PageRefusals
    /// Why the session is unhealthy so far: empty exactly while nothing was lost or
    /// miscounted. Touches still down are pending, not missing; a refusal is counted in
    /// ``refusedInputs``, never reported here.
    public var auditFailures: [String]
    /// Inputs the engine refused (a bad sample, an event for a finger that is not down, an
    /// input after ``InkLoop/stop()``…); their samples are in the ledger's `refused`.
    public var refusedInputs: Int
    /// The latest refusals, inputs and page messages alike, as sentences (at most
    /// ``InkLoop/refusalSentenceLimit``).
    public var recentRefusals: [String]
    /// Sends to the page whose round trip still waits.
    public var sendsInFlight: Int
    /// Touches begun and not finished.
    public var openTouches: Int
    /// Times a hovering pointer asked the page for a region snapshot.
    public var hoverRequests: Int

    /// Touches that became ink.
    public var touchesInked: Int { router.touchesInked }
    /// Touches that went to the page (natively, replayed or handed over).
    public var touchesReleased: Int { router.touchesReleased }
    /// Touches the system cancelled.
    public var touchesCancelled: Int { router.touchesCancelled }
    /// Tentative or early ink taken back because the page claimed the touch.
    public var retractions: Int { router.retractions }
    /// Two-finger gestures given to the page.
    public var gestures: Int { router.gestures }
    /// Touches decided by the fallback because the page did not answer in time.
    public var deadlinesPassed: Int { router.deadlinesPassed }
    /// Touches decided at touch-down (a fresh snapshot or the tool policy), with no
    /// question asked.
    public var decidedAtTouchDown: Int { router.routedAtTouchDown }
    /// Questions answered from a fresh region snapshot, with no round trip.
    public var cacheHits: Int { bridge.cacheHits }
    /// Round trips sent to the page.
    public var roundTrips: Int { bridge.roundTrips }
    /// Round trips whose send failed (their touches got the fallback).
    public var sendFailures: Int { bridge.failures }
    /// Answers that came after their round trip was settled (the deadline decided, the send
    /// failed, the touch was cancelled).
    public var lateAnswers: Int { pageRefusals.lateAnswers }
    /// Second answers for one round trip.
    public var duplicateAnswers: Int { pageRefusals.duplicateAnswers }
    /// Answers with an id the bridge never issued (forged or garbled).
    public var unknownAnswers: Int { pageRefusals.unknownAnswers }
    /// Answers computed for another layout generation.
    public var staleAnswers: Int { pageRefusals.staleAnswers }
    /// Region snapshots refused for what they hold (an older generation, too many
    /// regions, a bad rectangle).
    public var refusedSnapshots: Int { pageRefusals.snapshots }
    /// Page messages refused before they could mean anything (malformed, oversized).
    public var malformedMessages: Int { pageRefusals.malformed }
    /// Answers and snapshots naming a page document already replaced.
    public var oldDocumentMessages: Int { pageRefusals.oldDocument }
    /// Every page message that changed nothing.
    public var refusedPageMessages: Int { pageRefusals.total }
    /// Touch-down to first ink of each finished touch that became ink (retracted ink does
    /// not count), in buckets: how many touches saw first ink within `atMost` milliseconds
    /// (and above the previous bucket's bound); the last bucket's bound is infinite.
    public var firstInkLatencies: [(atMost: Double, touches: Int)] {
        firstInk.counts.enumerated().map { index, count in
            (index < LatencyHistogram.bounds.count ? LatencyHistogram.bounds[index] : .infinity, count)
        }
    }
}

/// Page messages that changed nothing, by reason: a view of the bridge's own counts
/// (`BridgeMetrics`), which count each message once.
@_spi(Tooling) public struct PageRefusals: Sendable, Hashable {
    /// Answers for a round trip already settled without them (the deadline decided, the
    /// send failed, the touch was cancelled).
    public var lateAnswers: Int
    /// Second answers for one round trip.
    public var duplicateAnswers: Int
    /// Answers with an id the bridge never issued (forged or garbled).
    public var unknownAnswers: Int
    /// Answers computed for another layout generation (the question was asked again).
    public var staleAnswers: Int
    /// Region snapshots refused for what they hold (an older generation, too many regions,
    /// a bad rectangle); those of a replaced document are in ``oldDocument``.
    public var snapshots: Int
    /// Messages refused before they could mean anything (malformed, oversized).
    public var malformed: Int
    /// Answers and snapshots that name a page document already replaced (a navigation, a
    /// reload, a restarted web content process): nothing an old page says is taken.
    public var oldDocument: Int

    /// The counts the bridge keeps.
    public init(_ bridge: BridgeMetrics) {
        lateAnswers = bridge.lateAnswers
        duplicateAnswers = bridge.duplicateAnswers
        unknownAnswers = bridge.unknownAnswers
        staleAnswers = bridge.staleAnswers
        snapshots = bridge.snapshotsRefused - bridge.snapshotRefusals.oldDocument
        malformed = bridge.refusedMessages
        oldDocument = bridge.oldDocumentMessages
    }

    /// Every message counted.
    public var total: Int { lateAnswers + duplicateAnswers + unknownAnswers + staleAnswers + snapshots + malformed + oldDocument }
}

/// The one live loop: an `InkEngine` with its ordered inbox, one wake-up at the next
/// deadline, the sends in flight, the page's messages and lifecycle, the recorder and the
/// live `DeliveryAudit`. Every front end is a shell over it (``InkLoopShell``): its
/// platform's input in, its drawing, scrolling and transport out.
///
/// It lives on one thread, the front end's (UIKit's or GTK's main thread): everything is
/// synchronous there, with no hop. That is its contract with a shell, and debug builds
/// check it, as swift-nio's `NIOLoopBound` checks its event loop: every entry point
/// (``route(at:tool:)``, ``submit(_:)-(EngineInput)``, ``pointerHovered()``, ``stop()``, a
/// wake-up) traps when called from another thread than the one that made the loop.
/// (``InkSession``, an actor, holds its loop on its own executor, one call at a time,
/// whichever thread runs it.) ``route(at:tool:)`` answers a
/// platform's synchronous hit test; ``submit(_:)-(EngineInput)`` takes input at once, in
/// order (an input submitted while the loop carries out events, from a shell's callback,
/// is taken right after them).
///
/// It records what the engine takes, each wake-up included, so a recording replays
/// identically (a front end records nothing itself), and it audits every event with the
/// engine's own configuration. ``stop()`` ends it: every touch still down is cancelled and
/// counted, undecided touches get the fallback, the audit is closed and the recording
/// flushed; an input submitted after that is refused and counted
/// (``InputRefusal/stopped``), so `received` always equals what was handed in.
///
/// ```swift
/// let loop = InkLoop(configuration: InkEngineConfiguration(routing: .decideAtTouchDown))
/// loop.shell = scratchpad                  // draws, sends, replays: an InkLoopShell
/// let route = loop.route(at: point, tool: .pencil)   // in the platform's hit test
/// loop.submit(.touch(event))               // from the touch callback, platform ids
/// loop.submit(.pageMessage(body))          // from the page's message handler
/// loop.stop()                              // when the page goes away
/// ```
public final class InkLoop {
    /// The engine, as the loop has driven it so far.
    @_spi(Tooling) public private(set) var engine: InkEngine
    /// The live audit, built from the engine's configuration: every event folded in order.
    @_spi(Tooling) public private(set) var audit: DeliveryAudit
    /// The recorder, when the loop records (``init(configuration:transform:pageGeneration:clock:seed:recorder:)``).
    public private(set) var recorder: SessionRecorder?
    /// The front end. Held weakly: the front end owns the loop.
    public weak var shell: (any InkLoopShell)?
    /// The shell a stop in its owner's `deinit` carries out through (``stop(through:)``):
    /// the weak ``shell`` is already `nil` there. Held only while that stop runs.
    private var closingShell: (any InkLoopShell)?
    /// The shell the loop carries out through now.
    private var activeShell: (any InkLoopShell)? { closingShell ?? shell }
    /// The clock the loop reads and is woken by.
    public let clock: any InkLoopClock
    /// Whether ``stop()`` has run: inputs are refused from then on.
    public private(set) var isStopped = false
    /// Whether the outcome of each finished touch is kept in `outcomes` (off by default:
    /// a long session would grow it without bound). Off, the audit keeps no delivered
    /// samples either; a change applies to the touches that begin after it.
    public var keepsOutcomes = false {
        didSet { audit.keepsDeliveredSamples = keepsOutcomes }
    }
    /// Each finished touch's outcome, in the order they finished, while ``keepsOutcomes``
    /// is on.
    @_spi(Tooling) public private(set) var outcomes: [TouchOutcome] = []

    /// The round trips the page answered, each from its send to its answer, seconds on the
    /// loop's clock, oldest first (the most recent ``roundTripLimit``). The loop measures
    /// them; a shell keeps no round-trip map.
    public private(set) var roundTrips: [Double] = []
    /// How many round trips ``roundTrips`` keeps.
    public static let roundTripLimit = 10_000

    /// Whether the platform's touch `id` is down as the engine knows it (taken and not yet
    /// ended or cancelled): a shell that must end a touch the platform forgot asks here
    /// instead of keeping its own flag.
    public func isDown(_ id: PlatformTouchID) -> Bool { engine.platformTouchesDown.contains(id) }
    /// The layout generation of the newest region snapshot the engine holds, fresh or not;
    /// `nil` before the page's first (or since a new document or a resize dropped it).
    public var snapshotGeneration: UInt64? { engine.snapshotGeneration }

    /// How many refusal sentences ``EngineCounters/recentRefusals`` keeps.
    public static let refusalSentenceLimit = 20
    /// Seconds between two requests for a region snapshot from a hovering pointer.
    public static let hoverInterval = 0.1

    private var inbox: [EngineInput] = []
    private var taking = false
    private var stopRequested = false
    private var batch: [EngineEvent] = []
    /// The cancel of the one wake-up armed.
    private var wakeUp: (() -> Void)?
    private var armedDeadline: Double?
    private var inFlight: [QueryToken: HitTestRequest] = [:]
    /// When each send in flight was made, on the loop's clock.
    private var sentAt: [QueryToken: Double] = [:]
    private var outgoing: [HitTestRequest] = []
    private var pendingScroll = (dx: 0.0, dy: 0.0)
    private var pendingZoom: (scale: Double, about: CanvasPoint?) = (1, nil)
    private var regions: TouchDownRegions?
    private var regionsDirty = true
    private var askAfterResize = false
    private var askWhichDocument = false
    private var resizeWakeUp: (() -> Void)?
    private var hoverAskedAt = -Double.infinity
    private var hoverRequests = 0
    private var firstInk = LatencyHistogram()
    private var recentRefusals: [String] = []
    /// The thread the loop belongs to (debug builds check every entry point against it);
    /// `nil`: an actor's executor holds it, one call at a time, on whichever thread.
    private let ownerThread: pthread_t?

    /// Creates a loop; nothing happens until input is submitted.
    /// - Parameters:
    ///   - configuration: How touches are decided and the page asked.
    ///   - transform: Canvas points to page coordinates, until a `.layout` input.
    ///   - pageGeneration: The page's layout generation at the start (the bundled page
    ///     script's first, by default).
    ///   - clock: The clock, on the samples' timebase, that wakes the loop at its deadlines.
    ///     `nil`, the default: the system's uptime (the timebase of `UITouch.timestamp`), with
    ///     wake-ups as one-shot `Timer`s on the run loop of the thread that creates the loop
    ///     (UIKit's main thread), in its common modes.
    ///   - seed: Seeds the round trips' ids (`nil`, the default: the system's random
    ///     generator; a seed only for tests).
    ///   - recorder: Records the session for `ink-replay verify` (``SessionRecorder``): the
    ///     loop begins it with its engine and records every input and every wake-up as the
    ///     engine took them, and the finish. `nil`, the default, records nothing.
    public convenience init(configuration: InkEngineConfiguration = InkEngineConfiguration(), transform: PageTransform = .identity,
                            pageGeneration: UInt64 = PageScript.firstGeneration, clock: (any InkLoopClock)? = nil,
                            seed: UInt64? = nil, recorder: SessionRecorder? = nil) {
        self.init(configuration: configuration, transform: transform, pageGeneration: pageGeneration, clock: clock, seed: seed,
                  recorder: recorder, boundToThread: true)
    }

    /// Creates a loop bound to the thread that creates it (`boundToThread`), or held by an
    /// actor's executor (``InkSession``), whose calls come one at a time from any thread.
    package init(configuration: InkEngineConfiguration, transform: PageTransform, pageGeneration: UInt64,
                 clock: (any InkLoopClock)?, seed: UInt64?, recorder: SessionRecorder?, boundToThread: Bool) {
        ownerThread = boundToThread ? pthread_self() : nil
        engine = InkEngine(configuration: configuration, transform: transform, pageGeneration: pageGeneration, seed: seed)
        audit = DeliveryAudit(routing: configuration.routing, keepsDeliveredSamples: false)
        self.clock = clock ?? RunLoopClock()
        if var recorder {
            recorder.begin(engine)
            self.recorder = recorder
        }
    }

    deinit {
        wakeUp?()
    }

    /// Debug builds: traps unless called on the thread that made the loop (the shell
    /// contract); release builds check nothing.
    @inline(__always)
    private func checkThread(_ entry: StaticString = #function) {
        #if DEBUG
        if let ownerThread, pthread_equal(ownerThread, pthread_self()) == 0 {
            preconditionFailure("InkLoop.\(entry) was called from another thread than the one that made the loop: "
                                + "a loop lives on its front end's thread (UIKit's or GTK's main thread)")
        }
        #endif
    }

    // MARK: - Routing at touch-down

    /// Where a touch beginning at `point` (canvas points) goes now, for a platform that
    /// fixes a touch's owner at touch-down: call it from the platform's hit test. Synchronous
    /// and free of side effects (`InkEngine.route(at:tool:now:)` at the clock's time).
    public func route(at point: CanvasPoint, tool: ToolKind?) -> HitTestVerdict? {
        checkThread()
        return engine.route(at: point, tool: tool, now: clock.now)
    }

    /// The canvas areas that route to the page now (`InkEngine.touchDownRegions(now:)`).
    public var touchDownRegions: TouchDownRegions? { engine.touchDownRegions(now: clock.now) }

    // MARK: - In

    /// Takes one input now, as a submission of its own (see the sequence variant below).
    public func submit(_ input: EngineInput) {
        checkThread()
        inbox.append(input)
        drain()
    }

    /// Takes inputs now, in order, each on its own (one refused never blocks the others),
    /// at the clock's time; carries out each input's events through the shell before the
    /// next is taken; then sends the requests whose round trip still waits (a question an
    /// input of the same submission settled never reaches the page) and re-arms the one
    /// wake-up. Inputs submitted while the loop is
    /// carrying out events are taken right after, in order. After ``stop()`` every input is
    /// refused and counted.
    public func submit(_ inputs: some Sequence<EngineInput>) {
        checkThread()
        inbox.append(contentsOf: inputs)
        drain()
    }

    /// A pointer (a pencil in range, a mouse) hovers over the overlay: while no region
    /// snapshot is fresh, asks the page to push one (``InkLoopShell/askForRegions()``), at
    /// most every ``hoverInterval`` seconds, so the touch that follows is routed at
    /// touch-down.
    public func pointerHovered() {
        checkThread()
        guard !isStopped, engine.configuration.routing == .decideAtTouchDown, engine.configuration.useRegionCache else { return }
        let now = clock.now
        guard now - hoverAskedAt >= Self.hoverInterval, engine.touchDownRegions(now: now) == nil else { return }
        hoverAskedAt = now
        hoverRequests += 1
        activeShell?.askForRegions()
    }

    /// Ends the loop (the page or the front end is going away): takes what is waiting, lets
    /// the deadlines due by now fire, cancels every touch still down (as the system would;
    /// recorded), settles every undecided touch by the fallback (`InkEngine.finish(into:)`:
    /// the one rule for `finish`), closes the audit (the touches it closes join
    /// `outcomes`), ends the recording with its `end` line and flushes it, disarms the wake-up and
    /// cancels the sends in flight. Later inputs are refused and counted. Calling it again
    /// does nothing; called from a shell's callback, it runs once the current input is done.
    public func stop() {
        checkThread()
        guard !isStopped else { return }
        guard !taking else {
            stopRequested = true
            return
        }
        stopRequested = false
        // Deadlines due by now fire first; a clock that never started (no time given yet,
        // as a host whose input was empty) has none due, and a tick at -inf would be refused.
        if clock.now.isFinite { inbox.append(.tick) }
        drain()
        // Every touch still down is cancelled, as the platform does when a view goes away.
        let down = engine.platformTouchesDown
        if !down.isEmpty, !isStopped {
            submit(down.map { EngineInput.touch(TouchEvent(touch: $0, phase: .cancelled, samples: [])) })
        }
        // A shell that asked to stop while those were carried out has had its stop already.
        guard !isStopped else { return }
        taking = true
        engine.finish(into: &batch)
        recorder?.recordFinish(at: engine.now, events: batch)
        recorder?.recordEnd(at: engine.now, ledger: engine.ledger)
        publish()
        isStopped = true
        outgoing.removeAll()
        let closed = audit.close()
        if keepsOutcomes { outcomes.append(contentsOf: closed) }
        settleSends()
        taking = false
        recorder?.flush()
        wakeUp?()
        wakeUp = nil
        armedDeadline = nil
        resizeWakeUp?()
        resizeWakeUp = nil
        for request in inFlight.values { activeShell?.cancelSend(request) }
        inFlight.removeAll()
        sentAt.removeAll()
        if !inbox.isEmpty { drain() }   // refused: the loop has stopped
    }

    /// Stops the loop (``stop()``) carrying out what the stop decides through `shell`: for a
    /// shell's `deinit`, where the loop's weak ``shell`` is already `nil`, so the touches the
    /// stop cancels and the undecided ones it settles still reach the drawing and the page
    /// (a replay, a page touch's cancel). `shell` is held only while the stop runs.
    package func stop(through shell: any InkLoopShell) {
        closingShell = shell
        stop()
        closingShell = nil
    }

    /// Offers what the recorder holds to its sink now (a sink that was behind may have
    /// caught up). Returns `true` when nothing is held (or nothing is recorded).
    @discardableResult
    public func flushRecording() -> Bool { recorder?.flush() ?? true }

    // MARK: - State

    /// Every sample handed in and where it went: `received` counts every sample submitted,
    /// refused ones (after ``stop()`` too) included.
    public var ledger: SampleLedger { engine.ledger }

    /// How the loop's engine decides touches and asks the page (as given at creation, within
    /// the engine's maximums).
    public var configuration: InkEngineConfiguration { engine.configuration }

    /// Whether every touch handed in is decided and nothing waits for a deadline: every
    /// sample is inked, released, cancelled or refused, none pending.
    public var isSettled: Bool { engine.isSettled }

    /// What the loop has done so far.
    public var metrics: EngineCounters {
        EngineCounters(router: engine.counters, bridge: engine.bridgeMetrics, firstInk: firstInk,
                       pageRefusals: PageRefusals(engine.bridgeMetrics), auditFailures: audit.health(against: engine.ledger),
                       refusedInputs: audit.refusedInputs, recentRefusals: recentRefusals, sendsInFlight: inFlight.count,
                       openTouches: audit.openTouches, hoverRequests: hoverRequests)
    }

    /// Sends to the page whose round trip still waits.
    public var sendsInFlight: Int { inFlight.count }

    /// The deadline the one wake-up is armed for, if any.
    public var armedWakeUp: Double? { armedDeadline }

    // MARK: - The one place that takes inputs

    private func drain() {
        guard !taking else { return }
        taking = true
        repeat {
            var next = 0
            while next < inbox.count {
                let input = inbox[next]
                next += 1
                take(input)
            }
            inbox.removeAllBounded()
            sendOutgoing()
            settleSends()
            if let about = pendingZoom.about {
                let scale = pendingZoom.scale
                pendingZoom = (1, nil)
                // Fingers that moved one after the other in a frame may zoom and unzoom.
                if abs(scale - 1) > 1e-9 { activeShell?.zoomPage(scale: scale, about: about) }
            }
            if pendingScroll.dx != 0 || pendingScroll.dy != 0 {
                let scroll = pendingScroll
                pendingScroll = (0, 0)
                activeShell?.scrollPage(dx: scroll.dx, dy: scroll.dy)
            }
            noticeRegions()
            if askWhichDocument {
                // After a report of a navigation, the live page says which document it shows
                // (its snapshot says `shown`), whether or not the cache routes.
                askWhichDocument = false
                activeShell?.askForRegions()
            }
            if askAfterResize {
                askAfterResize = false
                if engine.configuration.useRegionCache { askOnceResizeSettles() }
            }
        } while !inbox.isEmpty
        taking = false
        rearm()
        if stopRequested { stop() }
    }

    private func take(_ input: EngineInput) {
        if isStopped {
            engine.refuseStopped(input, into: &batch)
        } else {
            let now = max(clock.now, engine.now)
            engine.take(input, now: now, into: &batch)
            recorder?.record(input, at: now, events: batch)
        }
        publish()
    }

    /// Folds the batch into the observers, hands it to the shell, sends the requests whose
    /// round trip still waits.
    private func publish() {
        guard !batch.isEmpty else { return }
        for index in batch.indices {
            switch batch[index].kind {
            case .action:
                if let outcome = audit.observe(batch[index]) {
                    if let latency = outcome.firstInkLatency { firstInk.record(latency) }
                    if keepsOutcomes { outcomes.append(outcome) }
                }
            case let .refused(_, refusal):
                audit.observe(batch[index])
                noteRefusal(refusal.description)
            case let .pageMessage(_, outcome):
                if let outcome { notePage(outcome) }
                if case .answered? = outcome, let token = batch[index].roundTrip, let sent = sentAt[token] {
                    if roundTrips.count >= Self.roundTripLimit { roundTrips.removeFirst(Self.roundTripLimit / 2) }
                    roundTrips.append(max(0, clock.now - sent))
                }
            case let .scrollPage(dx, dy):
                pendingScroll.dx += dx
                pendingScroll.dy += dy
            case let .zoomPage(scale, about):
                pendingZoom.scale *= scale
                pendingZoom.about = about
            case .newDocument:
                regionsDirty = true
                askWhichDocument = true
            case .layout:
                regionsDirty = true
            case .viewResized:
                // The snapshot of the old layout is gone: ask for one of the new layout now
                // (the routing is `unknown` until it comes), whatever the hover throttle says.
                regionsDirty = true
                askAfterResize = true
            case .took, .send, .pageTouch, .replay:
                audit.observe(batch[index])
            }
        }
        activeShell?.carryOut(batch)
        for index in batch.indices {
            if case let .send(request, _) = batch[index].kind { outgoing.append(request) }
        }
        batch.removeAllBounded()
    }

    /// Sends the requests of the inputs just taken whose round trip still waits: a question
    /// settled or abandoned by a later input of the same submission never reaches the page.
    private func sendOutgoing() {
        guard !outgoing.isEmpty else { return }
        let requests = outgoing
        outgoing.removeAllBounded()
        for request in requests where engine.isWaiting(for: request.token) && inFlight[request.token] == nil {
            inFlight[request.token] = request
            sentAt[request.token] = clock.now
            activeShell?.send(request)
        }
    }

    private func notePage(_ outcome: ReceiveOutcome) {
        switch outcome {
        case .answered: return
        case .regionsAccepted: regionsDirty = true
        default: noteRefusal(Self.sentence(outcome))   // counted by the bridge
        }
    }

    private func noteRefusal(_ sentence: String) {
        if recentRefusals.count >= Self.refusalSentenceLimit { recentRefusals.removeFirst() }
        recentRefusals.append(sentence)
    }

    private static func sentence(_ outcome: ReceiveOutcome) -> String {
        switch outcome {
        case .late: return "page answer refused: late (its round trip was already settled)"
        case .duplicate: return "page answer refused: a second answer for one round trip"
        case .unknownQuery: return "page answer refused: an id the bridge never issued"
        case .staleGeneration: return "page answer refused: computed for another layout generation (asked again)"
        case let .regionsRefused(refusal): return "region snapshot refused: \(refusal)"
        case let .refused(error): return "page message refused: \(error)"
        case let .oldDocument(document): return "page message refused: it names document \(document), which was replaced"
        case .answered, .regionsAccepted: return ""
        }
    }

    /// Round trips settled since they were sent need their sends no more.
    private func settleSends() {
        guard !inFlight.isEmpty else { return }
        for (token, request) in inFlight where !engine.isWaiting(for: token) {
            inFlight[token] = nil
            sentAt[token] = nil
            activeShell?.cancelSend(request)
        }
    }

    /// Tells the shell when the areas that route to the page at touch-down changed.
    private func noticeRegions() {
        // Only a front end that routes at touch-down reads them.
        guard engine.configuration.routing == .decideAtTouchDown else { return }
        let now = max(clock.now, engine.now)
        if let regions, now > regions.validUntil { regionsDirty = true }
        guard regionsDirty else { return }
        regionsDirty = false
        let current = engine.touchDownRegions(now: now)
        guard current != regions else { return }
        regions = current
        (activeShell as? any TouchDownRegionsObserver)?.touchDownRegionsChanged(current)
    }

    /// How long the view's size must hold still before the page is asked for the snapshot
    /// of its new layout, seconds: a live resize (Stage Manager, Split View, a window
    /// dragged) changes the size at every frame; the page is asked once, when it settles.
    public static let resizeSettleTime = 0.1

    /// Asks the page for regions ``resizeSettleTime`` after the latest resize (an earlier
    /// pending ask is moved there).
    private func askOnceResizeSettles() {
        resizeWakeUp?()
        let at = max(clock.now, engine.now) + Self.resizeSettleTime
        resizeWakeUp = clock.wake(at: at) { [weak self] in
            guard let self, !isStopped else { return }
            resizeWakeUp = nil
            activeShell?.askForRegions()
        }
    }

    /// Arms the one wake-up for the engine's next deadline, or for the moment the region
    /// snapshot stops being fresh, whichever is first.
    private func rearm() {
        var next = engine.nextDeadline
        if let until = regions?.validUntil, until.isFinite {
            // Fresh while `now <= validUntil`: wake just after it.
            let expiry = until + 0.001
            next = min(next ?? expiry, expiry)
        }
        if isStopped { next = nil }
        guard next != armedDeadline else { return }
        wakeUp?()
        wakeUp = nil
        armedDeadline = next
        guard let next else { return }
        wakeUp = clock.wake(at: next) { [weak self] in
            guard let self, armedDeadline == next else { return }
            armedDeadline = nil
            wakeUp = nil
            submit(.tick)
        }
    }
}
