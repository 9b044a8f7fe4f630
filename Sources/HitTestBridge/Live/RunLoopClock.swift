import Foundation

/// The default ``InkLoopClock`` of an ``InkLoop``, for a front end whose thread runs a Foundation run loop (UIKit's main
/// thread): it reads the system's uptime (`ProcessInfo.systemUptime`), the timebase of
/// `UITouch.timestamp`, and wakes the loop with a one-shot `Timer` on that run loop in its common
/// modes, so a wake-up fires while a scroll view tracks a finger too.
///
/// Create it on the loop's thread: the timers go to that thread's run loop
/// (`RunLoop.current` when created), and fire there.
final class RunLoopClock: InkLoopClock {
    private let runLoop: RunLoop

    /// A clock whose wake-ups fire on `runLoop` (default: the current thread's).
    init(runLoop: RunLoop = .current) { self.runLoop = runLoop }

    /// Seconds since the system started, not counting time asleep (`ProcessInfo.systemUptime`).
    var now: Double { ProcessInfo.processInfo.systemUptime }

    /// Arms a one-shot `Timer` on the run loop for `deadline`.
    func wake(at deadline: Double, _ wake: @escaping () -> Void) -> () -> Void {
        // The timer's block is `@Sendable`, but it runs on the run loop it was added to: the
        // loop's own thread, where `wake` belongs.
        let call = ThreadBound(wake)
        let timer = Timer(timeInterval: max(0, deadline - now), repeats: false) { _ in call.body() }
        runLoop.add(timer, forMode: .common)
        return { timer.invalidate() }
    }
}

/// A closure carried to the thread it was made on by an API that asks for `@Sendable`.
private final class ThreadBound: @unchecked Sendable {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
}
