@testable import HitTestBridge
import InkCore
import Testing

/// The one fold from the engine's actions to the page's pointers (`PagePointers`), which
/// the hand-over stream (`.pageTouch`), the page script's replays, the GTK twin and the
/// Chromium replay all read.
@Suite("The page's pointers, folded once")
struct PagePointersTests {
    static func sample(_ x: Double, _ t: Double, force: Double? = nil, tool: ToolKind = .finger) -> TouchSample {
        TouchSample(x: x, y: 10, timestamp: t, force: force, tool: tool)
    }

    @Test("a release is a down, then moves; the lift and a page cancel land where the last sample was; each pointer once")
    func downMoveUpCancel() {
        var pointers = PagePointers()
        let scroll = PageTransform(scale: 2, offsetX: 100, offsetY: 0)
        let a = TouchID(7), b = TouchID(8)
        let down = pointers.delivery(for: .release(a, Self.sample(1, 1, force: 0.5)), through: scroll)
        #expect(down?.phase == .began && down?.pointer == 7 && down?.pagePoint == PagePoint(x: 102, y: 20) && down?.pressure == 0.5)
        #expect(pointers.delivery(for: .release(a, Self.sample(2, 1.1)), through: scroll)?.phase == .moved)
        let up = pointers.delivery(for: .endRelease(a), through: .identity)
        #expect(up?.phase == .ended && up?.point == CanvasPoint(x: 2, y: 10) && up?.time == 1.1 && up?.pressure == nil)
        #expect(pointers.delivery(for: .endRelease(a), through: .identity) == nil, "a pointer lifts once")
        #expect(pointers.delivery(for: .release(b, Self.sample(5, 2, tool: .pencil)), through: .identity)?.tool == .pencil)
        #expect(pointers.delivery(for: .cancel(b, previously: .ink), through: .identity) == nil, "a cancel of ink is not the page's")
        #expect(pointers.delivery(for: .cancel(b, previously: .page), through: .identity)?.phase == .cancelled)
        #expect(pointers.delivery(for: .nativeRelease(a, Self.sample(1, 3)), through: .identity) == nil, "the page had it natively")
        #expect(pointers.leftOpen == 0)
    }

    @Test("a touch the engine finishes while the page still has it down is cancelled there and counted (the GTK dispatcher's rule, now everyone's)")
    func finishedWhileDown() {
        var pointers = PagePointers()
        let a = TouchID(3)
        _ = pointers.delivery(for: .release(a, Self.sample(4, 1)), through: .identity)
        let cancel = pointers.delivery(for: .touchFinished(a, SampleLedger()), through: .identity)
        #expect(cancel?.phase == .cancelled && cancel?.point == CanvasPoint(x: 4, y: 10))
        #expect(pointers.leftOpen == 1 && !pointers.isDown(a))
        #expect(pointers.delivery(for: .touchFinished(a, SampleLedger()), through: .identity) == nil)
    }
}
