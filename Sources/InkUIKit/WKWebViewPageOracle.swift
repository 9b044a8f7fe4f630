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
/// One front end per web view, any number of web views. Web views made from one
/// `WKWebViewConfiguration` share its `WKUserContentController` (the configuration copies it
/// by reference), so the handler and the user script belong to the content controller, not
/// to a web view: one handler per content controller and world dispatches each message by
/// `WKScriptMessage.webView` to the oracle of the web view that sent it, and the page script is
/// added once per content controller. A second oracle on the same web view (a second
/// controller, made before the first was invalidated) takes that web view's messages over;
/// the first hears no more. When the last oracle on the content controller detaches, the
/// handler is removed, the page script in the page shown is stopped
/// (`PageScript.stopInvocation`), and the user script is removed: WebKit removes user scripts
/// all at once (`removeAllUserScripts()`), so the content controller's other scripts
/// (`userScripts`, the app's) are added back, in their order. Later documents run no page
/// script of ours.
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
    /// Receives each message the page script posted from the main frame of this oracle's web
    /// view, as text.
    public var onMessage: ((String) -> Void)?
    /// Evaluations the page script did not take (the evaluation failed, or the script was
    /// not there): `PageSide` turns a request's into `EngineInput.sendFailed(_:)` and counts
    /// a replay's in `PageSide.replaysLost`.
    public private(set) var evaluationsNotTaken = 0
    private var dispatcher: ScriptMessageDispatcher?

    /// Installs the page script (once per content controller) and the message handler in
    /// `webView`'s user content controller.
    /// - Parameters:
    ///   - webView: The web view showing the exercise.
    ///   - worldName: The name of the content world the page script runs in.
    /// - Throws: When the bundled page script cannot be read.
    public init(webView: WKWebView, worldName: String = "ScratchpadInk") throws {
        let world = WKContentWorld.world(name: worldName)
        self.world = world
        self.webView = webView
        let controller = webView.configuration.userContentController
        let key = ScriptMessageDispatcher.Key(controller: ObjectIdentifier(controller), world: world.name ?? "")
        ScriptMessageDispatcher.installed = ScriptMessageDispatcher.installed.filter { $0.value.dispatcher != nil }
        let dispatcher: ScriptMessageDispatcher
        if let existing = ScriptMessageDispatcher.installed[key]?.dispatcher {
            dispatcher = existing   // the script and the handler are there already: one per content controller
        } else {
            let script = WKUserScript(source: try PageScript.source, injectionTime: .atDocumentStart,
                                      forMainFrameOnly: true, in: world)
            controller.addUserScript(script)
            dispatcher = ScriptMessageDispatcher(key: key, script: script)
            // A handler name must be unique within the user content controller
            // (https://developer.apple.com/documentation/webkit/wkusercontentcontroller/add(_:contentworld:name:),
            // iOS 14); on a duplicate WebKit raises `NSInvalidArgumentException`, which Swift
            // cannot catch (`Source/WebKit/UIProcess/API/Cocoa/WKUserContentController.mm` in
            // WebKit/WebKit, read, not observed on a device). A handler of ours no dispatcher
            // holds any more is removed first; removing a name that is not there does nothing
            // (https://developer.apple.com/documentation/webkit/wkusercontentcontroller/removescriptmessagehandler(forname:contentworld:),
            // iOS 14).
            controller.removeScriptMessageHandler(forName: Self.handlerName, contentWorld: world)
            // The controller keeps its handlers strongly: it holds the dispatcher, which holds
            // the oracles weakly.
            controller.add(dispatcher, contentWorld: world, name: Self.handlerName)
            ScriptMessageDispatcher.installed[key] = ScriptMessageDispatcher.WeakDispatcher(dispatcher: dispatcher)
        }
        self.dispatcher = dispatcher
        dispatcher.attach(self, for: webView)
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

    /// Stops taking this web view's messages (unless a later oracle on the same web view has
    /// taken them over); once no oracle on its content controller is left, the handler and
    /// the page script go (the script in the page shown is stopped, the user script removed).
    /// No message reaches ``onMessage`` after this. Call it when the page goes away; calling
    /// it again does nothing.
    public func detach() {
        guard let dispatcher else { return }
        self.dispatcher = nil
        guard dispatcher.detach(self), let webView else { return }
        // The last oracle on this content controller: its handler and its script go.
        let controller = webView.configuration.userContentController
        ScriptMessageDispatcher.installed[dispatcher.key] = nil
        controller.removeScriptMessageHandler(forName: Self.handlerName, contentWorld: world)
        webView.evaluateJavaScript(PageScript.stopInvocation, in: nil, in: world) { _ in }
        let others = controller.userScripts.filter { $0 !== dispatcher.script }
        controller.removeAllUserScripts()
        for script in others { controller.addUserScript(script) }
    }

    fileprivate func received(_ message: WKScriptMessage) {
        guard message.frameInfo.isMainFrame, let body = message.body as? String else { return }
        onMessage?(body)
    }
}

/// The one handler of a content controller and content world, which the controller retains:
/// it hands each message to the oracle of the web view that sent it (`WKScriptMessage.webView`),
/// holding the oracles weakly.
///
/// Its witness is `nonisolated`, so the conformance compiles with both declarations of
/// `WKScriptMessageHandler`: the iOS 17 SDK's (no main-actor annotation: a main-actor
/// witness does not satisfy it in Swift 6) and later SDKs' (`@MainActor`). WebKit calls the
/// handler on the main thread (later SDKs say so with that annotation), and
/// `MainActor.assumeIsolated` states it: it stops the app if that is ever not so. The
/// message is carried into the main actor's closure in a ``MainThreadMessage``: with the
/// iOS 17 SDK `WKScriptMessage` is not `Sendable` (the closure capturing it is refused:
/// "sending 'message' risks causing data races"); with later SDKs it is main-actor isolated,
/// so `Sendable`, and the box changes nothing.
///
/// Not a `@preconcurrency` conformance with a main-actor witness: with later SDKs the
/// protocol is itself `@MainActor` and the attribute would say nothing (the compiler warns
/// that it has no effect, an error under the package's warnings-as-errors check).
/// `scripts/apple-typecheck.sh` type-checks this file against both SDKs' WebKit.
@MainActor
private final class ScriptMessageDispatcher: NSObject, WKScriptMessageHandler {
    struct Key: Hashable {
        let controller: ObjectIdentifier
        let world: String
    }

    struct WeakDispatcher {
        weak var dispatcher: ScriptMessageDispatcher?
    }

    private struct Attached {
        weak var webView: WKWebView?
        weak var oracle: WKWebViewPageOracle?
    }

    /// The dispatcher of each content controller and world.
    static var installed: [Key: WeakDispatcher] = [:]

    let key: Key
    /// The page script, added once to the content controller.
    let script: WKUserScript
    /// The oracle of each web view, by the web view.
    private var oracles: [ObjectIdentifier: Attached] = [:]
    /// Oracles attached and not detached (an oracle replaced on its web view still counts
    /// until it detaches).
    private var attachedCount = 0

    init(key: Key, script: WKUserScript) {
        self.key = key
        self.script = script
    }

    func attach(_ oracle: WKWebViewPageOracle, for webView: WKWebView) {
        oracles[ObjectIdentifier(webView)] = Attached(webView: webView, oracle: oracle)
        attachedCount += 1
    }

    /// Returns `true` when no oracle is left.
    func detach(_ oracle: WKWebViewPageOracle) -> Bool {
        oracles = oracles.filter { $0.value.oracle != nil && $0.value.oracle !== oracle && $0.value.webView != nil }
        attachedCount = max(0, attachedCount - 1)
        return attachedCount == 0
    }

    nonisolated func userContentController(_ userContentController: WKUserContentController, didReceive message: WKScriptMessage) {
        let delivered = MainThreadMessage(message: message)
        MainActor.assumeIsolated {
            let message = delivered.message
            guard let webView = message.webView, let attached = oracles[ObjectIdentifier(webView)],
                  attached.webView === webView else { return }
            attached.oracle?.received(message)
        }
    }
}

/// A script message on its way from the handler's `nonisolated` witness into
/// `MainActor.assumeIsolated`, on the main thread where WebKit delivered it: it never leaves
/// that thread, which `assumeIsolated` checks. `@unchecked Sendable` because the iOS 17
/// SDK's `WKScriptMessage` is not `Sendable` (it has no main-actor annotation).
private struct MainThreadMessage: @unchecked Sendable {
    let message: WKScriptMessage
}
#endif
