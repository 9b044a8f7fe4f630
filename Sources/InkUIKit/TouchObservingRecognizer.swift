#if canImport(UIKit) && canImport(WebKit)
import UIKit
import UIKit.UIGestureRecognizerSubclass
import InkCore
import HitTestBridge

/// A gesture recognizer that never recognizes: attached to the common superview of the
/// overlay and the web view, it sees every touch in either and hands each to the engine, so
/// the engine's ledger is complete.
///
/// It claims nothing: it stays `.possible` until its last touch ends, then fails; it cancels,
/// delays and prevents nothing (`cancelsTouchesInView`, `delaysTouchesBegan` and
/// `delaysTouchesEnded` are `false`, ``canPrevent(_:)`` and ``canBePrevented(by:)`` return
/// `false`, and it neither requires nor is required to fail). It takes touches of every type
/// together (`requiresExclusiveTouchType` is `false`), so a Pencil stroke reaches the engine
/// while a finger rests on the glass. A recognizer on an ancestor
/// gets a touch's updates before the hit-test view does, whichever view that is.
///
/// A touch hit-tested to the overlay (or to no view) goes in as `EngineInput.touch`; a touch
/// hit-tested to anything else (the web view) as `EngineInput.nativePageTouch`, which the
/// engine counts as released to the page at touch-down. A touch's platform identifier is its
/// `UITouch` object's address (`UInt(bitPattern: ObjectIdentifier(touch))`), which UIKit reuses
/// for later touches: the engine gives each touch its own id however soon that happens, and
/// finds an estimated-property update's sample by its update index among the recent touches
/// of that identity. The recognizer remembers, per update index still expected, the identity
/// of the touch whose sample carries it (bounded): the sample may have come from a coalesced
/// touch, a copy with an identity of its own, and the update may name either object. ``reset()`` with touches still live turns them
/// into `.cancelled` events: UIKit sends a reset recognizer no more updates for them.
///
/// Samples are in the overlay's coordinates (the canvas). The first sample of a touch is at
/// `location(in:)`, the point UIKit hit-tested and the overlay routed, so the engine decides
/// the touch where the platform did; every later sample is at `preciseLocation(in:)`, the
/// sub-point position Apple recommends for drawing
/// (https://developer.apple.com/documentation/uikit/uitouch/preciselocation(in:), iOS 9.1).
/// Coalesced touches are the samples, predicted touches the tentative tail; force is normalized (`nil` on devices without force);
/// altitude, azimuth and estimation update indices are read for Apple Pencil.
///
/// Type-checked against stand-ins for UIKit; never run on a device.
@MainActor
public final class TouchObservingRecognizer: UIGestureRecognizer {
    /// The overlay: touches hit-tested to it are the engine's to decide.
    public weak var overlay: UIView?
    /// Where the engine inputs go, one call per UIKit callback, in order.
    public var deliver: ((_ inputs: [EngineInput]) -> Void)?

    private struct LiveTouch {
        var platform: PlatformTouchID
        var tool: ToolKind
        var native: Bool
    }
    private var live: [ObjectIdentifier: LiveTouch] = [:]
    /// Update index to the platform identifier of the touch whose sample carries it.
    private var estimations: [UInt64: PlatformTouchID] = [:]
    private static let estimationLimit = 4_096

    /// A touch's platform identifier: its object's address (exact as a session log's JSON
    /// number, which a seeded `hashValue` would not be).
    static func platformID(of touch: UITouch) -> PlatformTouchID { PlatformTouchID(UInt64(UInt(bitPattern: ObjectIdentifier(touch)))) }

    /// Creates a recognizer that observes, for the overlay.
    public init(overlay: UIView?) {
        self.overlay = overlay
        super.init(target: nil, action: nil)
        cancelsTouchesInView = false
        delaysTouchesBegan = false
        delaysTouchesEnded = false
        // Touches of every type at once: with the default (`true`) a recognizer that is
        // following a finger ignores new touches of another type, so a Pencil stroke would
        // never reach the engine while a finger (a palm, a resting hand) is on the glass.
        // https://developer.apple.com/documentation/uikit/uigesturerecognizer/requiresexclusivetouchtype
        // (iOS 9.2): while it is `true`, new touches whose type differs from the first
        // touch's are ignored; with `false` every touch type in `allowedTouchTypes` is received.
        requiresExclusiveTouchType = false
    }

    /// Not supported: create the recognizer in code.
    public required init?(coder: NSCoder) { nil }

    /// The touches the recognizer is following.
    public var liveTouchCount: Int { live.count }

    // MARK: - Claiming nothing

    /// Prevents nothing.
    public override func canPrevent(_ preventedGestureRecognizer: UIGestureRecognizer) -> Bool { false }
    /// Is prevented by nothing.
    public override func canBePrevented(by preventingGestureRecognizer: UIGestureRecognizer) -> Bool { false }
    /// Requires no other recognizer to fail.
    public override func shouldRequireFailure(of otherGestureRecognizer: UIGestureRecognizer) -> Bool { false }
    /// No other recognizer waits for it.
    public override func shouldBeRequiredToFail(by otherGestureRecognizer: UIGestureRecognizer) -> Bool { false }

    // MARK: - Touches

    /// Each new touch goes to the engine as its touch-down.
    public override func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent) {
        var inputs: [EngineInput] = []
        for touch in touches {
            let native = touch.view != nil && touch.view !== overlay
            let entry = LiveTouch(platform: Self.platformID(of: touch), tool: touch.type == .pencil ? .pencil : .finger, native: native)
            live[ObjectIdentifier(touch)] = entry
            inputs.append(input(for: touch, entry, phase: .began, event: event))
        }
        deliver?(inputs)
    }

    /// The samples since the last callback, coalesced, with the predicted tail.
    public override func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent) {
        let inputs = touches.compactMap { touch in
            live[ObjectIdentifier(touch)].map { input(for: touch, $0, phase: .moved, event: event) }
        }
        deliver?(inputs)
    }

    /// The touch lifted.
    public override func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent) {
        finish(touches, phase: .ended, event: event)
    }

    /// The system took the touch away.
    public override func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent) {
        finish(touches, phase: .cancelled, event: event)
    }

    /// Refined force, altitude and azimuth for samples sent earlier, by their update index.
    public override func touchesEstimatedPropertiesUpdated(_ touches: Set<UITouch>) {
        var inputs: [EngineInput] = []
        for touch in touches {
            // Under the touch's identity, whatever touch has it now: the engine finds the sample
            // by its update index among the recent touches of that identity.
            guard let index = touch.estimationUpdateIndex?.uint64Value else { continue }
            let isFinal = touch.estimatedPropertiesExpectingUpdates.isEmpty
            let pencil = touch.type == .pencil
            let platform = estimations[index] ?? Self.platformID(of: touch)
            if isFinal { estimations[index] = nil }
            inputs.append(.update(EstimatedPropertyUpdate(
                touch: platform, updateIndex: index,
                force: TouchSample.normalizedForce(Double(touch.force), maximumPossibleForce: Double(touch.maximumPossibleForce)),
                altitude: pencil ? Double(touch.altitudeAngle) : nil,
                azimuth: pencil ? Double(touch.azimuthAngle(in: overlay)) : nil,
                isFinal: isFinal)))
        }
        if !inputs.isEmpty { deliver?(inputs) }
    }

    /// Called by UIKit after the recognizer failed (or was disabled): touches still live get
    /// no more updates, so the engine hears them cancelled.
    public override func reset() {
        super.reset()
        guard !live.isEmpty else { return }
        let inputs = live.values.sorted { $0.platform < $1.platform }.map { entry in
            wrap(TouchEvent(touch: entry.platform, phase: .cancelled, samples: []), native: entry.native)
        }
        live.removeAll()
        deliver?(inputs)
    }

    private func finish(_ touches: Set<UITouch>, phase: TouchPhase, event: UIEvent) {
        var inputs: [EngineInput] = []
        for touch in touches {
            guard let entry = live.removeValue(forKey: ObjectIdentifier(touch)) else { continue }
            inputs.append(input(for: touch, entry, phase: phase, event: event))
        }
        deliver?(inputs)
        // Never recognize: fail once the last touch is gone (UIKit then calls reset()).
        if live.isEmpty && state == .possible { state = .failed }
    }

    // MARK: - Samples

    private func input(for touch: UITouch, _ entry: LiveTouch, phase: TouchPhase, event: UIEvent) -> EngineInput {
        let coalesced = event.coalescedTouches(for: touch) ?? [touch]
        let samples = coalesced.indices.map { index in
            sample(of: coalesced[index], entry, hitTestPoint: phase == .began && index == 0)
        }
        let predicted = phase == .moved || phase == .began
            ? (event.predictedTouches(for: touch) ?? []).map { sample(of: $0, entry, estimated: false) } : []
        return wrap(TouchEvent(touch: entry.platform, phase: phase, samples: samples, predicted: predicted),
                    native: entry.native)
    }

    private func wrap(_ event: TouchEvent, native: Bool) -> EngineInput {
        native ? .nativePageTouch(event) : .touch(event)
    }

    private func sample(of touch: UITouch, _ entry: LiveTouch, estimated: Bool = true, hitTestPoint: Bool = false) -> TouchSample {
        let point = hitTestPoint ? touch.location(in: overlay) : touch.preciseLocation(in: overlay)
        let pencil = entry.tool == .pencil
        var updateIndex: UInt64?
        if estimated, !touch.estimatedPropertiesExpectingUpdates.isEmpty, let index = touch.estimationUpdateIndex?.uint64Value {
            updateIndex = index
            if estimations.count >= Self.estimationLimit { estimations.removeAll() }
            estimations[index] = entry.platform
        }
        return TouchSample(
            x: Double(point.x), y: Double(point.y), timestamp: touch.timestamp,
            force: TouchSample.normalizedForce(Double(touch.force), maximumPossibleForce: Double(touch.maximumPossibleForce)),
            altitude: pencil ? Double(touch.altitudeAngle) : nil,
            azimuth: pencil ? Double(touch.azimuthAngle(in: overlay)) : nil,
            tool: entry.tool, estimationUpdateIndex: updateIndex)
    }
}
#endif
