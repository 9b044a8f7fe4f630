import Foundation
@_spi(Tooling) import HitTestBridge

/// A clock that moves only when told to: the wake-ups armed on it fire, in deadline order,
/// when ``advance(to:)`` passes their deadline. Thread-safe.
///
/// For tests: give it to an `InkLoop` or an `InkSession` and their deadlines fire only
/// when the test moves time, so an app's own integration tests run deterministically,
/// without waiting for real time.
public final class ManualClock: InkLoopClock, @unchecked Sendable {
    // Guarded by `lock`.
    private let lock = NSLock()
    private var current: Double
    /// The wake-ups armed (called on the thread that advances the clock).
    private var wakeUps: [(id: UInt64, deadline: Double, wake: () -> Void)] = []
    private var nextWakeUp: UInt64 = 0
    private var watchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    /// Creates a clock reading `start`.
    public init(start: Double = 0) { current = start }

    /// The time the clock reads: where ``advance(to:)`` last moved it.
    public var now: Double { lock.withLock { current } }

    /// Moves the clock to `time` (never backwards), firing every wake-up due by then.
    ///
    /// The wake-ups due by then are called on the calling thread, one at a time in deadline
    /// order, each with the clock reading its deadline (as a real timer fires at its time);
    /// then the clock reads `time`. An `InkLoop` takes its wake-up at once; an `InkSession`
    /// queues it and takes it in order with its inputs.
    public func advance(to time: Double) {
        while true {
            let next: (() -> Void)? = lock.withLock {
                guard let index = wakeUps.indices.min(by: { wakeUps[$0].deadline < wakeUps[$1].deadline }),
                      wakeUps[index].deadline <= max(current, time) else { return nil }
                let wakeUp = wakeUps.remove(at: index)
                current = max(current, wakeUp.deadline)
                return wakeUp.wake
            }
            guard let next else { break }
            next()
        }
        lock.withLock { current = max(current, time) }
    }

    /// Moves the clock forward by `interval` seconds.
    public func advance(by interval: Double) { advance(to: now + interval) }

    /// The deadlines of the wake-ups armed on the clock, earliest first.
    public var wakeUpDeadlines: [Double] { lock.withLock { wakeUps.map(\.deadline).sorted() } }

    /// Arms a wake-up: `wake` is called on the thread that calls ``advance(to:)`` past
    /// `deadline`, unless it was cancelled first (by calling what this returns).
    public func wake(at deadline: Double, _ wake: @escaping () -> Void) -> () -> Void {
        let (id, ready): (UInt64, [CheckedContinuation<Void, Never>]) = lock.withLock {
            nextWakeUp += 1
            wakeUps.append((nextWakeUp, deadline, wake))
            let ready = watchers.filter { $0.count <= wakeUps.count }.map(\.continuation)
            watchers.removeAll { $0.count <= wakeUps.count }
            return (nextWakeUp, ready)
        }
        ready.forEach { $0.resume() }
        return { [weak self] in
            guard let self else { return }
            self.lock.withLock { self.wakeUps.removeAll { $0.id == id } }
        }
    }

    /// Suspends until at least `count` wake-ups are armed on the clock (so a test knows an
    /// `InkSession` has armed its timer for a deadline before it advances past it).
    public func waitForWakeUps(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready: Bool = lock.withLock {
                if wakeUps.count >= count { return true }
                watchers.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }
}
