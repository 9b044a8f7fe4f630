#if canImport(UIKit) && canImport(WebKit)
import WebKit
import InkCore
import HitTestBridge

// The controller's helpers: its teardown off the main thread, the followers of the web view
// (key-value observation, no delegates), the pencil's delegate, and the page's background.

/// What a controller released off the main thread leaves for the main queue to tear down.
/// Every part is used on the main thread only: the loop (not `Sendable`, it lives there) is
/// stopped there, never touched from the thread that released the controller.
struct Teardown: @unchecked Sendable {
    let side: PageSide
    let overlay: InkOverlayView
    let recognizers: [UIGestureRecognizer]
    let interaction: UIPencilInteraction
    let oracle: WKWebViewPageOracle
    let followers: PageFollowers

    @MainActor func run() {
        followers.invalidate()
        side.close()
        overlay.router = nil
        overlay.onResize = nil
        overlay.clock = nil
        overlay.zoomInProgress = nil
        for recognizer in recognizers { recognizer.view?.removeGestureRecognizer(recognizer) }
        interaction.delegate = nil
        overlay.removeInteraction(interaction)
        overlay.removeFromSuperview()
        oracle.onMessage = nil
        oracle.detach()
    }
}

/// Follows the web view without owning any of its delegates, so an app (or a SwiftUI wrapper)
/// may set `scrollView.delegate` and `navigationDelegate` whenever it likes: key-value
/// observation of the scroll view's `contentOffset` and `zoomScale` (scroll and zoom) and of
/// the web view's `isLoading` (a navigation begins: reported to the loop; it ends: the page's
/// background is read again). The page itself says which document it shows (the document
/// rule), so the report needs no delegate's commit; a page restored from the back/forward
/// cache, or reloaded by WebKit after its web content process terminated (WebKit reloads it
/// because no navigation delegate of ours implements `webViewWebContentProcessDidTerminate(_:)`),
/// names its document in its first snapshot.
@MainActor
final class PageFollowers {
    private var observations: [NSKeyValueObservation] = []

    init(webView: WKWebView, controller: InkUIKitController) {
        let scrollView = webView.scrollView
        observations.append(scrollView.observe(\.contentOffset, options: []) { [weak controller] _, _ in
            MainActor.assumeIsolated { controller?.pageDidScroll() }
        })
        observations.append(scrollView.observe(\.zoomScale, options: []) { [weak controller] _, _ in
            MainActor.assumeIsolated { controller?.pageDidScroll() }
        })
        observations.append(webView.observe(\.isLoading, options: [.new]) { [weak controller] _, change in
            let loading = change.newValue ?? false
            MainActor.assumeIsolated {
                if loading { controller?.pageDidChangeDocument() } else { controller?.pageAppearanceDidChange() }
            }
        })
    }

    /// Stops observing.
    func invalidate() {
        for observation in observations { observation.invalidate() }
        observations.removeAll()
    }
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

// MARK: - The page's background (the ink's colour)

extension InkUIKitController {
    /// Reads the page's background (`PageBackground.probeScript`, in the page script's content
    /// world) into the overlay's `InkOverlayView/pageBackground`, from which the overlay picks
    /// an ink that shows on the page (unless the app set `InkOverlayView/inkColor`). Called
    /// when a navigation finished (the web view's `isLoading` became `false`) and when the
    /// system's appearance changed; call it too when the page changes its colours.
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
