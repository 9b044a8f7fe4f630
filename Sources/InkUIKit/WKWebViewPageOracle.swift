#if canImport(UIKit) && canImport(WebKit)
import WebKit
import InkCore
import HitTestBridge

/// The page script in a `WKWebView`: installed in a content world of its own, its message
/// handler, and the one way scripts are evaluated there (``evaluate(_:_:)``, which
/// `PageSide.Page.evaluate` calls for the page side: requests, replays, region requests).
///
/// It installs ``PageScript/source`` as a `WKUserScript` (at document start, main frame only)
/// in `WKContentWorld.world(name:)`, so the exercise page's own scripts can neither see nor
/// replace it, and registers the `scratchpadInk` message handler in that world only. Requests
/// (`HitTestRequest.scriptInvocation`) and the engine's page replays are evaluated in the same
/// world. Each message the page script posts from the main frame, a `String`, goes to
/// ``onMessage`` as it came: the engine validates it.
///
/// One oracle per web view holds the handler: a second oracle on the same web view (a second
/// controller, made before the first was invalidated) takes the handler over rather than
/// raising on the duplicate name, and the first hears no more messages. The page script is
/// installed again as a second user script; the page keeps its first instance (the script
/// returns at once when `window.scratchpadInk` is there).
///
/// Type-checked against stand-ins for WebKit; never run on a device.
@MainActor
public final class WKWebViewPageOracle {
    /// The name of the message handler the page script posts to.
    public static let handlerName = "scratchpadInk"
    /// The content world the page script lives in.
    public let world: WKContentWorld
    /// The web view (not retained).
    public private(set) weak var webView: WKWebView?
    /// Receives each message the page script posted from the main frame, as text.
    public var onMessage: ((String) -> Void)?
    /// Evaluations the page script did not take (the evaluation failed, or the script was
    /// not there): `PageSide` turns a request's into `EngineInput.sendFailed(_:)` and counts
    /// a replay's in `PageSide.replaysLost`.
    public private(set) var evaluationsNotTaken = 0
    private var proxy: ScriptMessageProxy?

    /// Installs the page script and the message handler in `webView`'s user content controller.
    /// - Parameters:
    ///   - webView: The web view showing the exercise.
    ///   - worldName: The name of the content world the page script runs in.
    /// - Throws: When the bundled page script cannot be read.
    public init(webView: WKWebView, worldName: String = "ScratchpadInk") throws {
        let world = WKContentWorld.world(name: worldName)
        self.world = world
        self.webView = webView
        let script = WKUserScript(source: try PageScript.source, injectionTime: .atDocumentStart,
                                  forMainFrameOnly: true, in: world)
        let proxy = ScriptMessageProxy()
        self.proxy = proxy
        let controller = webView.configuration.userContentController
        controller.addUserScript(script)
        // A handler name must be unique within the user content controller
        // (https://developer.apple.com/documentation/webkit/wkusercontentcontroller/add(_:contentworld:name:),
        // iOS 14); on a duplicate WebKit raises `NSInvalidArgumentException`, which Swift cannot
        // catch (`Source/WebKit/UIProcess/API/Cocoa/WKUserContentController.mm` in WebKit/WebKit,
        // read, not observed on a device). A handler left by an earlier oracle on this
        // web view is removed first; removing a name that is not there does nothing
        // (https://developer.apple.com/documentation/webkit/wkusercontentcontroller/removescriptmessagehandler(forname:contentworld:),
        // iOS 14).
        controller.removeScriptMessageHandler(forName: Self.handlerName, contentWorld: world)
        // The controller keeps its handlers strongly: it holds the proxy, the proxy holds
        // this oracle weakly.
        controller.add(proxy, contentWorld: world, name: Self.handlerName)
        proxy.oracle = self
        Self.installed = Self.installed.filter { $0.value.proxy != nil }   // web views gone
        Self.installed[Self.key(controller, world)] = WeakProxy(proxy: proxy)
    }

    /// The proxy that holds the handler, per user content controller and content world name:
    /// ``detach()`` removes the handler only while it is its own.
    private static var installed: [HandlerKey: WeakProxy] = [:]

    private struct HandlerKey: Hashable {
        let controller: ObjectIdentifier
        let world: String
    }

    private struct WeakProxy {
        weak var proxy: ScriptMessageProxy?
    }

    private static func key(_ controller: WKUserContentController, _ world: WKContentWorld) -> HandlerKey {
        HandlerKey(controller: ObjectIdentifier(controller), world: world.name ?? "")
    }

    /// Evaluates one of the page side's scripts (`HitTestRequest.scriptInvocation`,
    /// `PageReplay.scriptInvocation`, `PageScript.pushRegionsInvocation`) in the page script's
    /// world; `done` gets `true` when it evaluated to `true` (the page script was there and
    /// took it), `false` when the web view is gone, the evaluation failed or the script was
    /// not there.
    public func evaluate(_ script: String, _ done: @escaping (Bool) -> Void) {
        guard let webView else {
            evaluationsNotTaken += 1
            return done(false)
        }
        webView.evaluateJavaScript(script, in: nil, in: world) { [weak self] result in
            if case .success(let taken as Bool) = result, taken { return done(true) }
            self?.evaluationsNotTaken += 1
            done(false)
        }
    }

    /// Removes the message handler, unless a later oracle on the same web view has taken it
    /// over (the user script stays until the controller's scripts are removed); no message
    /// reaches ``onMessage`` after this. Call it when the page goes away; calling it again
    /// does nothing.
    public func detach() {
        guard let proxy else { return }
        proxy.oracle = nil
        self.proxy = nil
        guard let controller = webView?.configuration.userContentController else { return }
        let key = Self.key(controller, world)
        guard Self.installed[key]?.proxy === proxy else { return }
        Self.installed[key] = nil
        controller.removeScriptMessageHandler(forName: Self.handlerName, contentWorld: world)
    }

    fileprivate func received(_ message: WKScriptMessage) {
        guard message.frameInfo.isMainFrame, let body = message.body as? String else { return }
        onMessage?(body)
    }
}

/// The object the user content controller retains; forwards to the oracle, held weakly.
///
/// Its witness is `nonisolated`, so the conformance compiles with both declarations of
/// `WKScriptMessageHandler`: the iOS 17 SDK's (no main-actor annotation) and later SDKs'
/// (`@MainActor`). WebKit calls the handler on the main thread (later SDKs say so with that
/// annotation), and `MainActor.assumeIsolated` states it: it stops the app if that is ever
/// not so.
/// `scripts/apple-typecheck.sh` type-checks this file against both declarations.
@MainActor
private final class ScriptMessageProxy: NSObject, WKScriptMessageHandler {
    weak var oracle: WKWebViewPageOracle?

    nonisolated func userContentController(_ userContentController: WKUserContentController, didReceive message: WKScriptMessage) {
        MainActor.assumeIsolated {
            oracle?.received(message)
        }
    }
}
#endif
