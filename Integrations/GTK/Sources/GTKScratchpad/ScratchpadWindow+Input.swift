import CWebKitGTK
import Foundation
import HitTestBridge
import InkCore
import WebKitGTKOracle

/// GDK's input: the window's signals, and the observer that feeds every input event of the
/// window to the loop before GTK dispatches it.
extension ScratchpadWindow {
    func connectSignals() {
        let me = Unmanaged.passUnretained(self).toOpaque()
        let input: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<GdkEvent>?, UnsafeMutableRawPointer?) -> gboolean = {
            _, event, context in
            guard let event, let context else { return 0 }
            return Unmanaged<ScratchpadWindow>.fromOpaque(context).takeUnretainedValue().handle(event) ? 1 : 0
        }
        for signal in ["button-press-event", "button-release-event", "motion-notify-event", "touch-event", "scroll-event",
                       "grab-broken-event"] {
            _ = scratchpad_connect(canvas, signal, unsafeBitCast(input, to: GCallback.self), me)
        }
        let close: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> gboolean = {
            _, _, context in
            Unmanaged<ScratchpadWindow>.fromOpaque(context!).takeUnretainedValue().closeRequested = true
            return 1  // kept open until its owner lets go of it
        }
        _ = scratchpad_connect(window, "delete-event", unsafeBitCast(close, to: GCallback.self), me)
        let destroyed: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, context in
            let window = Unmanaged<ScratchpadWindow>.fromOpaque(context!).takeUnretainedValue()
            window.isDestroyed = true
            window.closeRequested = true
        }
        _ = scratchpad_connect(window, "destroy", unsafeBitCast(destroyed, to: GCallback.self), me)
        let draw: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutableRawPointer?) -> gboolean = { _, cr, context in
            guard let cr, let context else { return 0 }
            Unmanaged<ScratchpadWindow>.fromOpaque(context).takeUnretainedValue().draw(cr)
            return 0
        }
        _ = scratchpad_connect(canvas, "draw", unsafeBitCast(draw, to: GCallback.self), me)
        let allocate: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<GdkRectangle>?, UnsafeMutableRawPointer?) -> Void = {
            _, rect, context in
            guard let rect, let context else { return }
            Unmanaged<ScratchpadWindow>.fromOpaque(context).takeUnretainedValue()
                .allocated(width: Int(rect.pointee.width), height: Int(rect.pointee.height))
        }
        _ = scratchpad_connect(canvas, "size-allocate", unsafeBitCast(allocate, to: GCallback.self), me)
        let key: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<GdkEvent>?, UnsafeMutableRawPointer?) -> gboolean = {
            _, event, context in
            guard let event, let context else { return 0 }
            return Unmanaged<ScratchpadWindow>.fromOpaque(context).takeUnretainedValue().handleKey(event) ? 1 : 0
        }
        _ = scratchpad_connect(window, "key-press-event", unsafeBitCast(key, to: GCallback.self), me)
        // The overlay's drawing area lies exactly over the web view, wherever the web view is
        // in the overlay (GtkOverlay gives an overlay child its whole area by default): ink is
        // clipped to the web view and canvas points are the web view's.
        let position: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<GtkWidget>?, UnsafeMutablePointer<GdkRectangle>?,
                                       UnsafeMutableRawPointer?) -> gboolean = { _, child, allocation, context in
            guard let child, let allocation, let context else { return 0 }
            return Unmanaged<ScratchpadWindow>.fromOpaque(context).takeUnretainedValue().position(child, in: allocation) ? 1 : 0
        }
        _ = scratchpad_connect(overlay, "get-child-position", unsafeBitCast(position, to: GCallback.self), me)
        // WebKitGTK's page zoom, changed by the app (`zoom-level`) or by Ctrl and the wheel:
        // the page transform follows it.
        let zoomed: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = {
            _, _, context in
            guard let context else { return }
            Unmanaged<ScratchpadWindow>.fromOpaque(context).takeUnretainedValue().zoomChanged()
        }
        _ = scratchpad_connect(page.widget, "notify::zoom-level", unsafeBitCast(zoomed, to: GCallback.self), me)
        // Ctrl and the wheel over the web view (through a hole) zoom, as over the paper.
        let wheel: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<GdkEvent>?, UnsafeMutableRawPointer?) -> gboolean = {
            _, event, context in
            guard let event, let context else { return 0 }
            return Unmanaged<ScratchpadWindow>.fromOpaque(context).takeUnretainedValue().zoom(by: event) ? 1 : 0
        }
        _ = scratchpad_connect(page.widget, "scroll-event", unsafeBitCast(wheel, to: GCallback.self), me)
    }

    /// Places the drawing area over the web view's allocation (overlay coordinates); other
    /// overlay children are left to GtkOverlay.
    func position(_ child: UnsafeMutablePointer<GtkWidget>, in allocation: UnsafeMutablePointer<GdkRectangle>) -> Bool {
        guard child == canvas, ownsPage, gtk_widget_get_parent(page.widget) == overlay else { return false }
        var x: gint = 0, y: gint = 0
        guard gtk_widget_translate_coordinates(page.widget, overlay, 0, 0, &x, &y) != 0 else { return false }
        allocation.pointee = GdkRectangle(x: x, y: y, width: gtk_widget_get_allocated_width(page.widget),
                                          height: gtk_widget_get_allocated_height(page.widget))
        return true
    }

    /// The zoom one notch of Ctrl and the wheel multiplies or divides by.
    static let zoomStep = 1.1

    /// Ctrl and the wheel (WebKitGTK does not zoom on it by itself): one notch up zooms in by
    /// ``zoomStep``, down zooms out, a smooth scroll by its vertical delta, within
    /// ``Options/zoomRange``. Returns whether the event was a zoom (then nothing scrolls).
    func zoom(by event: UnsafeMutablePointer<GdkEvent>) -> Bool {
        guard event.pointee.type == GDK_SCROLL, event.pointee.scroll.state & GDK_CONTROL_MASK.rawValue != 0,
              !isDestroyed, ownsPage else { return false }
        let notches: Double
        switch event.pointee.scroll.direction {
        case GDK_SCROLL_UP: notches = 1
        case GDK_SCROLL_DOWN: notches = -1
        case GDK_SCROLL_SMOOTH: notches = -event.pointee.scroll.delta_y
        default: return true
        }
        guard notches != 0, notches.isFinite else { return true }
        let level = page.zoomLevel * pow(Self.zoomStep, notches)
        page.zoomLevel = min(max(level, zoomRange.lowerBound), zoomRange.upperBound)
        return true
    }

    /// WebKitGTK's zoom changed: the page transform follows (read again until it rests), and
    /// the ink is redrawn through it.
    func zoomChanged() {
        guard !isDestroyed, ownsPage else { return }
        layout.follow()
    }

    /// The canvas's own handler: wheel scrolling over the overlay goes to the web view below;
    /// pointer and touch events were already seen by the observer, and stop here.
    private func handle(_ event: UnsafeMutablePointer<GdkEvent>) -> Bool {
        switch event.pointee.type {
        case GDK_SCROLL:
            if zoom(by: event) { return true }
            _ = scratchpad_forward_scroll(page.widget, event)
            layout.follow()
            return true
        case GDK_GRAB_BROKEN:
            return false
        default:
            return true
        }
    }

    // MARK: The observer

    /// A window the process-wide observer feeds. Held weakly: a window lives as long as its
    /// owner keeps it.
    struct Observed {
        weak var window: ScratchpadWindow?
    }

    /// The windows whose events the observer feeds to their engines. GTK thread only.
    nonisolated(unsafe) static var windows: [Observed] = []
    nonisolated(unsafe) private static var observerInstalled = false

    /// Registers a window with the observer, installing it on first use: a GDK event handler
    /// that sees every event of the process before GTK dispatches it, feeds the input events
    /// of a registered window to that window's engine, and then hands every event to GTK
    /// unchanged. It claims nothing: the twin of a gesture recognizer that only observes.
    static func observe(_ window: ScratchpadWindow) {
        windows.removeAll { $0.window == nil }
        windows.append(Observed(window: window))
        guard !observerInstalled else { return }
        observerInstalled = true
        gdk_event_handler_set({ event, _ in
            guard let event else { return }
            if let gdkWindow = event.pointee.any.window {
                let toplevel = gdk_window_get_toplevel(gdkWindow)
                for entry in ScratchpadWindow.windows {
                    guard let window = entry.window, !window.isDestroyed,
                          gtk_widget_get_window(window.window) == toplevel else { continue }
                    window.observe(event, target: gtk_get_event_widget(event))
                    break
                }
            }
            gtk_main_do_event(event)
        }, nil, nil)
    }

    /// Delivers a synthesized input event the way the display server and GDK would: the
    /// observer sees it first, then the widget it is for gets it. Tools that play recorded
    /// input (``widget(at:)`` picks the widget) use it, so played input takes the same path
    /// as a real touch or mouse.
    /// - Parameters:
    ///   - event: The event, made for `target` (its window is `target`'s).
    ///   - target: The overlay (``canvas``) or the web view.
    /// - Returns: Whether a handler of `target` took it.
    @discardableResult
    public func dispatchAsPlatform(_ event: UnsafeMutablePointer<GdkEvent>, to target: UnsafeMutablePointer<GtkWidget>) -> Bool {
        guard !isDestroyed else { return false }
        observe(event, target: target)
        return gtk_widget_event(target, event) != 0
    }

    /// The widget a touch or press landing at `point` (window coordinates of the page area)
    /// goes to: the web view through a hole of the overlay's input shape, else the overlay.
    /// Later events of a touch go where it went down, as a pointer grab or a touch sequence
    /// keeps them.
    public func widget(at point: CanvasPoint) -> UnsafeMutablePointer<GtkWidget> {
        guard let holes = inputShapeHoles else { return canvas }
        let inside = holes.contains { point.x >= $0.minX && point.x < $0.maxX && point.y >= $0.minY && point.y < $0.maxY }
        return inside ? page.widget : canvas
    }

    /// One event the observer saw, before GTK dispatches it to `target`: an input event of
    /// the overlay becomes a touch event for the engine, one of the web view a touch the
    /// platform gave the page natively.
    private func observe(_ event: UnsafeMutablePointer<GdkEvent>, target: UnsafeMutablePointer<GtkWidget>?) {
        if event.pointee.type == GDK_GRAB_BROKEN {
            // The pointer's grab was taken away: its touch will get no release.
            cancelPointer()
            return
        }
        switch event.pointee.type {
        case GDK_PROXIMITY_IN, GDK_PROXIMITY_OUT:
            // A pen came into (or left) the tablet's range over the window: the twin of Apple
            // Pencil hover, the palm rule's witness that the pen is near. Only pen devices
            // (a tablet's stylus or eraser) send proximity events; a mouse never does.
            deliver(.pencilHovering(event.pointee.type == GDK_PROXIMITY_IN))
            return
        default:
            break
        }
        let input = scratchpad_read_input(event)
        let now = GTK.now
        if input.phase == SCRATCHPAD_INPUT_OTHER, event.pointee.type == GDK_MOTION_NOTIFY {
            _ = eventClock.time(ofEvent: input.time, now: now)  // a hovering pointer keeps the mapping fresh
            loop.pointerHovered()
            return
        }
        // Each sample carries its event's own time, on the engine's clock.
        guard let phase = Self.phase(of: input) else { return }
        let time = eventClock.sampleTime(ofEvent: input.time, touch: input.is_touch != 0 ? input.sequence : Self.pointerID.rawValue,
                                         phase: phase, now: now)
        guard let touch = Self.touchEvent(from: input, timestamp: time) else { return }
        // A press while the pointer is still down lost its release (a grab taken away unseen):
        // that touch is cancelled first, or every later press would be refused.
        if input.is_touch == 0, touch.phase == .began, pointerDown { cancelPointer() }
        let native = target != nil && target != canvas
        deliver(native ? .nativePageTouch(touch) : .touch(touch))
    }

    private func cancelPointer() {
        guard pointerDown else { return }
        deliver(.touch(TouchEvent(touch: Self.pointerID, phase: .cancelled, samples: [])))
    }

    /// The touch event one GDK input event makes: a touchscreen touch is a finger, named by
    /// its sequence; the pointer (mouse, pen, eraser) is a pencil-like tool, named 0, with the
    /// pressure and tilt its device gives. `nil` for events that do not draw.
    ///
    /// A touch carries no contact size: GDK 3 names no touch-ellipse axis (`GdkAxisUse` has
    /// pressure, tilt, wheel, distance, rotation and slider) and a synthesized touch has no
    /// device axes, so every sample's `TouchSample.majorRadius` is `nil` and the engine's
    /// `InkEngineConfiguration.palmRadius` never applies in this twin; the palm rule beside
    /// the pen (`palmHold`) does.
    static func touchEvent(from input: ScratchpadInput, timestamp: Double) -> TouchEvent? {
        guard let phase = phase(of: input), input.x.isFinite, input.y.isFinite else { return nil }
        let isTouch = input.is_touch != 0
        let force = input.pressure.isFinite ? min(max(input.pressure, 0), 1) : nil
        var altitude: Double?
        var azimuth: Double?
        if input.xtilt.isFinite, input.ytilt.isFinite {
            // GDK gives tilt as -1...1 of each axis' range; taken as -90°...90° (the Pointer
            // Events convention), then turned into UIKit's altitude and azimuth.
            let tx = tan(min(max(input.xtilt, -0.999), 0.999) * .pi / 2)
            let ty = tan(min(max(input.ytilt, -0.999), 0.999) * .pi / 2)
            altitude = .pi / 2 - atan((tx * tx + ty * ty).squareRoot())
            azimuth = atan2(ty, tx)
        }
        let sample = TouchSample(x: input.x, y: input.y, timestamp: timestamp, force: force, altitude: altitude, azimuth: azimuth,
                                 tool: isTouch ? .finger : .pencil)
        return TouchEvent(touch: isTouch ? PlatformTouchID(input.sequence) : pointerID, phase: phase, samples: [sample])
    }

    /// The phase of a touch one GDK input event makes; `nil` for events that do not draw.
    static func phase(of input: ScratchpadInput) -> TouchPhase? {
        switch input.phase {
        case SCRATCHPAD_INPUT_DOWN: .began
        case SCRATCHPAD_INPUT_MOVE: .moved
        case SCRATCHPAD_INPUT_UP: .ended
        case SCRATCHPAD_INPUT_CANCEL: .cancelled
        default: nil
        }
    }
}
