// A stand-in for Apple's UIKit, for scripts/apple-typecheck.sh only: never linked, never run.
// It declares only the UIKit API that InkUIKit uses, with the signatures, optionality,
// `open`-ness and main-actor isolation Apple's Swift interface shows (UIKit's classes are
// `NS_SWIFT_UI_ACTOR`: `@MainActor` in Swift), and the availability Apple documents where it
// is newer than iOS 13. Objective-C interop is off in the type-check: these are plain Swift
// classes, and an Objective-C `optional` protocol requirement is a requirement with a default
// implementation in a protocol extension. Adding a declaration here is a claim about Apple's
// SDK: check it against Apple's documentation first, and cite the page.
@_exported import Foundation
@_exported import CoreGraphics
// The Clang module of the same name (UIKitClang/module.modulemap, empty headers): it carries
// the `UIGestureRecognizerSubclass` submodule, as Apple's UIKit does.
@_exported import UIKit

func standIn() -> Never { fatalError("apple-typecheck stand-in: never run") }

// MARK: UIResponder, UIView
// https://developer.apple.com/documentation/uikit/uiresponder
// https://developer.apple.com/documentation/uikit/uiresponder/touchesbegan(_:with:) (and moved, ended, cancelled)
@MainActor open class UIResponder: NSObject {
    public override init() {}
    open func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) { standIn() }
    open func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent?) { standIn() }
    open func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) { standIn() }
    open func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent?) { standIn() }
}

// https://developer.apple.com/documentation/uikit/uiview
// https://developer.apple.com/documentation/uikit/uiview/hittest(_:with:)
// https://developer.apple.com/documentation/uikit/uiview/point(inside:with:)
// https://developer.apple.com/documentation/uikit/uiview/draw(_:)
// https://developer.apple.com/documentation/uikit/uiview/addinteraction(_:) (iOS 11)
// https://developer.apple.com/documentation/uikit/uiview/insertsubview(_:abovesubview:)
// https://developer.apple.com/documentation/uikit/uiview/addgesturerecognizer(_:)
@MainActor open class UIView: UIResponder {
    public init(frame: CGRect) { standIn() }
    public required init?(coder: NSCoder) { standIn() }
    open func hitTest(_ point: CGPoint, with event: UIEvent?) -> UIView? { standIn() }
    open func point(inside point: CGPoint, with event: UIEvent?) -> Bool { standIn() }
    open func draw(_ rect: CGRect) { standIn() }
    open func setNeedsDisplay() { standIn() }
    open func setNeedsDisplay(_ rect: CGRect) { standIn() }
    open var frame: CGRect { get { standIn() } set { standIn() } }
    open var bounds: CGRect { get { standIn() } set { standIn() } }
    open var superview: UIView? { standIn() }
    open var isOpaque: Bool { get { standIn() } set { standIn() } }
    open var isHidden: Bool { get { standIn() } set { standIn() } }
    open var alpha: CGFloat { get { standIn() } set { standIn() } }
    open var isUserInteractionEnabled: Bool { get { standIn() } set { standIn() } }
    open var isMultipleTouchEnabled: Bool { get { standIn() } set { standIn() } }
    open var backgroundColor: UIColor? { get { standIn() } set { standIn() } }
    open var autoresizingMask: AutoresizingMask { get { standIn() } set { standIn() } }
    open func insertSubview(_ view: UIView, aboveSubview siblingSubview: UIView) { standIn() }
    open func removeFromSuperview() { standIn() }
    open func addGestureRecognizer(_ gestureRecognizer: UIGestureRecognizer) { standIn() }
    open func removeGestureRecognizer(_ gestureRecognizer: UIGestureRecognizer) { standIn() }
    // https://developer.apple.com/documentation/uikit/uiview/addsubview(_:)
    open func addSubview(_ view: UIView) { standIn() }
    // https://developer.apple.com/documentation/uikit/uiview/layoutsubviews()
    open func layoutSubviews() { standIn() }
    // https://developer.apple.com/documentation/uikit/uiview/transform
    open var transform: CGAffineTransform { get { standIn() } set { standIn() } }
    // https://developer.apple.com/documentation/uikit/uiview/center
    open var center: CGPoint { get { standIn() } set { standIn() } }
    // https://developer.apple.com/documentation/uikit/uiview/clipstobounds
    open var clipsToBounds: Bool { get { standIn() } set { standIn() } }
    // https://developer.apple.com/documentation/uikit/uiview/contentscalefactor
    open var contentScaleFactor: CGFloat { get { standIn() } set { standIn() } }
    // https://developer.apple.com/documentation/uikit/uitraitenvironment/traitcollection (UIView adopts UITraitEnvironment)
    open var traitCollection: UITraitCollection { standIn() }
    @available(iOS 11.0, *) open func addInteraction(_ interaction: any UIInteraction) { standIn() }
    @available(iOS 11.0, *) open func removeInteraction(_ interaction: any UIInteraction) { standIn() }
    // https://developer.apple.com/documentation/uikit/uiview/autoresizingmask-swift.struct
    public struct AutoresizingMask: OptionSet, Sendable {
        public var rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static var flexibleWidth: AutoresizingMask { standIn() }
        public static var flexibleHeight: AutoresizingMask { standIn() }
    }
}

// MARK: UITraitCollection, UIUserInterfaceStyle
// https://developer.apple.com/documentation/uikit/uitraitcollection (iOS 8)
// https://developer.apple.com/documentation/uikit/uitraitcollection/userinterfacestyle (iOS 12)
// https://developer.apple.com/documentation/uikit/uitraitcollection/displayscale (iOS 8)
open class UITraitCollection: NSObject {
    @available(iOS 12.0, *) open var userInterfaceStyle: UIUserInterfaceStyle { standIn() }
    open var displayScale: CGFloat { standIn() }
}
// https://developer.apple.com/documentation/uikit/uiuserinterfacestyle (iOS 12)
@available(iOS 12.0, *)
public enum UIUserInterfaceStyle: Int, Sendable {
    case unspecified = 0, light = 1, dark = 2
}

// MARK: UIColor, the current graphics context (not main-actor isolated)
// https://developer.apple.com/documentation/uikit/uicolor (Sendable)
// https://developer.apple.com/documentation/uikit/uicolor/setfill() (the current context's fill colour)
open class UIColor: NSObject, @unchecked Sendable {
    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) { standIn() }
    open class var clear: UIColor { standIn() }
    open func setFill() { standIn() }
}
// https://developer.apple.com/documentation/uikit/uigraphicsgetcurrentcontext() (iOS 2; in
//   `draw(_:)`, UIKit's context for the view)
public func UIGraphicsGetCurrentContext() -> CGContext? { standIn() }

// MARK: UIEvent, UITouch
// https://developer.apple.com/documentation/uikit/uievent
// https://developer.apple.com/documentation/uikit/uievent/coalescedtouches(for:) (iOS 9)
// https://developer.apple.com/documentation/uikit/uievent/predictedtouches(for:) (iOS 9)
// https://developer.apple.com/documentation/uikit/uievent/eventtype (scroll, hover, transform: iOS 13.4)
@MainActor open class UIEvent: NSObject {
    public enum EventType: Int, Sendable {
        case touches, motion, remoteControl, presses
        @available(iOS 13.4, *) case scroll = 10
        @available(iOS 13.4, *) case hover = 11
        @available(iOS 13.4, *) case transform = 14
    }
    open var type: EventType { standIn() }
    open var timestamp: TimeInterval { standIn() }
    @available(iOS 9.0, *) open func coalescedTouches(for touch: UITouch) -> [UITouch]? { standIn() }
    @available(iOS 9.0, *) open func predictedTouches(for touch: UITouch) -> [UITouch]? { standIn() }
}

// https://developer.apple.com/documentation/uikit/uitouch
// https://developer.apple.com/documentation/uikit/uitouch/location(in:)
// https://developer.apple.com/documentation/uikit/uitouch/preciselocation(in:) (iOS 9.1; not used for routing)
// https://developer.apple.com/documentation/uikit/uitouch/force (iOS 9), maximumpossibleforce (iOS 9)
// https://developer.apple.com/documentation/uikit/uitouch/altitudeangle (iOS 9.1)
// https://developer.apple.com/documentation/uikit/uitouch/azimuthangle(in:) (iOS 9.1)
// https://developer.apple.com/documentation/uikit/uitouch/estimationupdateindex (iOS 9.1)
// https://developer.apple.com/documentation/uikit/uitouch/estimatedpropertiesexpectingupdates (iOS 9.1)
// https://developer.apple.com/documentation/uikit/uitouch/touchtype (iOS 9; .pencil iOS 9.1)
@MainActor open class UITouch: NSObject {
    open var timestamp: TimeInterval { standIn() }
    open var phase: Phase { standIn() }
    open var view: UIView? { standIn() }
    open func location(in view: UIView?) -> CGPoint { standIn() }
    @available(iOS 9.1, *) open func preciseLocation(in view: UIView?) -> CGPoint { standIn() }
    @available(iOS 9.0, *) open var type: TouchType { standIn() }
    @available(iOS 9.0, *) open var force: CGFloat { standIn() }
    @available(iOS 9.0, *) open var maximumPossibleForce: CGFloat { standIn() }
    @available(iOS 9.1, *) open var altitudeAngle: CGFloat { standIn() }
    @available(iOS 9.1, *) open func azimuthAngle(in view: UIView?) -> CGFloat { standIn() }
    @available(iOS 9.1, *) open var estimationUpdateIndex: NSNumber? { standIn() }
    @available(iOS 9.1, *) open var estimatedPropertiesExpectingUpdates: Properties { standIn() }
    public enum Phase: Int, Sendable {
        case began, moved, stationary, ended, cancelled
        @available(iOS 13.4, *) case regionEntered, regionMoved, regionExited
    }
    @available(iOS 9.0, *) public enum TouchType: Int, Sendable {
        case direct, indirect
        @available(iOS 9.1, *) case pencil
        @available(iOS 13.4, *) case indirectPointer
    }
    @available(iOS 9.1, *) public struct Properties: OptionSet, Sendable {
        public var rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        public static var force: Properties { standIn() }
        public static var azimuth: Properties { standIn() }
        public static var altitude: Properties { standIn() }
        public static var location: Properties { standIn() }
    }
}

// MARK: UIGestureRecognizer (with UIGestureRecognizerSubclass folded in)
// https://developer.apple.com/documentation/uikit/uigesturerecognizer
// https://developer.apple.com/documentation/uikit/uigesturerecognizer/init(target:action:)
// https://developer.apple.com/documentation/uikit/uigesturerecognizer/state-swift.property (settable by subclasses)
// https://developer.apple.com/documentation/uikit/uigesturerecognizer/cancelstouchesinview
// https://developer.apple.com/documentation/uikit/uigesturerecognizer/delaystouchesbegan
// https://developer.apple.com/documentation/uikit/uigesturerecognizer/delaystouchesended
// https://developer.apple.com/documentation/uikit/uigesturerecognizer/reset()
// https://developer.apple.com/documentation/uikit/uigesturerecognizer/canprevent(_:)
// https://developer.apple.com/documentation/uikit/uigesturerecognizer/canbeprevented(by:)
// https://developer.apple.com/documentation/uikit/uigesturerecognizer/shouldrequirefailure(of:) (iOS 7)
// https://developer.apple.com/documentation/uikit/uigesturerecognizer/shouldberequiredtofail(by:) (iOS 7)
// https://developer.apple.com/documentation/uikit/uigesturerecognizer/touchesbegan(_:with:) (event non-optional)
// https://developer.apple.com/documentation/uikit/uigesturerecognizer/touchesestimatedpropertiesupdated(_:) (iOS 9.1)
// https://developer.apple.com/documentation/uikit/uigesturerecognizer/init(coder:)
//   (`convenience init?(coder: NSCoder)`: not `required`; UIGestureRecognizer is not NSCoding)
// https://developer.apple.com/documentation/uikit/uigesturerecognizer/requiresexclusivetouchtype (iOS 9.2; `var … : Bool { get set }`)
// https://developer.apple.com/documentation/uikit/uigesturerecognizer/allowedtouchtypes (iOS 9.0; `var … : [NSNumber] { get set }`,
//   raw values of `UITouch.TouchType`; the default contains every type)
// The subclass-only members come from the `UIKit.UIGestureRecognizerSubclass` header on Apple's
// SDK. A Swift module cannot declare them in a submodule, so they are declared here; the
// submodule itself exists (an empty Clang submodule under this overlay, UIKitClang/), so
// `import UIKit.UIGestureRecognizerSubclass` compiles as it does with Apple's SDK.
@MainActor open class UIGestureRecognizer: NSObject {
    public init(target: Any?, action: Selector?) { standIn() }
    public convenience init?(coder: NSCoder) { self.init(target: nil, action: nil); standIn() }
    open var state: State { get { standIn() } set { standIn() } }
    open var view: UIView? { standIn() }
    open var isEnabled: Bool { get { standIn() } set { standIn() } }
    open var cancelsTouchesInView: Bool { get { standIn() } set { standIn() } }
    open var delaysTouchesBegan: Bool { get { standIn() } set { standIn() } }
    open var delaysTouchesEnded: Bool { get { standIn() } set { standIn() } }
    @available(iOS 9.2, *) open var requiresExclusiveTouchType: Bool { get { standIn() } set { standIn() } }
    @available(iOS 9.0, *) open var allowedTouchTypes: [NSNumber] { get { standIn() } set { standIn() } }
    open func reset() { standIn() }
    open func canPrevent(_ preventedGestureRecognizer: UIGestureRecognizer) -> Bool { standIn() }
    open func canBePrevented(by preventingGestureRecognizer: UIGestureRecognizer) -> Bool { standIn() }
    @available(iOS 7.0, *) open func shouldRequireFailure(of otherGestureRecognizer: UIGestureRecognizer) -> Bool { standIn() }
    @available(iOS 7.0, *) open func shouldBeRequiredToFail(by otherGestureRecognizer: UIGestureRecognizer) -> Bool { standIn() }
    open func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent) { standIn() }
    open func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent) { standIn() }
    open func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent) { standIn() }
    open func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent) { standIn() }
    @available(iOS 9.1, *) open func touchesEstimatedPropertiesUpdated(_ touches: Set<UITouch>) { standIn() }
    public enum State: Int, Sendable {
        case possible, began, changed, ended, cancelled, failed
        public static var recognized: State { .ended }
    }
}

// MARK: UIHoverGestureRecognizer
// https://developer.apple.com/documentation/uikit/uihovergesturerecognizer (iOS 13; `@MainActor class`,
//   a continuous recognizer; Apple Pencil hover reports through it on supporting iPads, iOS 16.1:
//   https://developer.apple.com/documentation/uikit/adopting-hover-support-for-apple-pencil)
// Its initializers are UIGestureRecognizer's, inherited.
// https://developer.apple.com/documentation/uikit/uihovergesturerecognizer/zoffset (iOS 16.1;
//   `var zOffset: CGFloat { get }`: 1 at the maximum distance, towards 0 closer; 0 for devices
//   that don't support it)
@available(iOS 13.0, *)
@MainActor open class UIHoverGestureRecognizer: UIGestureRecognizer {
    @available(iOS 16.1, *) open var zOffset: CGFloat { standIn() }
}

// MARK: UIInteraction, UIScribbleInteraction
// https://developer.apple.com/documentation/uikit/uiinteraction (iOS 11)
// https://developer.apple.com/documentation/uikit/uiscribbleinteraction (iOS 14)
// https://developer.apple.com/documentation/uikit/uiscribbleinteraction/init(delegate:)
// https://developer.apple.com/documentation/uikit/uiscribbleinteractiondelegate (`@MainActor protocol … : NSObjectProtocol`)
// https://developer.apple.com/documentation/uikit/uiscribbleinteractiondelegate/scribbleinteraction(_:shouldbeginat:) (optional)
@available(iOS 11.0, *)
@MainActor public protocol UIInteraction: NSObjectProtocol {
    var view: UIView? { get }
    func willMove(to view: UIView?)
    func didMove(to view: UIView?)
}
@available(iOS 14.0, *)
@MainActor open class UIScribbleInteraction: NSObject, UIInteraction {
    public init(delegate: any UIScribbleInteractionDelegate) { standIn() }
    open var delegate: (any UIScribbleInteractionDelegate)? { standIn() }   // weak in Apple's SDK
    open var view: UIView? { standIn() }
    open func willMove(to view: UIView?) { standIn() }
    open func didMove(to view: UIView?) { standIn() }
}
@available(iOS 14.0, *)
@MainActor public protocol UIScribbleInteractionDelegate: NSObjectProtocol {
    func scribbleInteraction(_ interaction: UIScribbleInteraction, shouldBeginAt location: CGPoint) -> Bool
}
@available(iOS 14.0, *)
extension UIScribbleInteractionDelegate {
    /// `optional` in Apple's protocol: not implemented means "may begin".
    public func scribbleInteraction(_ interaction: UIScribbleInteraction, shouldBeginAt location: CGPoint) -> Bool { true }
}

// MARK: UIScrollView
// https://developer.apple.com/documentation/uikit/uiscrollview
// https://developer.apple.com/documentation/uikit/uiscrollview/contentoffset
// https://developer.apple.com/documentation/uikit/uiscrollview/zoomscale
// https://developer.apple.com/documentation/uikit/uiscrollview/contentsize
// https://developer.apple.com/documentation/uikit/uiscrollview/adjustedcontentinset (iOS 11, get-only)
// https://developer.apple.com/documentation/uikit/uiscrollview/setcontentoffset(_:animated:)
// https://developer.apple.com/documentation/uikit/uiscrollview/iszooming (get-only)
// https://developer.apple.com/documentation/uikit/uiscrollview/iszoombouncing (get-only)
// https://developer.apple.com/documentation/uikit/uiscrollview/delegate (weak)
// https://developer.apple.com/documentation/uikit/uiscrollviewdelegate (`@MainActor protocol … : NSObjectProtocol`)
// https://developer.apple.com/documentation/uikit/uiscrollviewdelegate/scrollviewdidscroll(_:) (optional)
// https://developer.apple.com/documentation/uikit/uiscrollviewdelegate/scrollviewdidzoom(_:) (optional, iOS 3.2)
@MainActor open class UIScrollView: UIView {
    open var contentOffset: CGPoint { get { standIn() } set { standIn() } }
    open var zoomScale: CGFloat { get { standIn() } set { standIn() } }
    open var minimumZoomScale: CGFloat { get { standIn() } set { standIn() } }   // .../minimumzoomscale
    open var maximumZoomScale: CGFloat { get { standIn() } set { standIn() } }   // .../maximumzoomscale
    open func setZoomScale(_ scale: CGFloat, animated: Bool) { standIn() }      // .../setzoomscale(_:animated:)
    open var contentSize: CGSize { get { standIn() } set { standIn() } }
    @available(iOS 11.0, *) open var adjustedContentInset: UIEdgeInsets { standIn() }
    open var isZooming: Bool { standIn() }
    open var isZoomBouncing: Bool { standIn() }
    open func setContentOffset(_ contentOffset: CGPoint, animated: Bool) { standIn() }
    open var delegate: (any UIScrollViewDelegate)? { get { standIn() } set { standIn() } }   // weak in Apple's SDK
}
@MainActor public protocol UIScrollViewDelegate: NSObjectProtocol {
    func scrollViewDidScroll(_ scrollView: UIScrollView)
    func scrollViewDidZoom(_ scrollView: UIScrollView)
}
extension UIScrollViewDelegate {
    /// `optional` in Apple's protocol.
    public func scrollViewDidScroll(_ scrollView: UIScrollView) {}
    /// `optional` in Apple's protocol.
    public func scrollViewDidZoom(_ scrollView: UIScrollView) {}
}

// MARK: UIEdgeInsets
// https://developer.apple.com/documentation/uikit/uiedgeinsets (a C struct: top, left, bottom, right)
// https://developer.apple.com/documentation/uikit/uiedgeinsets/init(top:left:bottom:right:)
public struct UIEdgeInsets: Sendable, Equatable {
    public var top: CGFloat
    public var left: CGFloat
    public var bottom: CGFloat
    public var right: CGFloat
    public init() { top = 0; left = 0; bottom = 0; right = 0 }
    public init(top: CGFloat, left: CGFloat, bottom: CGFloat, right: CGFloat) {
        self.top = top; self.left = left; self.bottom = bottom; self.right = right
    }
}
