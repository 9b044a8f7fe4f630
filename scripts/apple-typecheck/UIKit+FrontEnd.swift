// More of the UIKit stand-in (see UIKit.swift; the same rules): the layout, accessibility and
// Apple Pencil API the front end follows. Compiled into the same `UIKit` module.

// MARK: Auto Layout
// https://developer.apple.com/documentation/uikit/nslayoutconstraint
// https://developer.apple.com/documentation/uikit/nslayoutconstraint/activate(_:) (class func, iOS 8)
// https://developer.apple.com/documentation/uikit/nslayoutconstraint/deactivate(_:) (class func, iOS 8)
// https://developer.apple.com/documentation/uikit/nslayoutanchor (iOS 9; generic over the anchor type)
// https://developer.apple.com/documentation/uikit/nslayoutanchor/constraint(equalto:)
// https://developer.apple.com/documentation/uikit/uiview/leadinganchor (and trailing, top, bottom: iOS 9)
// https://developer.apple.com/documentation/uikit/uiview/translatesautoresizingmaskintoconstraints
@MainActor open class NSLayoutConstraint: NSObject {
    open class func activate(_ constraints: [NSLayoutConstraint]) { standIn() }
    open class func deactivate(_ constraints: [NSLayoutConstraint]) { standIn() }
    open var isActive: Bool { get { standIn() } set { standIn() } }
}
@MainActor open class NSLayoutAnchor<AnchorType: AnyObject>: NSObject {
    open func constraint(equalTo anchor: NSLayoutAnchor<AnchorType>) -> NSLayoutConstraint { standIn() }
}
@MainActor open class NSLayoutXAxisAnchor: NSLayoutAnchor<NSLayoutXAxisAnchor> {}
@MainActor open class NSLayoutYAxisAnchor: NSLayoutAnchor<NSLayoutYAxisAnchor> {}
extension UIView {
    public var translatesAutoresizingMaskIntoConstraints: Bool { get { standIn() } set { standIn() } }
    @available(iOS 9.0, *) public var leadingAnchor: NSLayoutXAxisAnchor { standIn() }
    @available(iOS 9.0, *) public var trailingAnchor: NSLayoutXAxisAnchor { standIn() }
    @available(iOS 9.0, *) public var topAnchor: NSLayoutYAxisAnchor { standIn() }
    @available(iOS 9.0, *) public var bottomAnchor: NSLayoutYAxisAnchor { standIn() }
}

// MARK: Accessibility
// https://developer.apple.com/documentation/uikit/uiaccessibility/isvoiceoverrunning (iOS 4; a type property)
// https://developer.apple.com/documentation/objectivec/nsobject-swift.class/accessibilityelementshidden (iOS 5, NSObject's)
// https://developer.apple.com/documentation/objectivec/nsobject-swift.class/isaccessibilityelement (NSObject's)
public enum UIAccessibility {
    @MainActor public static var isVoiceOverRunning: Bool { standIn() }
}
extension NSObject {
    @MainActor public var accessibilityElementsHidden: Bool { get { standIn() } set { standIn() } }
    @MainActor public var isAccessibilityElement: Bool { get { standIn() } set { standIn() } }
}

// MARK: Apple Pencil interactions
// https://developer.apple.com/documentation/uikit/uipencilinteraction (iOS 12.1, `@MainActor class`)
// https://developer.apple.com/documentation/uikit/uipencilinteraction/init() and /delegate (weak)
// https://developer.apple.com/documentation/uikit/uipencilinteraction/preferredtapaction (class var, iOS 12.1)
// https://developer.apple.com/documentation/uikit/uipencilinteraction/preferredsqueezeaction (class var, iOS 17.5)
// https://developer.apple.com/documentation/uikit/uipencilinteraction/preferspencilonlydrawing (class var, iOS 14)
// https://developer.apple.com/documentation/uikit/uipencilinteraction/tap (iOS 17.5), /squeeze (iOS 17.5; its `phase`)
// https://developer.apple.com/documentation/uikit/uipencilinteraction/phase (iOS 17.5: began, changed, ended, cancelled)
// https://developer.apple.com/documentation/uikit/uipencilpreferredaction (iOS 12.1; ignore, switchEraser,
//   switchPrevious, showColorPalette; showInkAttributes iOS 16; showContextualPalette, runSystemShortcut iOS 17.5)
// https://developer.apple.com/documentation/uikit/uipencilinteractiondelegate (`@MainActor protocol … : NSObjectProtocol`;
//   pencilInteractionDidTap(_:) iOS 12.1, deprecated 17.5; pencilInteraction(_:didReceiveTap:) and
//   pencilInteraction(_:didReceiveSqueeze:) iOS 17.5; all optional)
@available(iOS 12.1, *)
@MainActor open class UIPencilInteraction: NSObject, UIInteraction {
    public override init() { standIn() }
    open var delegate: (any UIPencilInteractionDelegate)? { get { standIn() } set { standIn() } }   // weak in Apple's SDK
    open var isEnabled: Bool { get { standIn() } set { standIn() } }
    open class var preferredTapAction: UIPencilPreferredAction { standIn() }
    @available(iOS 17.5, *) open class var preferredSqueezeAction: UIPencilPreferredAction { standIn() }
    @available(iOS 14.0, *) open class var prefersPencilOnlyDrawing: Bool { standIn() }
    open var view: UIView? { standIn() }
    open func willMove(to view: UIView?) { standIn() }
    open func didMove(to view: UIView?) { standIn() }

    @available(iOS 17.5, *)
    public enum Phase: Int, Sendable {
        case began = 0, changed, ended, cancelled
    }
    @available(iOS 17.5, *)
    @MainActor open class Tap: NSObject {}
    @available(iOS 17.5, *)
    @MainActor open class Squeeze: NSObject {
        open var phase: Phase { standIn() }
    }
}
@available(iOS 12.1, *)
public enum UIPencilPreferredAction: Int, Sendable {
    case ignore = 0, switchEraser, switchPrevious, showColorPalette
    @available(iOS 16.0, *) case showInkAttributes
    @available(iOS 17.5, *) case showContextualPalette
    @available(iOS 17.5, *) case runSystemShortcut
}
@available(iOS 12.1, *)
@MainActor public protocol UIPencilInteractionDelegate: NSObjectProtocol {
    @available(iOS, introduced: 12.1, deprecated: 17.5)
    func pencilInteractionDidTap(_ interaction: UIPencilInteraction)
    @available(iOS 17.5, *)
    func pencilInteraction(_ interaction: UIPencilInteraction, didReceiveTap tap: UIPencilInteraction.Tap)
    @available(iOS 17.5, *)
    func pencilInteraction(_ interaction: UIPencilInteraction, didReceiveSqueeze squeeze: UIPencilInteraction.Squeeze)
}
@available(iOS 12.1, *)
extension UIPencilInteractionDelegate {
    /// `optional` in Apple's protocol.
    @available(iOS, introduced: 12.1, deprecated: 17.5)
    public func pencilInteractionDidTap(_ interaction: UIPencilInteraction) {}
    /// `optional` in Apple's protocol.
    @available(iOS 17.5, *)
    public func pencilInteraction(_ interaction: UIPencilInteraction, didReceiveTap tap: UIPencilInteraction.Tap) {}
    /// `optional` in Apple's protocol.
    @available(iOS 17.5, *)
    public func pencilInteraction(_ interaction: UIPencilInteraction, didReceiveSqueeze squeeze: UIPencilInteraction.Squeeze) {}
}
