import Foundation

/// The system's uptime clock: seconds since boot, not counting time asleep. The same seconds
/// as the platform's touch timestamps, so the engine's deadlines (a touch's first sample
/// plus the decision timeout) fire on time and first-ink latency is measured from the real
/// touch-down.
///
/// - On Apple platforms, `UITouch.timestamp` is documented as seconds since system startup,
///   in the sense of `ProcessInfo.systemUptime` ("the amount of time the system has been awake
///   since the last time it was restarted"), which this clock reads. Pass `touch.timestamp`
///   through unchanged.
/// - On Linux, `ProcessInfo.systemUptime` reads `CLOCK_MONOTONIC`, the clock libinput stamps
///   its events with; convert a front end's event times to seconds on that clock.
///
/// It is ``InkSession``'s default clock. A wake-up is a task that sleeps on `SuspendingClock`
/// (which does not advance while the system sleeps either) and checks ``now`` again on
/// waking, so it never fires before its deadline; it calls `wake` from that task, on no
/// particular thread (the session posts it to its own queue).
final class UptimeClock: InkLoopClock, Sendable {
    /// Creates the clock. Every instance reads the same time.
    init() {}

    var now: Double { ProcessInfo.processInfo.systemUptime }

    func wake(at deadline: Double, _ wake: @escaping () -> Void) -> () -> Void {
        let call = UncheckedCall(wake)
        let task = Task {
            do { try await self.sleep(until: deadline) } catch { return }
            call.body()
        }
        return { task.cancel() }
    }

    /// Suspends until ``now`` reaches `deadline` (at once if it already has).
    func sleep(until deadline: Double) async throws {
        while true {
            let remaining = deadline - now
            guard remaining > 0 else { return }
            // At most a day at a time (the loop sleeps again): `Duration.seconds` traps on
            // infinity and beyond about 1.7e20 s, and a deadline follows the input's times.
            try await Task.sleep(for: .seconds(min(remaining, 86_400)), tolerance: .milliseconds(1), clock: .suspending)
        }
    }
}

/// A wake-up carried into the task that calls it: the session's wake-up only posts to the
/// session's thread-safe queue, from whatever thread.
private final class UncheckedCall: @unchecked Sendable {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
}
