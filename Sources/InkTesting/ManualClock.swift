import Foundation
@_spi(Tooling) @_spi(FrontEnd) import HitTestBridge

/// A clock that moves only when told to: sleepers wake, in deadline order, when
/// ``advance(to:)`` passes their deadline. Thread-safe.
///
/// For tests: give it to an `InkLoop` or an `InkSession` and their deadlines fire only
/// when the test moves time, so an app's own integration tests run deterministically,
/// without waiting for real time.
public final class ManualClock: BridgeClock, InkLoopClock, @unchecked Sendable {
    // Guarded by `lock`.
    private let lock = NSLock()
    private var current: Double
    /// The loops' wake-ups (called on the thread that advances the clock).
    private var wakeUps: [(id: UInt64, deadline: Double, wake: () -> Void)] = []
    private var sleepers: [(id: UInt64, deadline: Double, continuation: CheckedContinuation<Void, any Error>)] = []
    private var nextSleeper: UInt64 = 0
    private var watchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    /// Creates a clock reading `start`.
    public init(start: Double = 0) { current = start }

    public var now: Double { lock.withLock { current } }

    /// How many tasks are sleeping on the clock.
    public var sleeperCount: Int { lock.withLock { sleepers.count } }

    /// The deadlines the sleeping tasks wait for, earliest first.
    public var sleeperDeadlines: [Double] { lock.withLock { sleepers.map(\.deadline).sorted() } }

    /// Sleeps until the clock is advanced to `deadline`.
    /// - Throws: `CancellationError` when the sleeping task is cancelled: it stops sleeping
    ///   at once, and no longer counts as a sleeper.
    public func sleep(until deadline: Double) async throws {
        let id: UInt64 = lock.withLock {
            nextSleeper += 1
            return nextSleeper
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (resume, ready): (Result<Void, any Error>?, [CheckedContinuation<Void, Never>]) = lock.withLock {
                    if Task.isCancelled { return (.failure(CancellationError()), []) }
                    if deadline <= current { return (.success(()), []) }
                    sleepers.append((id, deadline, continuation))
                    return (nil, wakeWatchers())
                }
                ready.forEach { $0.resume() }
                if let resume { continuation.resume(with: resume) }
            }
        } onCancel: {
            let sleeper: CheckedContinuation<Void, any Error>? = lock.withLock {
                guard let index = sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return sleepers.remove(at: index).continuation
            }
            sleeper?.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock to `time` (never backwards) and wakes every sleeper due by then.
    ///
    /// The `InkLoop` wake-ups due by then are called first, on the calling thread, one at a
    /// time in deadline order, each with the clock reading its deadline (as a real timer fires
    /// at its time); then the clock reads `time` and the sleeping tasks are resumed.
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
        let due: [CheckedContinuation<Void, any Error>] = lock.withLock {
            current = max(current, time)
            let ready = sleepers.filter { $0.deadline <= current }.sorted { $0.deadline < $1.deadline }
            sleepers.removeAll { $0.deadline <= current }
            return ready.map(\.continuation)
        }
        due.forEach { $0.resume() }
    }

    /// Moves the clock forward by `interval` seconds.
    public func advance(by interval: Double) { advance(to: now + interval) }

    /// The deadlines of the `InkLoop` wake-ups armed on the clock, earliest first.
    public var wakeUpDeadlines: [Double] { lock.withLock { wakeUps.map(\.deadline).sorted() } }

    /// Arms a wake-up for an `InkLoop`: `wake` is called on the thread that calls
    /// ``advance(to:)`` past `deadline`, unless it was cancelled first.
    public func wake(at deadline: Double, _ wake: @escaping () -> Void) -> () -> Void {
        let id: UInt64 = lock.withLock {
            nextSleeper += 1
            wakeUps.append((nextSleeper, deadline, wake))
            return nextSleeper
        }
        return { [weak self] in
            guard let self else { return }
            self.lock.withLock { self.wakeUps.removeAll { $0.id == id } }
        }
    }

    /// Suspends until at least `count` tasks sleep on the clock (so a test knows a
    /// timeout has been scheduled before it advances past it).
    public func waitForSleepers(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready: Bool = lock.withLock {
                if sleepers.count >= count { return true }
                watchers.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Removes and returns the watchers satisfied by the current number of sleepers.
    /// Called with the lock held.
    private func wakeWatchers() -> [CheckedContinuation<Void, Never>] {
        let ready = watchers.filter { $0.count <= sleepers.count }.map(\.continuation)
        watchers.removeAll { $0.count <= sleepers.count }
        return ready
    }
}
