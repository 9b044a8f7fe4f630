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
                        pressure: pressure, xtilt: xtilt, ytilt: ytilt)
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
