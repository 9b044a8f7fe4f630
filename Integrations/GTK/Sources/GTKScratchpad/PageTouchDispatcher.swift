@_spi(Tooling) @_spi(FrontEnd) import HitTestBridge
@_spi(Tooling) @_spi(FrontEnd) import InkCore
@_spi(Tooling) import WebKitGTKOracle

/// Hands the page's touches to the web view as trusted synthesized GDK events after the
/// engine decided them (``TouchRouting/handOverAfterDecision`` only): each released sample
/// in order, stamped with its own time, a finger as a touch sequence of its own (the
/// engine's id: unique, never 0), anything else as the pointer.
struct PageTouchDispatcher {
    /// A touch handed to the web view: how it reaches the page, and where and when it last
    /// was (a lift or a cancel happens there).
    private struct PageTouch {
        var tool: ToolKind
        var point: CanvasPoint
        var time: Double
    }

    /// The page's touches handed to the web view and not ended there, by the engine's id.
    private var down: [TouchID: PageTouch] = [:]
    /// Events handed to the web view.
    private(set) var dispatched = 0
    /// Page touches the engine finished while the web view still held them down: cancelled
    /// there then. Zero, unless the window loses track.
    private(set) var leftOpen = 0

    /// Carries out one engine action for the page. Returns `true` when a touch lifted (the
    /// page may scroll or move now).
    mutating func carryOut(_ action: RouterAction, on page: WebKitGTKPage) -> Bool {
        switch action {
        case let .release(id, sample):
            let tool = down[id]?.tool ?? sample.tool
            let first = down.updateValue(PageTouch(tool: tool, point: sample.point, time: sample.timestamp), forKey: id) == nil
            dispatch(id, first ? .start : .move, via: tool, at: sample.point, time: sample.timestamp, on: page)
        case let .endRelease(id):
            guard let touch = down.removeValue(forKey: id) else { return false }
            dispatch(id, .end, via: touch.tool, at: touch.point, time: touch.time, on: page)
            return true
        case let .cancel(id, previously):
            guard previously == .page, let touch = down.removeValue(forKey: id) else { return false }
            dispatch(id, .cancel, via: touch.tool, at: touch.point, time: nil, on: page)
        case let .touchFinished(id, _):
            // Every page touch ends or is cancelled before it finishes; one that did not
            // would stay down in WebKit: cancelled there, and counted.
            if let touch = down.removeValue(forKey: id) {
                leftOpen += 1
                dispatch(id, .cancel, via: touch.tool, at: touch.point, time: nil, on: page)
            }
        default:
            break
        }
        return false
    }

    private mutating func dispatch(_ id: TouchID, _ phase: WebKitGTKPage.TouchPhase, via tool: ToolKind, at point: CanvasPoint,
                                   time: Double?, on page: WebKitGTKPage) {
        let eventTime = time.map(WebKitGTKPage.eventTime(for:))
        if tool == .finger {
            page.dispatchTouch(phase, sequence: id.rawValue, x: point.x, y: point.y, time: eventTime)
        } else {
            page.dispatchPointer(phase, x: point.x, y: point.y, time: eventTime)
        }
        dispatched += 1
    }
}
