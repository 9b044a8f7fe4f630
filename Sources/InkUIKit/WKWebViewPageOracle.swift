#if canImport(UIKit) && canImport(WebKit)
import WebKit
import InkCore
import HitTestBridge

/// The page side in a `WKWebView`: the page script in a content world of its own, its
/// message handler, and the scripts the engine sends.
///
/// It installs ``PageScript/source`` as a `WKUserScript` (at document start, main frame only)
/// in `WKContentWorld.world(name:)`, so the exercise page's own scripts can neither see nor
/// replace it, and registers the `scratchpadInk` message handler in that world only. Requests
/// (`HitTestRequest.scriptInvocation`) and the engine's page replays are evaluated in the same
/// world. Each message the page script posts from the main frame, a `String`, goes to
/// ``onMessage`` as it came: the engine validates it.
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
    /// Receives the token of a request that went nowhere: the evaluation failed, or the page
    /// script was not there to take it (the invocation evaluated to `false`).
    public var onSendFailed: ((QueryToken) -> Void)?
    /// Replays the page script did not take (evaluation failed, or the script was not there):
    /// the engine counted their samples replayed, and the page never saw them.
    public private(set) var failedReplays = 0
    /// Requests for a snapshot (``askForRegions()``) the page script did not take.
    public private(set) var regionRequestsNotTaken = 0
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
        // The controller keeps its handlers strongly: it holds the proxy, the proxy holds
        // this oracle weakly.
        controller.add(proxy, contentWorld: world, name: Self.handlerName)
        proxy.oracle = self
    }

    /// Asks the page: evaluates the request's invocation in the page script's world.
    public func send(_ request: HitTestRequest) {
        guard let webView else { onSendFailed?(request.token); return }
        let token = request.token
        webView.evaluateJavaScript(request.scriptInvocation, in: nil, in: world) { [weak self] result in
            // `true`: the page script took it; the answer comes as a message.
            if case .success(let taken as Bool) = result, taken { return }
            self?.onSendFailed?(token)
        }
    }

    /// Has the page script replay samples of a touch the page claimed late: evaluates
    /// `PageReplay.scriptInvocation` in the page script's world.
    public func replay(_ replay: PageReplay) {
        guard let webView else { failedReplays += 1; return }
        webView.evaluateJavaScript(replay.scriptInvocation, in: nil, in: world) { [weak self] result in
            // `true`: the page script took it; `false` or a failure: the page never saw them.
            if case .success(let taken as Bool) = result, taken { return }
            self?.failedReplays += 1
        }
    }

    /// Asks the page script to push a region snapshot now (`pushRegions()`), evaluated in the
    /// page script's world; the snapshot comes as a message, validated by the engine like
    /// any other.
    public func askForRegions() {
        guard let webView else { regionRequestsNotTaken += 1; return }
        webView.evaluateJavaScript(Self.pushRegionsInvocation, in: nil, in: world) { [weak self] result in
            // `false` or a failure: the page script was not there; no snapshot will come.
            if case .success(let taken as Bool) = result, taken { return }
            self?.regionRequestsNotTaken += 1
        }
    }

    /// The invocation ``askForRegions()`` evaluates: `true` when the page script was
    /// there to push a snapshot, `false` when it was not, never `undefined`.
    public static let pushRegionsInvocation =
        "(window.scratchpadInk ? (window.scratchpadInk.pushRegions(), true) : false)"

    /// Removes the message handler (the user script stays until the controller's scripts are
    /// removed); call it when the page goes away.
    public func detach() {
        webView?.configuration.userContentController.removeScriptMessageHandler(forName: Self.handlerName, contentWorld: world)
        proxy = nil
    }

    fileprivate func received(_ message: WKScriptMessage) {
        guard message.frameInfo.isMainFrame, let body = message.body as? String else { return }
        onMessage?(body)
    }
}

/// The object the user content controller retains; forwards to the oracle, held weakly.
@MainActor
private final class ScriptMessageProxy: NSObject, WKScriptMessageHandler {
    weak var oracle: WKWebViewPageOracle?

    func userContentController(_ userContentController: WKUserContentController, didReceive message: WKScriptMessage) {
        oracle?.received(message)
    }
}
#endif
