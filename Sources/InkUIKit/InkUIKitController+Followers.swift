#if canImport(UIKit) && canImport(WebKit)
import WebKit
import InkCore
import HitTestBridge

// The controller's helpers: its teardown off the main thread, and the delegates it installs
// when the app has none (scroll and zoom, the pencil's gestures, the page's documents), and
// the page's background.

/// What a controller released off the main thread leaves for the main queue to tear down.
/// Every part is used on the main thread only: the loop (not `Sendable`, it lives there) is
/// stopped there, never touched from the thread that released the controller.
struct Teardown: @unchecked Sendable {
    let side: PageSide
    let overlay: InkOverlayView
    let recognizers: [UIGestureRecognizer]
    let interaction: UIPencilInteraction
    let oracle: WKWebViewPageOracle

    @MainActor func run() {
        side.close()
        overlay.router = nil
        overlay.onResize = nil
        for recognizer in recognizers { recognizer.view?.removeGestureRecognizer(recognizer) }
        interaction.delegate = nil
        overlay.removeInteraction(interaction)
        overlay.removeFromSuperview()
        oracle.onMessage = nil
        oracle.detach()
    }
}

/// The web view's scroll view delegate when the app has none.
@MainActor
final class ScrollFollower: NSObject, UIScrollViewDelegate {
    weak var controller: InkUIKitController?

    func scrollViewDidScroll(_ scrollView: UIScrollView) { controller?.pageDidScroll() }
    func scrollViewDidZoom(_ scrollView: UIScrollView) { controller?.pageDidScroll() }
}

/// The pencil interaction's delegate: a double tap or a squeeze goes to the controller.
@MainActor
final class PencilFollower: NSObject, UIPencilInteractionDelegate {
    weak var controller: InkUIKitController?

    // Before iOS 17.5 (UIKit does not call it where the newer method is implemented).
    func pencilInteractionDidTap(_ interaction: UIPencilInteraction) {
        controller?.pencilGesture(.doubleTap, preferred: UIPencilInteraction.preferredTapAction)
    }

    @available(iOS 17.5, *)
    func pencilInteraction(_ interaction: UIPencilInteraction, didReceiveTap tap: UIPencilInteraction.Tap) {
        controller?.pencilGesture(.doubleTap, preferred: UIPencilInteraction.preferredTapAction)
    }

    @available(iOS 17.5, *)
    func pencilInteraction(_ interaction: UIPencilInteraction, didReceiveSqueeze squeeze: UIPencilInteraction.Squeeze) {
        guard squeeze.phase == .ended else { return }
        controller?.pencilGesture(.squeeze, preferred: UIPencilInteraction.preferredSqueezeAction)
    }
}

/// The web view's navigation delegate when the app has none: each committed navigation and
/// each terminated web content process is a new document for the loop.
@MainActor
final class DocumentFollower: NSObject, WKNavigationDelegate {
    weak var controller: InkUIKitController?

    func webView(_ webView: WKWebView, didCommit navigation: WKNavigation!) { controller?.pageDidChangeDocument() }
    func webViewWebContentProcessDidTerminate(_ webView: WKWebView) { controller?.pageDidChangeDocument() }
    func webView(_ webView: WKWebView, didFinish navigation: WKNavigation!) { controller?.pageAppearanceDidChange() }
}

// MARK: - The page's background (the ink's colour)

extension InkUIKitController {
    /// Reads the page's background (`PageBackground.probeScript`, in the page script's content
    /// world) into the overlay's `InkOverlayView/pageBackground`, from which the overlay picks
    /// an ink that shows on the page (unless the app set `InkOverlayView/inkColor`). Called
    /// when a navigation finished (by the navigation delegate this controller installs; an app
    /// that is the navigation delegate calls it from its own `webView(_:didFinish:)`) and when
    /// the system's appearance changed; call it too when the page changes its colours.
    public func pageAppearanceDidChange() {
        guard !isInvalidated, let webView else { return }
        webView.evaluateJavaScript(PageBackground.probeScript, in: nil, in: oracle.world) { [weak self] result in
            guard let self, !isInvalidated, case let .success(value) = result, let text = value as? String,
                  let background = PageBackground.color(fromProbeResult: text) else { return }
            overlay.pageBackground = background
        }
    }
}
#endif
