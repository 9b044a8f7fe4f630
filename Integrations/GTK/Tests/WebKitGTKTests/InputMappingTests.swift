import CWebKitGTK
@testable import GTKScratchpad
import InkCore
import Testing

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
            let event = try #require(ScratchpadWindow.touchEvent(from: input(gdk, touch: true, sequence: 0x55AA), now: 3.5))
            #expect(event.touch == TouchID(0x55AA) && event.phase == phase)
            #expect(event.samples == [TouchSample(x: 10, y: 20, timestamp: 3.5, tool: .finger)])
        }
    }

    @Test("the pointer is a pencil-like tool, id 0, with the pressure and tilt its device gives")
    func pointerIsAPencil() throws {
        let event = try #require(ScratchpadWindow.touchEvent(from: input(SCRATCHPAD_INPUT_DOWN, touch: false, pressure: 0.4, xtilt: 0, ytilt: 0), now: 1))
        let sample = try #require(event.samples.first)
        #expect(event.touch == TouchID(0) && sample.tool == .pencil && sample.force == 0.4)
        #expect(abs(sample.altitude! - .pi / 2) < 1e-12)  // upright
        let tilted = try #require(ScratchpadWindow.touchEvent(from: input(SCRATCHPAD_INPUT_MOVE, touch: false, xtilt: 0.5, ytilt: 0), now: 1))
        #expect(abs(tilted.samples[0].altitude! - .pi / 4) < 1e-9 && abs(tilted.samples[0].azimuth!) < 1e-12)  // 45° toward +x
        let mouse = try #require(ScratchpadWindow.touchEvent(from: input(SCRATCHPAD_INPUT_UP, touch: false), now: 1))
        #expect(mouse.samples[0].force == nil && mouse.samples[0].altitude == nil)
    }

    @Test("pressure is clamped to 0...1; events that do not draw, and positions that are not finite, give nothing")
    func boundsAndNonEvents() {
        #expect(ScratchpadWindow.touchEvent(from: input(SCRATCHPAD_INPUT_DOWN, touch: false, pressure: 7), now: 0)?.samples[0].force == 1)
        #expect(ScratchpadWindow.touchEvent(from: input(SCRATCHPAD_INPUT_DOWN, touch: false, pressure: -1), now: 0)?.samples[0].force == 0)
        #expect(ScratchpadWindow.touchEvent(from: input(SCRATCHPAD_INPUT_OTHER, touch: false), now: 0) == nil)
        #expect(ScratchpadWindow.touchEvent(from: input(SCRATCHPAD_INPUT_DOWN, touch: true, x: .nan), now: 0) == nil)
        #expect(ScratchpadWindow.touchEvent(from: input(SCRATCHPAD_INPUT_MOVE, touch: true, y: .infinity), now: 0) == nil)
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
