import Foundation
@_spi(Tooling) import InkCore
import InkTesting
import Testing
@_spi(Tooling) @testable import HitTestBridge

/// The shell these tests use: InkTesting's, which records what the loop asked of it.
typealias TestShell = RecordingShell

/// The one live loop, tested once, under ``ManualClock``, for both routings.
@Suite("The live loop")
struct InkLoopTests {
    static let handOver = InkEngineConfiguration(decisionTimeout: 0.25)
    static let touchDown = InkEngineConfiguration(decisionTimeout: 0.25, routing: .decideAtTouchDown)
    /// A block at page (100...200, 100...200), fresh for 1 s.
    static let block = RegionSnapshot(generation: 1, maxAge: 1, regions: [PageRegion(x: 100, y: 100, width: 100, height: 100)])

    static func sample(_ x: Double, _ y: Double, _ t: Double, _ tool: ToolKind = .finger) -> TouchSample {
        TouchSample(x: x, y: y, timestamp: t, tool: tool)
    }

    static func touch(_ platform: UInt64, _ phase: TouchPhase, _ samples: TouchSample...) -> EngineInput {
        .touch(TouchEvent(touch: PlatformTouchID(platform), phase: phase, samples: samples))
    }

    static func loop(_ configuration: InkEngineConfiguration, clock: ManualClock,
                     recorder: SessionRecorder? = nil) -> (InkLoop, TestShell) {
        let loop = InkLoop(configuration: configuration, clock: clock, seed: 7, recorder: recorder)
        let shell = TestShell()
        loop.shell = shell
        loop.keepsOutcomes = true
        return (loop, shell)
    }

    static func answer(_ request: HitTestRequest, _ verdict: HitTestVerdict) -> EngineInput {
        .decodedPageMessage(.answer(PageAnswer(token: request.token, verdict: verdict, generation: request.generation)))
    }

    @Test("two touches in one callback, both routings: each asks, each is decided by its own answer, one wake-up at the earliest deadline",
          arguments: [handOver, touchDown])
    func twoTouchesInOneCallback(configuration: InkEngineConfiguration) throws {
        let clock = ManualClock(start: 1)
        let (loop, shell) = Self.loop(configuration, clock: clock)
        loop.submit([Self.touch(1, .began, Self.sample(20, 20, 1)), Self.touch(2, .began, Self.sample(150, 150, 1))])
        // Two fingers 0 ms apart on the overlay: not known to be on the paper yet, each asks.
        #expect(shell.sent.count == 2 && shell.decisions(1).isEmpty && shell.decisions(2).isEmpty)
        // The page says both are on the paper: a gesture, both the page's.
        loop.submit([Self.answer(shell.sent[0], .ink), Self.answer(shell.sent[1], .ink)])
        #expect(shell.decisions(1).map(\.1) == [.answered, .multiTouchGesture] && shell.decisions(2).map(\.1) == [.answered, .multiTouchGesture])
        loop.submit([Self.touch(1, .ended, Self.sample(21, 21, 1.01)), Self.touch(2, .ended, Self.sample(151, 151, 1.01))])
        #expect(loop.sendsInFlight == 0)
        // Apart in time: two questions, one wake-up at the earliest deadline.
        clock.advance(to: 2)
        loop.submit([Self.touch(3, .began, Self.sample(20, 20, 2)), Self.touch(3, .moved, Self.sample(22, 22, 2.01))])
        clock.advance(to: 2.2)
        loop.submit(Self.touch(4, .began, Self.sample(150, 150, 2.2)))
        #expect(shell.sent.count == 4 && loop.sendsInFlight == 2)
        #expect(loop.armedWakeUp == 2.25 && clock.wakeUpDeadlines == [2.25])
        loop.submit(Self.answer(shell.sent[3], .page))   // touch 4 is the page's
        #expect(shell.decisions(4).map(\.0) == [.page] && loop.sendsInFlight == 1)
        #expect(loop.armedWakeUp == 2.25 && clock.wakeUpDeadlines == [2.25])
        clock.advance(to: 2.25)                            // touch 3's deadline: the fallback (ink)
        #expect(shell.decisions(3).map(\.1) == [.deadline])
        #expect(loop.sendsInFlight == 0 && shell.cancelledSends.suffix(2).map(\.token) == [shell.sent[3].token, shell.sent[2].token])
        #expect(loop.armedWakeUp == nil && clock.wakeUpDeadlines.isEmpty)
        loop.submit([Self.touch(3, .ended), Self.touch(4, .ended, Self.sample(150, 150, 2.3))])
        #expect(loop.metrics.auditFailures.isEmpty && loop.metrics.openTouches == 0)
        #expect(loop.ledger.received == 8 && loop.ledger.isBalanced)
    }

    @Test("teardown with touches down: stop cancels them and settles the undecided, the audit closes clean; later inputs are refused and counted",
          arguments: [handOver, touchDown])
    func teardown(configuration: InkEngineConfiguration) {
        let clock = ManualClock(start: 1)
        var configuration = configuration
        configuration.palmHold = 0   // the palm rule off: the finger dot beside the pen asks
        let (loop, shell) = Self.loop(configuration, clock: clock)
        loop.submit(.decodedPageMessage(.regions(Self.block)))
        loop.submit([Self.touch(1, .began, Self.sample(20, 20, 1, .pencil)), Self.touch(1, .moved, Self.sample(25, 25, 1.01, .pencil))])
        clock.advance(to: 3)   // the snapshot is stale now
        loop.submit([Self.touch(2, .began, Self.sample(30, 300, 3)), Self.touch(2, .ended, Self.sample(31, 300, 3.01))])   // a dot: asks
        #expect(shell.sent.count == 1)
        loop.stop()
        #expect(loop.isStopped && shell.cancelledSends.map(\.token) == [shell.sent[0].token] && clock.wakeUpDeadlines.isEmpty)
        #expect(shell.actions.contains { if case .cancel(_, _) = $0 { true } else { false } })
        #expect(shell.decisions(2).map(\.1) == [.flushed])
        // UIKit ends and cancels touches while the view goes away: refused, counted, not lost.
        loop.submit([Self.touch(1, .ended, Self.sample(26, 26, 3.1, .pencil)), Self.touch(9, .began, Self.sample(5, 5, 3.1))])
        #expect(shell.refusals == [.stopped, .stopped])
        let ledger = loop.ledger
        #expect(ledger.received == 6 && ledger.refused == 2 && ledger.cancelled == 2 && ledger.inked == 2 && ledger.isBalanced,
                "\(ledger)")
        #expect(loop.metrics.auditFailures.isEmpty, "\(loop.metrics.auditFailures)")
        #expect(loop.metrics.refusedInputs == 2 && loop.metrics.recentRefusals.count == 2)
        #expect(loop.outcomes.count == 2 && loop.audit.openTouches == 0)
    }

    @Test("a refused estimated update (no samples) while a touch is down leaves the audit clean; the refusal is reported as a refusal",
          arguments: [handOver, touchDown])
    func refusedUpdateWithTouchDown(configuration: InkEngineConfiguration) {
        let clock = ManualClock(start: 1)
        let (loop, _) = Self.loop(configuration, clock: clock)
        loop.submit(.decodedPageMessage(.regions(Self.block)))
        loop.submit([Self.touch(1, .began, Self.sample(20, 20, 1, .pencil)), Self.touch(1, .moved, Self.sample(25, 25, 1.01, .pencil))])
        loop.submit(.update(EstimatedPropertyUpdate(touch: PlatformTouchID(1), updateIndex: 99, force: 0.5)))
        loop.submit(Self.touch(7, .moved, Self.sample(1, 1, 1.02)))   // a finger that is not down: refused, 1 sample
        let metrics = loop.metrics
        #expect(metrics.refusedInputs == 2 && metrics.recentRefusals.count == 2)
        #expect(metrics.auditFailures.isEmpty, "\(metrics.auditFailures)")
        #expect(metrics.openTouches == 1 && loop.ledger.received == 3 && loop.ledger.refused == 1)
        loop.submit(Self.touch(1, .ended, Self.sample(26, 26, 1.02, .pencil)))
        loop.stop()
        #expect(loop.metrics.auditFailures.isEmpty && loop.ledger.isBalanced)
    }

    @Test("a snapshot's regions reach a shape-routing shell when they arrive and when they stop being fresh (the one wake-up)")
    func regionsFollowFreshness() throws {
        let clock = ManualClock(start: 1)
        let (loop, shell) = Self.loop(Self.touchDown, clock: clock)
        #expect(loop.route(at: CanvasPoint(x: 150, y: 150), tool: .finger) == nil)
        loop.submit(.decodedPageMessage(.regions(Self.block)))
        #expect(loop.route(at: CanvasPoint(x: 150, y: 150), tool: .finger) == .page)
        let regions = try #require(shell.regionChanges.last ?? nil)
        #expect(regions.rects.count == 1 && regions.validUntil == 2)
        #expect(clock.wakeUpDeadlines == [2.001])
        clock.advance(to: 2.01)
        #expect(shell.regionChanges.count == 2 && shell.regionChanges.last! == nil)
        #expect(loop.route(at: CanvasPoint(x: 150, y: 150), tool: .finger) == nil)
        // A hovering pencil asks for a snapshot, at most every 100 ms, only while none is fresh.
        loop.pointerHovered()
        loop.pointerHovered()
        clock.advance(to: 2.2)
        loop.pointerHovered()
        #expect(shell.regionRequests == 2)
    }

    @Test("a shell that stops the loop from its own callback stops it once: one finish, every touch settled")
    func stopFromCallback() {
        final class Stopping: InkLoopShell {
            weak var loop: InkLoop?
            var finishes = 0
            func carryOut(_ events: [EngineEvent]) {
                for event in events {
                    if case .action(.cancel) = event.kind { loop?.stop() }   // the view goes away mid-teardown
                    if case .action(.decided(_, _, .flushed)) = event.kind { finishes += 1 }
                }
            }
            func send(_ request: HitTestRequest) {}
        }
        let clock = ManualClock(start: 1), lines = Lines()
        let loop = InkLoop(configuration: Self.handOver, clock: clock, seed: 3,
                           recorder: SessionRecorder(canvasWidth: 100, canvasHeight: 100, sink: lines.take))
        let shell = Stopping()
        shell.loop = loop
        loop.shell = shell
        loop.submit([Self.touch(1, .began, Self.sample(20, 20, 1)), Self.touch(2, .began, Self.sample(80, 80, 1.2)),
                     Self.touch(2, .ended, Self.sample(81, 80, 1.21))])
        loop.stop()
        #expect(loop.isStopped && loop.ledger.isBalanced && loop.ledger.cancelled == 1, "\(loop.ledger)")
        #expect(shell.finishes == 1 && lines.text.split(separator: "\n").filter { $0.contains(#""kind":"finish""#) }.count == 1, "\(lines.text)")
        #expect(loop.metrics.auditFailures.isEmpty)
    }

    /// A recorder's sink that keeps the text.
    final class Lines: @unchecked Sendable {
        private(set) var text = ""
        func take(_ bytes: [UInt8]) -> Bool {
            text += String(decoding: bytes, as: UTF8.self)
            return true
        }
    }

    @Test("a gesture on the overlay scrolls the page once per batch, by the lead finger (touch-down routing)")
    func gestureScroll() {
        let clock = ManualClock(start: 1)
        let (loop, shell) = Self.loop(Self.touchDown, clock: clock)
        loop.submit([Self.touch(1, .began, Self.sample(20, 200, 1)), Self.touch(2, .began, Self.sample(60, 200, 1))])
        loop.submit(shell.sent.map { Self.answer($0, .ink) })   // both on the paper: the gesture
        loop.submit([Self.touch(1, .moved, Self.sample(20, 190, 1.02)), Self.touch(2, .moved, Self.sample(60, 190, 1.02)),
                     Self.touch(1, .moved, Self.sample(20, 180, 1.03))])
        #expect(shell.scrolls.count == 1 && shell.scrolls[0].dy == 20 && shell.scrolls[0].dx == 0)
    }

    @Test("pencil-only, touch-down routing: one finger on the overlay scrolls the page by its movement, but not once the pencil beside it writes")
    func pencilOnlyFingerScrolls() {
        let clock = ManualClock(start: 1)
        var configuration = Self.touchDown
        configuration.pencilOnly = true
        let (loop, shell) = Self.loop(configuration, clock: clock)
        loop.submit(Self.touch(1, .began, Self.sample(300, 400, 1)))
        #expect(shell.decisions(1).map(\.0) == [.page] && shell.decisions(1).map(\.1) == [.toolPolicy])
        loop.submit(Self.touch(1, .moved, Self.sample(300, 380, 1.02)))
        loop.submit([Self.touch(1, .moved, Self.sample(295, 350, 1.04)), Self.touch(2, .began, Self.sample(500, 500, 1.04, .pencil))])
        loop.submit([Self.touch(2, .moved, Self.sample(520, 510, 1.06, .pencil)), Self.touch(1, .ended, Self.sample(295, 340, 1.06))])
        // The content follows the finger: the view's offset moves against it, once per batch.
        // The pencil down at 1.04 (after the finger's move in that batch): no scroll under the pen.
        #expect(shell.scrolls.map(\.dy) == [20, 30] && shell.scrolls.map(\.dx) == [0, 5], "\(shell.scrolls)")
        #expect(shell.decisions(2).map(\.0) == [.ink])
        loop.submit(Self.touch(2, .ended, Self.sample(530, 515, 1.08, .pencil)))
        loop.stop()
        #expect(loop.ledger.inked == 3 && loop.ledger.released == 4 && loop.metrics.auditFailures.isEmpty, "\(loop.ledger)")
    }

    @Test("the view resized: the snapshot of the old layout stops routing at once (touch-downs are asked), the page is asked to push once the size settles, a push of the layout generation known at the resize is refused, and one of a newer generation routes again")
    func resizeDropsTheSnapshot() throws {
        let clock = ManualClock(start: 1)
        let (loop, shell) = Self.loop(Self.touchDown, clock: clock)
        loop.submit(.decodedPageMessage(.regions(Self.block)))
        #expect(loop.route(at: CanvasPoint(x: 150, y: 150), tool: .finger) == .page && shell.regionRequests == 0)
        clock.advance(to: 1.1)
        loop.submit(.viewResized(PageTransform(scale: 1, offsetX: 0, offsetY: 10)))
        #expect(loop.route(at: CanvasPoint(x: 150, y: 150), tool: .finger) == nil)
        #expect(shell.regionChanges.last! == nil && shell.regionRequests == 0)
        #expect(loop.engine.bridgeMetrics.viewResizes == 1 && loop.engine.bridgeMetrics.snapshotsDroppedByResize == 1)
        // A touch now is asked, not routed by the old layout.
        loop.submit(Self.touch(1, .began, Self.sample(150, 150, 1.1)))
        #expect(shell.sent.count == 1 && shell.sent[0].pagePoint.x == 150 && shell.sent[0].pagePoint.y == 160)
        clock.advance(to: 1.21)                                 // the size held still for 100 ms: asked once
        #expect(shell.regionRequests == 1)
        // A push of the generation known at the resize was measured before it: refused.
        loop.submit(.decodedPageMessage(.regions(RegionSnapshot(generation: 1, maxAge: 1,
            regions: [PageRegion(x: 100, y: 150, width: 100, height: 100)]))))
        #expect(loop.route(at: CanvasPoint(x: 150, y: 150), tool: .finger) == nil)
        #expect(loop.engine.bridgeMetrics.snapshotsFromBeforeResize == 1)
        // The page's push of the new layout (its resize bumped the generation) is taken and
        // routes again; the question waiting is decided by it.
        loop.submit(.decodedPageMessage(.regions(RegionSnapshot(generation: 2, maxAge: 1,
            regions: [PageRegion(x: 100, y: 150, width: 100, height: 100)]))))
        #expect(loop.route(at: CanvasPoint(x: 150, y: 150), tool: .finger) == .page)
        #expect(shell.decisions(1).map(\.1) == [.regionCache])
        // A transform that is not finite and positive is refused; nothing changes.
        loop.submit(.viewResized(PageTransform(scale: 0, offsetX: 0, offsetY: 0)))
        #expect(shell.refusals.count == 1 && loop.route(at: CanvasPoint(x: 150, y: 150), tool: .finger) == .page)
        loop.stop()
        #expect(loop.metrics.auditFailures.isEmpty)
    }

    @Test("a send that fails at once decides by the fallback, and the input submitted from the callback is taken after the batch")
    func failedSend() {
        let clock = ManualClock(start: 1)
        let (loop, shell) = Self.loop(Self.handOver, clock: clock)
        shell.onSend = { [unowned loop] request in loop.submit(.sendFailed(request)) }
        loop.submit(Self.touch(1, .began, Self.sample(20, 20, 1)))
        #expect(shell.decisions(1).map(\.1) == [.unreachable] && shell.sent.count == 1)
        #expect(loop.sendsInFlight == 0)
    }

    @Test("a page load mid-session, both routings: the question in flight gets the fallback, the old page's answer and snapshot are refused, the new page's first snapshot decides at once",
          arguments: [handOver, touchDown])
    func pageLoadMidSession(configuration: InkEngineConfiguration) throws {
        let clock = ManualClock(start: 1)
        let (loop, shell) = Self.loop(configuration, clock: clock)
        let oldPage = try PageDocumentID("0ld0ld0ld0ld0ld0"), newPage = try PageDocumentID("4e4e4e4e4e4e4e4e")
        // The old page climbed to generation 40.
        for generation in 1...40 as ClosedRange<UInt64> { loop.submit(.layout(.identity, generation: generation)) }
        loop.submit(.decodedPageMessage(.regions(RegionSnapshot(generation: 40, maxAge: 0.2, regions: Self.block.regions, document: oldPage))))
        clock.advance(to: 1.5)   // stale: a touch asks
        loop.submit([Self.touch(1, .began, Self.sample(150, 150, 1.5)), Self.touch(1, .ended, Self.sample(151, 150, 1.51))])
        let asked = try #require(shell.sent.last)
        clock.advance(to: 1.55)
        loop.submit(.newDocument(.identity))                               // "next exercise"
        #expect(shell.decisions(1).map(\.1) == [.newDocument] && loop.sendsInFlight == 0)
        loop.submit(.decodedPageMessage(.answer(PageAnswer(token: asked.token, verdict: .page, generation: 40, document: oldPage))))
        loop.submit(.decodedPageMessage(.regions(RegionSnapshot(generation: 41, maxAge: 5, regions: [], document: oldPage))))
        #expect(loop.metrics.pageRefusals.oldDocument >= 1 && loop.metrics.pageRefusals.total == 2, "\(loop.metrics.pageRefusals)")
        #expect(loop.route(at: CanvasPoint(x: 150, y: 150), tool: .finger) == nil)
        // The new page's first snapshot, at generation 1: it decides at touch-down, at once.
        loop.submit(.decodedPageMessage(.regions(RegionSnapshot(generation: 1, maxAge: 5, regions: Self.block.regions, document: newPage))))
        #expect(loop.route(at: CanvasPoint(x: 150, y: 150), tool: .finger) == .page)
        if configuration.routing == .decideAtTouchDown { #expect(shell.regionChanges.last??.generation == 1) }
        let sent = shell.sent.count
        loop.submit([Self.touch(2, .began, Self.sample(20, 20, 1.6)), Self.touch(2, .ended, Self.sample(21, 20, 1.61))])
        #expect(shell.decisions(2).map(\.1) == [.regionCache] && shell.sent.count == sent)
        loop.stop()
        #expect(loop.metrics.auditFailures.isEmpty && loop.ledger.isBalanced)
    }

    @Test("property: over random sessions (refusals, updates, cancels, answers, deadlines), the live audit never reports a failure that did not happen",
          arguments: [handOver, touchDown])
    func auditNeverCriesWolf(configuration: InkEngineConfiguration) {
        for seed in 1...40 as ClosedRange<UInt64> {
            var random = SplitMix64(seed: seed)
            let clock = ManualClock(start: 1)
            let (loop, shell) = Self.loop(configuration, clock: clock)
            var handedIn = 0
            var down: Set<UInt64> = []
            var t = 1.0
            for _ in 0..<120 {
                t += Double(random.next() % 40) / 1000
                clock.advance(to: t)
                let platform = random.next() % 4
                let x = Double(random.next() % 400), y = Double(random.next() % 400)
                let input: EngineInput
                switch random.next() % 9 {
                case 0: input = Self.touch(platform, .began, Self.sample(x, y, t, platform == 0 ? .pencil : .finger))
                case 1, 2: input = Self.touch(platform, .moved, Self.sample(x, y, t))
                case 3: input = Self.touch(platform, .ended, Self.sample(x, y, t))
                case 4: input = Self.touch(platform, .cancelled)
                case 5: input = .update(EstimatedPropertyUpdate(touch: PlatformTouchID(platform), updateIndex: random.next() % 5, force: 0.4))
                case 6: input = .decodedPageMessage(.regions(RegionSnapshot(generation: 1 + random.next() % 3, maxAge: 0.3, regions: Self.block.regions)))
                case 7: input = shell.sent.last.map { Self.answer($0, random.next() % 2 == 0 ? .ink : .page) } ?? .tick
                default: input = Self.touch(platform, .moved, TouchSample(x: .nan, y: y, timestamp: t))   // refused
                }
                handedIn += input.sampleCount
                if case let .touch(event) = input {
                    if event.phase == .began { down.insert(platform) } else if event.phase != .moved { down.remove(platform) }
                }
                loop.submit(input)
                let metrics = loop.metrics
                #expect(metrics.auditFailures.isEmpty, "seed \(seed): \(metrics.auditFailures)")
                #expect(loop.ledger.received == handedIn, "seed \(seed)")
            }
            loop.stop()
            #expect(loop.metrics.auditFailures.isEmpty, "seed \(seed) closed: \(loop.metrics.auditFailures)")
            #expect(loop.ledger.isBalanced && loop.ledger.received == handedIn, "seed \(seed): \(loop.ledger)")
            #expect(loop.audit.verify(against: loop.ledger).allSatisfy { $0.contains("refused") }, "seed \(seed)")
        }
    }

    @Test("the audit does report what did happen: an engine ledger that disagrees with its events")
    func auditCatchesAMiscount() {
        var audit = DeliveryAudit()
        audit.accepted(TouchEvent(touch: PlatformTouchID(1), phase: .began, samples: [Self.sample(1, 1, 1)]), as: TouchID(1))
        // The engine claims two samples received where its events showed one.
        #expect(!audit.health(against: SampleLedger(received: 2, pending: 2)).isEmpty)
        #expect(audit.health(against: SampleLedger(received: 1, pending: 1)).isEmpty)
        _ = audit.record(.ink(TouchID(1), Self.sample(9, 9, 1)), now: 1)   // ink that was never handed in
        _ = audit.record(.touchFinished(TouchID(1), SampleLedger(received: 1, inked: 1)), now: 1)
        #expect(!audit.health(against: SampleLedger(received: 1, inked: 1)).isEmpty)
    }
}

/// The shell contract, checked: a loop lives on the thread that made it.
@Suite("InkLoop: bound to the thread that made it")
struct InkLoopThreadTests {
    #if DEBUG
    @Test("debug builds trap an input submitted from another thread (the contract a shell keeps), and not one from the loop's own")
    func offThreadTraps() async {
        // On the loop's thread: taken.
        let loop = InkLoop(clock: ManualClock(start: 1), seed: 1)
        loop.submit(.tick)
        #expect(loop.ledger.received == 0 && loop.metrics.refusedInputs == 0)
        // From another thread: the process traps (checked in a child process).
        await #expect(processExitsWith: .failure) {
            let loop = InkLoop(clock: ManualClock(start: 1), seed: 1)
            let box = UncheckedBox(loop), done = DispatchSemaphore(value: 0)
            Thread {
                box.value.submit(.tick)
                done.signal()   // reached only when nothing trapped: the exit test then fails
            }.start()
            done.wait()
        }
    }
    #endif
}

private final class UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
