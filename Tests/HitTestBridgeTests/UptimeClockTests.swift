#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif
import Foundation
@_spi(Tooling) import InkCore
import InkTesting
import Testing
@_spi(Tooling) @testable import HitTestBridge

@Suite("UptimeClock: the bridge's clock on the touch timestamps' timebase")
struct UptimeClockTests {
    /// The platform's own reading of the touch timebase, in seconds: `CLOCK_UPTIME_RAW`
    /// (mach_absolute_time, what `UITouch.timestamp` counts) on Darwin, `CLOCK_MONOTONIC`
    /// (libinput's event clock) on Linux.
    static func platformTouchTime() -> Double {
        #if canImport(Darwin)
        return Double(clock_gettime_nsec_np(CLOCK_UPTIME_RAW)) / 1e9
        #else
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
        #endif
    }

    @Test("reads the same seconds as the platform's touch timebase, not seconds since it was made")
    func timebase() {
        let before = Self.platformTouchTime()
        let now = UptimeClock().now
        let after = Self.platformTouchTime()
        // A clock counting from its own creation would read about 0 here.
        #expect(now >= before - 0.001 && now <= after + 0.001, "\(before) ≤ \(now) ≤ \(after)")
        #expect(now > 0.01)
    }

    @Test("a deadline already passed returns at once; a far one ends when its task is cancelled")
    func sleeping() async throws {
        let clock = UptimeClock()
        try await clock.sleep(until: clock.now - 1)
        let sleeper = Task { try await clock.sleep(until: clock.now + 3_600) }
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
    }

    @Test("a wake-up already due fires from its task; a cancelled far one never does")
    func wakeUps() async {
        let clock = UptimeClock()
        let cancel = clock.wake(at: clock.now + 3_600) { Issue.record("a cancelled wake-up fired") }
        cancel()
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            _ = clock.wake(at: clock.now - 1) { done.resume() }
        }
    }

    @Test("a deadline beyond what a Duration holds (1e300 s, infinity) sleeps until cancelled instead of trapping",
          arguments: [1e21, 1e300, Double.greatestFiniteMagnitude, .infinity])
    func farDeadline(deadline: Double) async throws {
        // The deadline follows the input's times: a touch at 1e300 s gets one at 1e300 + 0.25.
        let clock = UptimeClock()
        let sleeper = Task { try await clock.sleep(until: deadline) }
        try await Task.sleep(for: .milliseconds(20))   // asleep, not dead
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
    }

    @Test("on a device's uptime, the engine's deadline fires at the touch's time plus the timeout")
    func deadlineAtTouchTimePlusTimeout() async throws {
        let uptime = 86_400.25   // a day after boot, as UITouch.timestamp reads then
        let oracle = ScriptedOracle(), clock = ManualClock(start: uptime), log = ActionLog()
        let timeout = 0.2
        let session = InkSession(configuration: InkEngineConfiguration(decisionTimeout: timeout), clock: clock,
                                 seed: 5) { try await oracle.send($0) }
        log.start(session)
        let down = uptime - 0.004   // the touch happened just before its event reached the session
        await session.take(TouchEvent(touch: PlatformTouchID(1), phase: .began,
                                            samples: [TouchSample(x: 5, y: 5, timestamp: down, tool: .pencil)]))
        await session.take(TouchEvent(touch: PlatformTouchID(1), phase: .ended,
                                            samples: [TouchSample(x: 6, y: 5, timestamp: down + 0.016, tool: .pencil)]))
        await oracle.waitForRequests(1)
        await clock.waitForWakeUps(1)   // the one timer, armed for the earliest deadline: the engine's
        #expect(clock.wakeUpDeadlines.count == 1 && abs(clock.wakeUpDeadlines[0] - (down + timeout)) < 1e-9,
                "\(clock.wakeUpDeadlines)")
        clock.advance(to: down + timeout)
        await log.wait(until: ActionLog.finished(TouchID(1)))
        #expect(log.all.contains(.decided(TouchID(1), .ink, .deadline)))
        let metrics = await session.metrics
        #expect(metrics.firstInk.counts[5] == 1)   // first ink 200 ms after the touch: the ≤ 250 ms bucket
        let ledger = await session.ledger
        #expect(ledger.isBalanced && ledger.inked == 2)
    }
}
