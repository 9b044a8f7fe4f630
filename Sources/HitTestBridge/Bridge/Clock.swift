import Foundation

/// The time source of the bridge's asynchronous shell, in seconds on the same timebase as the
/// touch samples' timestamps. ``InkSession`` reads the system's uptime clock by default
/// (`ProcessInfo.systemUptime`, the timebase of `UITouch.timestamp`); tests use a clock moved
/// by hand (`ManualClock` in the InkTesting product), so nothing waits for real (replays drive ``InkEngine`` in simulated time, with no
/// clock).
public protocol BridgeClock: Sendable {
    /// The current time, seconds, on the touch timestamps' timebase.
    var now: Double { get }
    /// Suspends until ``now`` reaches `deadline` (at once if it already has).
    func sleep(until deadline: Double) async throws
}

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
/// It sleeps on `SuspendingClock` (which does not advance while the system sleeps either) and
/// checks ``now`` again on waking, so a sleep never ends before its deadline.
@usableFromInline struct UptimeClock: BridgeClock {
    /// Creates the clock. Every instance reads the same time.
    @usableFromInline init() {}

    @usableFromInline var now: Double { ProcessInfo.processInfo.systemUptime }

    @usableFromInline func sleep(until deadline: Double) async throws {
        while true {
            let remaining = deadline - now
            guard remaining > 0 else { return }
            // At most a day at a time (the loop sleeps again): `Duration.seconds` traps on
            // infinity and beyond about 1.7e20 s, and a deadline follows the input's times.
            try await Task.sleep(for: .seconds(min(remaining, 86_400)), tolerance: .milliseconds(1), clock: .suspending)
        }
    }
}
