import Testing
@_spi(Tooling) @testable import InkCore

@Suite("Force from a platform: devices without force sensing lose nothing")
struct ForceMappingTests {
    /// `UITouch.force` and `maximumPossibleForce` as a device without 3D Touch or Pencil reports them.
    static let noForceSensing = (force: 0.0, maximumPossibleForce: 0.0)

    @Test("the naive force / maximumPossibleForce is NaN there, and the engine refuses the touch with a message that says what to do")
    func naiveMappingIsRefused() {
        let naive = Self.noForceSensing.force / Self.noForceSensing.maximumPossibleForce
        #expect(naive.isNaN)
        var router = TouchRouter()
        var actions: [RouterAction] = []
        let down = TouchSample(x: 10, y: 10, timestamp: 1, force: naive)
        var refusal: RouterError?
        do { try router.handle(TouchEvent(touch: PlatformTouchID(1), phase: .began, samples: [down]), into: &actions) } catch { refusal = error }
        // (NaN is not equal to itself, so the error is matched by its case, not with ==.)
        guard case .invalidSample(TouchID(1), _) = refusal else { Issue.record("not refused: \(String(describing: refusal))"); return }
        #expect(actions.isEmpty && router.ledger.received == 0)   // the touch is lost to the engine
        let message = refusal?.description ?? ""
        #expect(message.contains("maximumPossibleForce is 0") && message.contains("TouchSample.normalizedForce(_:maximumPossibleForce:)"))
    }

    @Test("normalizedForce maps it to 'no force', and the touch becomes ink")
    func mappedTouchIsKept() throws {
        let force = TouchSample.normalizedForce(Self.noForceSensing.force, maximumPossibleForce: Self.noForceSensing.maximumPossibleForce)
        #expect(force == nil)
        var router = TouchRouter()
        var actions: [RouterAction] = []
        try router.handle(TouchEvent(touch: PlatformTouchID(1), phase: .began, samples: [TouchSample(x: 10, y: 10, timestamp: 1, force: force)]),
                          into: &actions)
        router.verdictArrived(QueryID(rawValue: 1), .ink, into: &actions)
        #expect(router.ledger.inked == 1)
    }

    @Test("normalizedForce divides, clamps to 0...1 and refuses non-finite values", arguments: [
        (1.0, 6.667, 1.0 / 6.667), (6.667, 6.667, 1.0), (7.5, 6.667, 1.0), (-0.5, 6.667, 0.0), (0.0, 6.667, 0.0),
    ])
    func mapping(force: Double, maximum: Double, expected: Double) {
        #expect(TouchSample.normalizedForce(force, maximumPossibleForce: maximum) == expected)
    }

    @Test("nil for a maximum that is zero, negative or not finite, and for a force that is not finite",
          arguments: [(0.5, 0.0), (0.5, -1.0), (0.5, Double.nan), (0.5, Double.infinity), (Double.nan, 6.667), (Double.infinity, 6.667)])
    func noForce(force: Double, maximum: Double) {
        #expect(TouchSample.normalizedForce(force, maximumPossibleForce: maximum) == nil)
    }
}
