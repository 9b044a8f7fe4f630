import CWebKitGTK
@_spi(Tooling) import GTKScratchpad
@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkCore
@_spi(Tooling) import InkRecording
@_spi(Tooling) import WebKitGTKOracle

/// Plays a session log into a `ScratchpadWindow` as a user would have made it: each
/// recorded sample becomes one synthesized GDK event, at its recorded time re-based to now
/// (and scaled by the speed), delivered the way the display server would: to the widget
/// under the touch-down (the overlay, or the web view through a hole of the overlay's input
/// shape; ``ScratchpadWindow/widget(at:)``), later events of the touch to the same widget,
/// each seen first by the window's observer (``ScratchpadWindow/dispatchAsPlatform(_:to:)``).
/// So played input takes the same path as real input.
///
/// Tooling, not part of the front end an app embeds: it is the one place of the GTK
/// package that reads session logs (`scratchpad-gtk --replay` and the tests use it). A finger's samples are touch events (its log id is the
/// touch sequence); a pencil's are primary-button and motion events of the pointer.
///
/// The log's recorded answers and snapshots are not used: the real page answers. A pencil's
/// cancel is played as the pointer's grab being taken away (GDK has no pointer cancel),
/// which the window reads as a cancel. What GDK events cannot carry is left out and
/// counted: estimated-property updates, and a pencil's pressure and tilt (a synthesized
/// event has no device axes to hold them). Playing stops when the window is closed.
public struct LogPlayer {
    /// How much faster than recorded to play (1: as recorded).
    public var speed: Double
    /// How long to let the page settle after the last event (its handlers, the last answers).
    public var settle: Double

    /// A player at `speed`.
    public init(speed: Double = 1, settle: Double = 0.5) {
        self.speed = speed > 0 && speed.isFinite ? speed : 1
        self.settle = settle
    }

    /// What was played.
    public struct Played: Sendable, Hashable {
        /// GDK events delivered to the overlay.
        public var events = 0
        /// Samples played.
        public var samples = 0
        /// Estimated-property updates in the log, not played.
        public var updatesSkipped = 0
        /// Pencil samples whose pressure or tilt could not be carried.
        public var axesDropped = 0
        /// The most the playback fell behind its schedule, seconds.
        public var worstLag = 0.0
        /// Touch events not played: a log touch id of 2⁶⁴−1 (it has no GDK sequence).
        public var unplayable = 0
        /// Whether the window was closed before the log ended.
        public var stoppedByClose = false
    }

    /// Plays `log` into `window` (shown, with its page loaded), then waits until no question
    /// is open and the page has settled.
    @_spi(Tooling) public mutating func play(_ log: SessionLog, into window: ScratchpadWindow) -> Played {
        var played = Played()
        let start = GTK.now
        let origin = log.events.first?.time ?? 0
        schedule = (start, origin)
        for event in log.events {
            if window.closeRequested {
                played.stoppedByClose = true
                break
            }
            switch event {
            case let .touch(touch, time), let .recorded(.nativePageTouch(touch), time):
                // A recording's touch routed to the page is played as a touch: the overlay's
                // input shape routes it again.
                let due = start + (time - origin) / speed
                if due > GTK.now { GTK.spin(timeout: due - GTK.now + 1) { GTK.now >= due } }
                played.worstLag = max(played.worstLag, GTK.now - due)
                deliver(touch, due: due, to: window, played: &played)
            case .update:
                played.updatesSkipped += 1
            case .answer, .regions:
                break  // the real page answers
            case .recorded:
                break  // a recording's answers, layout changes and decisions: the real page and engine make their own
            }
        }
        GTK.spin(timeout: 5) { window.engine.waitingQuestions == 0 || window.closeRequested }
        if !window.closeRequested { GTK.spin(for: settle) }
        return played
    }

    /// When playing began (`GTK.now`) and the log's time then.
    private var schedule = (start: 0.0, origin: 0.0)
    private var tools: [PlatformTouchID: ToolKind] = [:]
    private var positions: [PlatformTouchID: CanvasPoint] = [:]
    /// The widget each touch went down on: its later events go there too.
    private var targets: [PlatformTouchID: UnsafeMutablePointer<GtkWidget>] = [:]
    /// GDK events delivered, by widget: the overlay's and the web view's.
    public private(set) var eventsToOverlay = 0
    /// GDK events delivered straight to the web view (touches that began in a hole of the
    /// overlay's input shape).
    public private(set) var eventsToPage = 0

    private mutating func send(_ event: UnsafeMutablePointer<GdkEvent>?, _ touch: PlatformTouchID, to window: ScratchpadWindow) {
        guard let event else { return }
        defer { gdk_event_free(event) }
        let target = targets[touch] ?? window.canvas
        if target == window.canvas { eventsToOverlay += 1 } else { eventsToPage += 1 }
        window.dispatchAsPlatform(event, to: target)
    }

    /// The `time` of a sample's GDK event: the sample's recorded time re-based and scaled as
    /// its event's, as a display server stamps an event when it happens (events played in
    /// one go, behind their schedule, keep their pace); never later than now.
    private func eventTime(of sample: TouchSample, due: Double) -> UInt32 {
        let recorded = schedule.start + (sample.timestamp - schedule.origin) / speed
        return WebKitGTKPage.eventTime(for: min(recorded.isFinite ? recorded : due, GTK.now))
    }

    private mutating func deliver(_ touch: TouchEvent, due: Double, to window: ScratchpadWindow, played: inout Played) {
        guard touch.touch.rawValue != .max else {
            played.unplayable += 1
            return
        }
        if touch.phase == .began, let down = touch.samples.first {
            tools[touch.touch] = down.tool
            targets[touch.touch] = window.widget(at: down.point)
        }
        let target = targets[touch.touch] ?? window.canvas
        let isFinger = (tools[touch.touch] ?? .finger) == .finger
        let sequence = touch.touch.rawValue + 1  // never 0: GDK's pointer events have none
        let finishing = touch.phase == .ended || touch.phase == .cancelled
        defer {
            if finishing {
                tools[touch.touch] = nil
                positions[touch.touch] = nil
                targets[touch.touch] = nil
            }
        }
        // A lift or a cancel with no sample of its own happens where the touch last was.
        // (A GDK lift carries a position, which the window takes as a sample, as UIKit's does.)
        var samples = touch.samples
        if samples.isEmpty, finishing, let point = positions[touch.touch] {
            if !isFinger && touch.phase == .cancelled {
                send(scratchpad_make_grab_broken(target), touch.touch, to: window)
                played.events += 1
                return
            }
            samples = [TouchSample(x: point.x, y: point.y, timestamp: schedule.origin + (due - schedule.start) * speed)]
            played.samples -= 1  // not a sample of the log
        }
        if !finishing, let last = samples.last { positions[touch.touch] = last.point }
        for (index, sample) in samples.enumerated() {
            let first = index == 0, last = index == samples.count - 1
            let phase: WebKitGTKPage.TouchPhase = switch touch.phase {
            case .began: first ? .start : .move
            case .moved: .move
            case .ended: last ? .end : .move
            case .cancelled: last ? .cancel : .move
            }
            if isFinger {
                let type: GdkEventType = switch phase {
                case .start: GDK_TOUCH_BEGIN
                case .move: GDK_TOUCH_UPDATE
                case .end: GDK_TOUCH_END
                case .cancel: GDK_TOUCH_CANCEL
                }
                send(scratchpad_make_touch(target, type, sample.x, sample.y, sequence, eventTime(of: sample, due: due)), touch.touch, to: window)
            } else {
                if sample.force != nil || sample.altitude != nil || sample.azimuth != nil { played.axesDropped += 1 }
                if phase == .cancel {
                    // No pointer cancel in GDK: the grab is taken away, the window cancels.
                    send(scratchpad_make_pointer(target, GDK_MOTION_NOTIFY, sample.x, sample.y, eventTime(of: sample, due: due)), touch.touch, to: window)
                    send(scratchpad_make_grab_broken(target), touch.touch, to: window)
                } else {
                    let type: GdkEventType = switch phase {
                    case .start: GDK_BUTTON_PRESS
                    case .move: GDK_MOTION_NOTIFY
                    case .end, .cancel: GDK_BUTTON_RELEASE
                    }
                    send(scratchpad_make_pointer(target, type, sample.x, sample.y, eventTime(of: sample, due: due)), touch.touch, to: window)
                }
            }
            played.events += 1
            played.samples += 1
        }
    }
}
