// A stand-in for Apple's WebKit (iOS), for scripts/apple-typecheck.sh only: never linked,
// never run. Only the WebKit API InkUIKit uses, with the signatures, optionality and
// main-actor isolation Apple's Swift interface shows, and the availability Apple documents.
// Plain Swift classes: Objective-C interop is off in the type-check. Adding a declaration
// here is a claim about Apple's SDK: check it against Apple's documentation first, and cite
// the page.
@_exported import UIKit

// Two SDKs. By default, today's: WebKit's classes and protocols carry `@MainActor`
// (`WK_SWIFT_UI_ACTOR`, added to WebKit's headers in 278930@main, WebKit/WebKit#28206,
// May 2024: "Annotate some main-thread-only classes and protocols in WebKit API"; first in
// the iOS 18 SDK, Xcode 16), and the Swift overlay's completion handlers are
// `@MainActor @Sendable` (WebKit/WebKit#36002, which refactored the overlay to match).
// Built with `-D IOS17_SDK_WEBKIT`: the iOS 17 SDK's (Xcode 15), whose headers have no
// such annotation: `WKScriptMessageHandler`, `WKNavigationDelegate`, `WKScriptMessage`,
// `WKFrameInfo`, `WKUserContentController`, `WKContentWorld`, `WKUserScript`,
// `WKWebViewConfiguration` and `WKNavigation` are not isolated (so `WKScriptMessage` is not
// `Sendable`), and `evaluateJavaScript`'s handler is a plain closure. `WKWebView` is
// `@MainActor` in both: it is a `UIView`. scripts/apple-typecheck.sh type-checks InkUIKit
// against both.

func standIn() -> Never { fatalError("apple-typecheck stand-in: never run") }

// https://developer.apple.com/documentation/webkit/wkwebview
// https://developer.apple.com/documentation/webkit/wkwebview/configuration (a copy)
// https://developer.apple.com/documentation/webkit/wkwebview/scrollview
// https://developer.apple.com/documentation/webkit/wkwebview/evaluatejavascript(_:in:in:completionhandler:)
//   `@MainActor @preconcurrency func evaluateJavaScript(_ javaScript: String, in frame: WKFrameInfo? = nil,
//    in contentWorld: WKContentWorld, completionHandler: (@MainActor @Sendable (Result<Any, any Error>) -> Void)? = nil)`
//   iOS 14, macOS 11
// https://developer.apple.com/documentation/webkit/wkwebview/navigationdelegate (weak)
// https://developer.apple.com/documentation/webkit/wkwebview/isloading ("WKWebView is key-value
//   observing (KVO) compliant for this property")
// What WebKit does when the web content process terminates (WebKit/WebKit, read, not observed on
// a device): `NavigationState::NavigationClient::processDidTerminate` calls the navigation
// delegate's `webViewWebContentProcessDidTerminate(_:)` when it implements it, and returns
// `false` otherwise, after which `WebPageProxy::dispatchProcessDidTerminate` reloads the page
// (`tryReloadAfterProcessTermination()`): a front end that wants WebKit's own reload must not
// implement that method. The stand-in cannot run it; InkUIKit implements no navigation
// delegate at all.
@MainActor open class WKWebView: UIView {
    open var configuration: WKWebViewConfiguration { standIn() }
    open var isLoading: Bool { standIn() }
    open var navigationDelegate: (any WKNavigationDelegate)? { get { standIn() } set { standIn() } }   // weak in Apple's SDK
    open var scrollView: UIScrollView { standIn() }
    #if IOS17_SDK_WEBKIT
    @available(iOS 14.0, macOS 11.0, *)
    public func evaluateJavaScript(_ javaScript: String, in frame: WKFrameInfo? = nil, in contentWorld: WKContentWorld,
                                   completionHandler: ((Result<Any, any Error>) -> Void)? = nil) { standIn() }
    #else
    @available(iOS 14.0, macOS 11.0, *)
    @preconcurrency public func evaluateJavaScript(_ javaScript: String, in frame: WKFrameInfo? = nil, in contentWorld: WKContentWorld,
                                                   completionHandler: (@MainActor @Sendable (Result<Any, any Error>) -> Void)? = nil) { standIn() }
    #endif
}

// https://developer.apple.com/documentation/webkit/wkwebviewconfiguration
// https://developer.apple.com/documentation/webkit/wkwebviewconfiguration/usercontentcontroller
#if IOS17_SDK_WEBKIT
open class WKWebViewConfiguration: NSObject {}
#else
@MainActor open class WKWebViewConfiguration: NSObject {}
#endif
extension WKWebViewConfiguration {
    public var userContentController: WKUserContentController { get { standIn() } set { standIn() } }
}

// https://developer.apple.com/documentation/webkit/wkusercontentcontroller
// https://developer.apple.com/documentation/webkit/wkusercontentcontroller/adduserscript(_:) (iOS 8)
// https://developer.apple.com/documentation/webkit/wkusercontentcontroller/add(_:contentworld:name:) (iOS 14)
// https://developer.apple.com/documentation/webkit/wkusercontentcontroller/removescriptmessagehandler(forname:contentworld:) (iOS 14)
// https://developer.apple.com/documentation/webkit/wkusercontentcontroller/userscripts (iOS 8; read-only, a copy)
// https://developer.apple.com/documentation/webkit/wkusercontentcontroller/removealluserscripts() (iOS 8)
#if IOS17_SDK_WEBKIT
open class WKUserContentController: NSObject {
    /// The stand-in's record of the names added, per content world (not Apple API).
    fileprivate var handlerNames: Set<String> = []
}
#else
@MainActor open class WKUserContentController: NSObject {
    /// The stand-in's record of the names added, per content world (not Apple API).
    fileprivate var handlerNames: Set<String> = []
}
#endif
extension WKUserContentController {
    public func addUserScript(_ userScript: WKUserScript) { standIn() }
    public var userScripts: [WKUserScript] { standIn() }
    public func removeAllUserScripts() { standIn() }
    /// Raises `NSInvalidArgumentException` when a handler named `name` is already added in
    /// `world`: "Attempt to add script message handler with name '…' when one already exists."
    /// (WebKit/WebKit, `Source/WebKit/UIProcess/API/Cocoa/WKUserContentController.mm`:
    /// `-addScriptMessageHandler:contentWorld:name:` calls `-_addScriptMessageHandler:`, which
    /// raises when the proxy's `addUserScriptMessageHandler` refuses the name). Swift cannot catch an Objective-C
    /// exception: the app stops. The stand-in traps the same way, so a caller must remove
    /// the name first (`removeScriptMessageHandler(forName:contentWorld:)`) or know it is new.
    @available(iOS 14.0, macOS 11.0, *)
    public func add(_ scriptMessageHandler: any WKScriptMessageHandler, contentWorld world: WKContentWorld, name: String) {
        let key = "\(world.name ?? "")\u{0}\(name)"
        precondition(!handlerNames.contains(key),
                     "NSInvalidArgumentException: Attempt to add script message handler with name '\(name)' when one already exists.")
        handlerNames.insert(key)
    }
    /// Removing a name that is not there does nothing.
    @available(iOS 14.0, macOS 11.0, *)
    public func removeScriptMessageHandler(forName name: String, contentWorld: WKContentWorld) {
        handlerNames.remove("\(contentWorld.name ?? "")\u{0}\(name)")
    }
}

// https://developer.apple.com/documentation/webkit/wkcontentworld (iOS 14)
// https://developer.apple.com/documentation/webkit/wkcontentworld/world(name:)
#if IOS17_SDK_WEBKIT
@available(iOS 14.0, macOS 11.0, *)
open class WKContentWorld: NSObject {}
#else
@available(iOS 14.0, macOS 11.0, *)
@MainActor open class WKContentWorld: NSObject {}
#endif
@available(iOS 14.0, macOS 11.0, *)
extension WKContentWorld {
    public class func world(name: String) -> WKContentWorld { standIn() }
    public var name: String? { standIn() }
}

// https://developer.apple.com/documentation/webkit/wkuserscript
// https://developer.apple.com/documentation/webkit/wkuserscript/init(source:injectiontime:formainframeonly:in:) (iOS 14)
// https://developer.apple.com/documentation/webkit/wkuserscriptinjectiontime
#if IOS17_SDK_WEBKIT
open class WKUserScript: NSObject {
    @available(iOS 14.0, macOS 11.0, *)
    public init(source: String, injectionTime: WKUserScriptInjectionTime, forMainFrameOnly: Bool, in contentWorld: WKContentWorld) { standIn() }
}
#else
@MainActor open class WKUserScript: NSObject {
    @available(iOS 14.0, macOS 11.0, *)
    public init(source: String, injectionTime: WKUserScriptInjectionTime, forMainFrameOnly: Bool, in contentWorld: WKContentWorld) { standIn() }
}
#endif
public enum WKUserScriptInjectionTime: Int, Sendable {
    case atDocumentStart, atDocumentEnd
}

// https://developer.apple.com/documentation/webkit/wkscriptmessagehandler (`@MainActor protocol … : NSObjectProtocol`)
// https://developer.apple.com/documentation/webkit/wkscriptmessagehandler/usercontentcontroller(_:didreceive:)
// The iOS 17 SDK (Xcode 15) declares the protocol without the main-actor annotation
// (`-D IOS17_SDK_WEBKIT`); later SDKs add it.
#if IOS17_SDK_WEBKIT
public protocol WKScriptMessageHandler: NSObjectProtocol {
    func userContentController(_ userContentController: WKUserContentController, didReceive message: WKScriptMessage)
}
#else
@MainActor public protocol WKScriptMessageHandler: NSObjectProtocol {
    func userContentController(_ userContentController: WKUserContentController, didReceive message: WKScriptMessage)
}
#endif

// https://developer.apple.com/documentation/webkit/wkscriptmessage
// https://developer.apple.com/documentation/webkit/wkscriptmessage/body (Any)
// https://developer.apple.com/documentation/webkit/wkscriptmessage/frameinfo
// https://developer.apple.com/documentation/webkit/wkscriptmessage/world (iOS 14)
// https://developer.apple.com/documentation/webkit/wkscriptmessage/webview (weak, iOS 8): the web
//   view sending the message (one content controller may serve several web views: a
//   configuration copies it by reference)
// Not isolated, so not `Sendable`, in the iOS 17 SDK.
#if IOS17_SDK_WEBKIT
open class WKScriptMessage: NSObject {}
#else
@MainActor open class WKScriptMessage: NSObject {}
#endif
extension WKScriptMessage {
    public var body: Any { standIn() }
    public var webView: WKWebView? { standIn() }   // weak in Apple's SDK
    public var name: String { standIn() }
    public var frameInfo: WKFrameInfo { standIn() }
    @available(iOS 14.0, macOS 11.0, *) public var world: WKContentWorld { standIn() }
}

// https://developer.apple.com/documentation/webkit/wkframeinfo
// https://developer.apple.com/documentation/webkit/wkframeinfo/ismainframe
#if IOS17_SDK_WEBKIT
open class WKFrameInfo: NSObject {}
#else
@MainActor open class WKFrameInfo: NSObject {}
#endif
extension WKFrameInfo {
    public var isMainFrame: Bool { standIn() }
}

// https://developer.apple.com/documentation/webkit/wknavigation
// https://developer.apple.com/documentation/webkit/wknavigationdelegate
// https://developer.apple.com/documentation/webkit/wknavigationdelegate/webview(_:didcommit:) (iOS 8; optional)
// https://developer.apple.com/documentation/webkit/wknavigationdelegate/webviewwebcontentprocessdidterminate(_:) (iOS 9; optional)
// Neither is isolated in the iOS 17 SDK: a `@MainActor` type's main-actor witness does not
// satisfy that protocol in Swift 6.
#if IOS17_SDK_WEBKIT
open class WKNavigation: NSObject {}
public protocol WKNavigationDelegate: NSObjectProtocol {
    func webView(_ webView: WKWebView, didCommit navigation: WKNavigation!)
    func webViewWebContentProcessDidTerminate(_ webView: WKWebView)
    // https://developer.apple.com/documentation/webkit/wknavigationdelegate/webview(_:didfinish:)
    func webView(_ webView: WKWebView, didFinish navigation: WKNavigation!)
}
#else
@MainActor open class WKNavigation: NSObject {}
@MainActor public protocol WKNavigationDelegate: NSObjectProtocol {
    func webView(_ webView: WKWebView, didCommit navigation: WKNavigation!)
    func webViewWebContentProcessDidTerminate(_ webView: WKWebView)
    // https://developer.apple.com/documentation/webkit/wknavigationdelegate/webview(_:didfinish:)
    func webView(_ webView: WKWebView, didFinish navigation: WKNavigation!)
}
#endif
extension WKNavigationDelegate {
    /// `optional` in Apple's protocol.
    public func webView(_ webView: WKWebView, didFinish navigation: WKNavigation!) {}
    /// `optional` in Apple's protocol.
    public func webView(_ webView: WKWebView, didCommit navigation: WKNavigation!) {}
    /// `optional` in Apple's protocol.
    public func webViewWebContentProcessDidTerminate(_ webView: WKWebView) {}
}
