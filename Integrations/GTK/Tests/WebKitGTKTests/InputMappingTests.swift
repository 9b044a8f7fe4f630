import CWebKitGTK
@_spi(Tooling) @testable import GTKScratchpad
@_spi(Tooling) import InkCore
import Testing
@_spi(Tooling) import GTKLogPlayer

/// GDK input as the overlay reads it, to the engine's touch events. No display needed.
@Suite("GDK input to touch events")
struct InputMappingTests {
    func input(_ phase: ScratchpadInputPhase, touch: Bool, x: Double = 10, y: Double = 20, sequence: UInt64 = 0,
               pressure: Double = .nan, xtilt: Double = .nan, ytilt: Double = .nan) -> ScratchpadInput {
        ScratchpadInput(phase: phase, is_touch: touch ? 1 : 0, x: x, y: y, sequence: sequence, source: -1,
                        pressure: pressure, xtilt: xtilt, ytilt: ytilt, time: 0)
    }

    @Test("a touchscreen touch is a finger named by its sequence; its phases map one to one")
    func touchIsAFinger() throws {
        let phases: [(ScratchpadInputPhase, TouchPhase)] = [(SCRATCHPAD_INPUT_DOWN, .began), (SCRATCHPAD_INPUT_MOVE, .moved),
                                                              (SCRATCHPAD_INPUT_UP, .ended), (SCRATCHPAD_INPUT_CANCEL, .cancelled)]
        for (gdk, phase) in phases {
            let event = try #require(ScratchpadWindow.touchEvent(from: input(gdk, touch: true, sequence: 0x55AA), timestamp: 3.5))
            #expect(event.touch == PlatformTouchID(0x55AA) && event.phase == phase)
            #expect(event.samples == [TouchSample(x: 10, y: 20, timestamp: 3.5, tool: .finger)])
        }
    }

    @Test("a GDK touch carries no contact size: its samples have no major radius, so the engine's palmRadius cannot apply in the twin")
    func touchHasNoRadius() throws {
        for phase in [SCRATCHPAD_INPUT_DOWN, SCRATCHPAD_INPUT_MOVE, SCRATCHPAD_INPUT_UP] {
            let event = try #require(ScratchpadWindow.touchEvent(from: input(phase, touch: true, sequence: 7, pressure: 0.9), timestamp: 1))
            #expect(event.samples.allSatisfy { $0.majorRadius == nil }, "\(event.samples)")
        }
    }

    @Test("the pointer is a pencil-like tool, id 0, with the pressure and tilt its device gives")
    func pointerIsAPencil() throws {
        let event = try #require(ScratchpadWindow.touchEvent(from: input(SCRATCHPAD_INPUT_DOWN, touch: false, pressure: 0.4, xtilt: 0, ytilt: 0), timestamp: 1))
        let sample = try #require(event.samples.first)
        #expect(event.touch == PlatformTouchID(0) && sample.tool == .pencil && sample.force == 0.4)
        #expect(abs(sample.altitude! - .pi / 2) < 1e-12)  // upright
        let tilted = try #require(ScratchpadWindow.touchEvent(from: input(SCRATCHPAD_INPUT_MOVE, touch: false, xtilt: 0.5, ytilt: 0), timestamp: 1))
        #expect(abs(tilted.samples[0].altitude! - .pi / 4) < 1e-9 && abs(tilted.samples[0].azimuth!) < 1e-12)  // 45° toward +x
        let mouse = try #require(ScratchpadWindow.touchEvent(from: input(SCRATCHPAD_INPUT_UP, touch: false), timestamp: 1))
        #expect(mouse.samples[0].force == nil && mouse.samples[0].altitude == nil)
    }

    @Test("pressure is clamped to 0...1; events that do not draw, and positions that are not finite, give nothing")
    func boundsAndNonEvents() {
        #expect(ScratchpadWindow.touchEvent(from: input(SCRATCHPAD_INPUT_DOWN, touch: false, pressure: 7), timestamp: 0)?.samples[0].force == 1)
        #expect(ScratchpadWindow.touchEvent(from: input(SCRATCHPAD_INPUT_DOWN, touch: false, pressure: -1), timestamp: 0)?.samples[0].force == 0)
        #expect(ScratchpadWindow.touchEvent(from: input(SCRATCHPAD_INPUT_OTHER, touch: false), timestamp: 0) == nil)
        #expect(ScratchpadWindow.touchEvent(from: input(SCRATCHPAD_INPUT_DOWN, touch: true, x: .nan), timestamp: 0) == nil)
        #expect(ScratchpadWindow.touchEvent(from: input(SCRATCHPAD_INPUT_MOVE, touch: true, y: .infinity), timestamp: 0) == nil)
    }
}

/// The C reader of GDK events (`scratchpad_read_input`): which events draw.
@Suite("GDK events as the overlay reads them")
struct GDKEventReaderTests {
    func read(_ type: GdkEventType, button: guint = 1, state: guint = 0, x: Double = 5, y: Double = 6) -> ScratchpadInput {
        let event = gdk_event_new(type)!
        defer { gdk_event_free(event) }
        switch type {
        case GDK_BUTTON_PRESS, GDK_BUTTON_RELEASE, GDK_2BUTTON_PRESS:
            event.pointee.button.button = button
            event.pointee.button.x = x
            event.pointee.button.y = y
        case GDK_MOTION_NOTIFY:
            event.pointee.motion.state = state
            event.pointee.motion.x = x
            event.pointee.motion.y = y
        default:
            event.pointee.touch.x = x
            event.pointee.touch.y = y
            event.pointee.touch.sequence = OpaquePointer(bitPattern: 0x42)
        }
        return scratchpad_read_input(event)
    }

    @Test("the primary button draws; other buttons, double clicks and motion with the button up do not")
    func buttons() {
        #expect(read(GDK_BUTTON_PRESS).phase == SCRATCHPAD_INPUT_DOWN)
        #expect(read(GDK_BUTTON_RELEASE).phase == SCRATCHPAD_INPUT_UP)
        #expect(read(GDK_BUTTON_PRESS, button: 3).phase == SCRATCHPAD_INPUT_OTHER)
        #expect(read(GDK_2BUTTON_PRESS).phase == SCRATCHPAD_INPUT_OTHER)
        #expect(read(GDK_MOTION_NOTIFY, state: GDK_BUTTON1_MASK.rawValue).phase == SCRATCHPAD_INPUT_MOVE)
        #expect(read(GDK_MOTION_NOTIFY, state: 0).phase == SCRATCHPAD_INPUT_OTHER)
        let press = read(GDK_BUTTON_PRESS, x: 12.5, y: -3)
        #expect(press.is_touch == 0 && press.x == 12.5 && press.y == -3 && press.sequence == 0 && press.pressure.isNaN)
    }

    @Test("touch events carry their sequence and phase")
    func touches() {
        let phases: [(GdkEventType, ScratchpadInputPhase)] = [(GDK_TOUCH_BEGIN, SCRATCHPAD_INPUT_DOWN), (GDK_TOUCH_UPDATE, SCRATCHPAD_INPUT_MOVE),
                                                            (GDK_TOUCH_END, SCRATCHPAD_INPUT_UP), (GDK_TOUCH_CANCEL, SCRATCHPAD_INPUT_CANCEL)]
        for (type, phase) in phases {
            let input = read(type)
            #expect(input.phase == phase && input.is_touch == 1 && input.sequence == 0x42 && input.x == 5)
        }
    }
}

/// The mapping from GDK event times (milliseconds of the display server's clock, 32 bits) to
/// the engine's seconds, with the engine's clock given. No display needed.
@Suite("GDK event times on the engine's clock")
struct EventClockTests {
    @Test("learned from the first event; a burst seen at one instant keeps its events' own times, 4 ms apart")
    func burst() {
        var clock = EventClock()
        #expect(clock.time(ofEvent: 10_000, now: 50) == 50)  // the first event is taken as fresh
        // A frame's four events, all seen at 50.020.
        let times = (1...4).map { clock.sampleTime(ofEvent: 10_004 + 4 * UInt32($0), touch: 0, phase: $0 == 1 ? .began : .moved, now: 50.020) }
        #expect(zip(times, [50.008, 50.012, 50.016, 50.020]).allSatisfy { abs($0 - $1) < 1e-9 }, "\(times)")
    }

    @Test("no time is later than now: an event that would be moves the mapping back (a first event seen late corrects itself)")
    func neverLaterThanNow() {
        var clock = EventClock()
        _ = clock.time(ofEvent: 1_000, now: 10.100)  // seen 100 ms late: the offset is 100 ms too large
        #expect(clock.time(ofEvent: 1_050, now: 10.052) == 10.052)  // would be 10.150: now, and learned again
        #expect(abs(clock.time(ofEvent: 1_060, now: 10.070) - 10.062) < 1e-9)
        #expect(clock.relearned == 0)
    }

    @Test("an event mapped more than a second before now (the server's clock drifted or jumped back) learns the mapping again")
    func lagRelearns() {
        var clock = EventClock()
        _ = clock.time(ofEvent: 5_000, now: 100)
        #expect(abs(clock.time(ofEvent: 5_500, now: 100.6) - 100.5) < 1e-9)  // 100 ms behind: kept
        #expect(clock.time(ofEvent: 5_600, now: 102) == 102)  // 1.4 s behind
        #expect(clock.relearned == 1)
        #expect(abs(clock.time(ofEvent: 5_610, now: 102.02) - 102.01) < 1e-9)
        #expect(clock.time(ofEvent: 1_000, now: 102.03) == 102.03)  // a jump back by 4.6 s
        #expect(clock.relearned == 2)
    }

    @Test("the 32-bit event time wraps around without a jump")
    func wrapAround() {
        var clock = EventClock()
        _ = clock.time(ofEvent: UInt32.max - 9, now: 7)  // 10 ms before the wrap
        #expect(abs(clock.time(ofEvent: 5, now: 7.020) - 7.015) < 1e-9)
        #expect(abs(clock.time(ofEvent: 20, now: 7.040) - 7.030) < 1e-9)
        #expect(clock.relearned == 0)
    }

    @Test("within a touch time never goes backwards; a new touch starts afresh; an event without a time (GDK_CURRENT_TIME) is taken now")
    func monotonicWithinATouch() {
        var clock = EventClock()
        _ = clock.time(ofEvent: 2_000, now: 20)
        func near(_ a: Double, _ b: Double) -> Bool { abs(a - b) < 1e-9 }
        #expect(near(clock.sampleTime(ofEvent: 2_010, touch: 7, phase: .began, now: 20.1), 20.010))
        // Out of order, or stamped in the same millisecond: after the previous sample by the
        // time between seeing them, half a millisecond to one.
        #expect(near(clock.sampleTime(ofEvent: 2_006, touch: 7, phase: .moved, now: 20.1), 20.0105))
        #expect(near(clock.sampleTime(ofEvent: 2_010, touch: 7, phase: .moved, now: 20.1008), 20.0113))
        #expect(near(clock.sampleTime(ofEvent: 2_010, touch: 7, phase: .moved, now: 20.104), 20.0123))
        #expect(near(clock.sampleTime(ofEvent: 2_004, touch: 8, phase: .began, now: 20.1), 20.004))  // another touch
        #expect(near(clock.sampleTime(ofEvent: 2_020, touch: 7, phase: .ended, now: 20.1), 20.020))
        #expect(near(clock.sampleTime(ofEvent: 2_012, touch: 7, phase: .began, now: 20.1), 20.012))  // touch 7 again: afresh
        #expect(clock.sampleTime(ofEvent: 0, touch: 8, phase: .moved, now: 20.2) == 20.2)
        #expect(clock.sampleTime(ofEvent: 2_300, touch: 9, phase: .began, now: 20.25) == 20.25)  // never after now
    }
}
