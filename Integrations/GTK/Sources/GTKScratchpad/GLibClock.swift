import CWebKitGTK
import HitTestBridge
import WebKitGTKOracle

/// The ``InkLoopClock`` of a GTK front end: GLib's monotonic clock (``GTK/now``, the clock
/// libinput stamps events with) and one-shot GLib timeouts on the default main context, so a
/// wake-up runs on the GTK thread, where the loop lives.
public final class GLibClock: InkLoopClock {
    /// A clock for the GTK thread.
    public init() {}

    /// Seconds on GLib's monotonic clock.
    public var now: Double { GTK.now }

    /// Arms a GLib timeout for `deadline` (rounded up to the millisecond; at most a day
    /// ahead, after which the loop simply arms again).
    public func wake(at deadline: Double, _ wake: @escaping () -> Void) -> () -> Void {
        let armed = Armed(wake)
        let milliseconds = guint(min(max(0, ((deadline - now) * 1000).rounded(.up)), 86_400_000))
        armed.source = g_timeout_add_full(0, milliseconds, { context in
            let armed = Unmanaged<Armed>.fromOpaque(context!).takeUnretainedValue()
            armed.source = 0
            let body = armed.body
            armed.body = nil
            body?()
            return 0
        }, Unmanaged.passRetained(armed).toOpaque(), { context in Unmanaged<Armed>.fromOpaque(context!).release() })
        return {
            if armed.source != 0 { g_source_remove(armed.source) }
            armed.source = 0
            armed.body = nil
        }
    }

    private final class Armed {
        var body: (() -> Void)?
        var source: guint = 0
        init(_ body: @escaping () -> Void) { self.body = body }
    }
}
