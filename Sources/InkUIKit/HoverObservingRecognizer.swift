#if canImport(UIKit) && canImport(WebKit)
import UIKit
import UIKit.UIGestureRecognizerSubclass

/// A `UIHoverGestureRecognizer` (iOS 13) that reports each hover update to ``onHover`` and
/// claims nothing: Apple Pencil hovering over the screen (iPads that support it, iOS 16.1),
/// or a pointer, before anything lands.
///
/// A hover recognizer gets no touches, and this one cancels, delays and prevents none
/// (`cancelsTouchesInView`, `delaysTouchesBegan` and `delaysTouchesEnded` are `false`;
/// ``canPrevent(_:)`` and ``canBePrevented(by:)`` return `false`; it neither requires nor is
/// required to fail), so the web view's own hover and touch handling runs as without it.
///
/// It observes its own `state`: UIKit moves a continuous recognizer to `.began` when the
/// hover starts and sets `.changed` with each movement, and each of these calls
/// ``onHover``. (Target–action would say the same, but needs an `@objc` method, which the
/// type-check, built without Objective-C interop, cannot compile.)
///
/// Type-checked against stand-ins for UIKit; never run on a device.
@MainActor
public final class HoverObservingRecognizer: UIHoverGestureRecognizer {
    /// Called on the main actor for each hover update (the hover began or moved).
    public var onHover: (() -> Void)?
    /// Called on the main actor with `true` when a hover is known to be Apple Pencil's (an
    /// update reports a `zOffset` above 0: the pencil's normalized height, iOS 16.1; a pointer,
    /// and any device that cannot tell its height, reports 0), and with `false` when that
    /// hover ends or is cancelled.
    /// https://developer.apple.com/documentation/uikit/uihovergesturerecognizer/zoffset
    public var onPencilHover: ((Bool) -> Void)?
    /// Whether the hover in progress was reported as the pencil's.
    public private(set) var pencilHovers = false

    /// Creates a hover recognizer that observes.
    public init() {
        super.init(target: nil, action: nil)
        cancelsTouchesInView = false
        delaysTouchesBegan = false
        delaysTouchesEnded = false
    }

    /// Not supported: create the recognizer in code.
    public required init?(coder: NSCoder) { nil }

    /// The hover's state, as UIKit sets it: `.began` and `.changed` are hover updates.
    public override var state: UIGestureRecognizer.State {
        didSet {
            switch state {
            case .began, .changed:
                onHover?()
                if !pencilHovers, #available(iOS 16.1, *), zOffset > 0 {
                    pencilHovers = true
                    onPencilHover?(true)
                }
            case .ended, .cancelled, .failed:
                if pencilHovers {
                    pencilHovers = false
                    onPencilHover?(false)
                }
            default:
                break
            }
        }
    }

    /// Prevents nothing.
    public override func canPrevent(_ preventedGestureRecognizer: UIGestureRecognizer) -> Bool { false }
    /// Is prevented by nothing.
    public override func canBePrevented(by preventingGestureRecognizer: UIGestureRecognizer) -> Bool { false }
    /// Requires no other recognizer to fail.
    public override func shouldRequireFailure(of otherGestureRecognizer: UIGestureRecognizer) -> Bool { false }
    /// No other recognizer waits for it.
    public override func shouldBeRequiredToFail(by otherGestureRecognizer: UIGestureRecognizer) -> Bool { false }
}
#endif
