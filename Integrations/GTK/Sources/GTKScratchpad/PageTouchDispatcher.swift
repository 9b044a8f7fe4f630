import HitTestBridge
import InkCore
import WebKitGTKOracle

/// Hands the page's touches to the web view as trusted synthesized GDK events
/// (``TouchRouting/handOverAfterDecision`` only): it performs the engine's
/// ``PageTouch`` events as they come, each stamped with its own time, a finger as a touch
/// sequence of its own (the page pointer id: unique, never 0), anything else as the
/// pointer. Which release is a `down`, where a lift lands and the cancel of a touch the
/// engine finished are the engine's one fold (`PageTouch`), not decided here.
struct PageTouchDispatcher {
    /// Events handed to the web view.
    private(set) var dispatched = 0

    /// Performs one page touch. Returns `true` when a pointer lifted or was cancelled (the
    /// page may scroll or move now).
    mutating func perform(_ touch: PageTouch, on page: WebKitGTKPage) -> Bool {
        let phase: WebKitGTKPage.TouchPhase
        switch touch.phase {
        case .began: phase = .start
        case .moved: phase = .move
        case .ended: phase = .end
        case .cancelled: phase = .cancel
        }
        // A cancel carries no time of its own: GDK stamps it now.
        let eventTime = touch.phase == .cancelled ? nil : WebKitGTKPage.eventTime(for: touch.time)
        if touch.tool == .finger {
            page.dispatchTouch(phase, sequence: touch.pointer, x: touch.point.x, y: touch.point.y, time: eventTime)
        } else {
            page.dispatchPointer(phase, x: touch.point.x, y: touch.point.y, time: eventTime)
        }
        dispatched += 1
        return touch.phase == .ended || touch.phase == .cancelled
    }
}
