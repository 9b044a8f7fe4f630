import Foundation

/// The page-side JavaScript that answers hit tests and pushes region snapshots, shipped
/// with the package. Inject it into the exercise page (in an isolated world where the web
/// view supports one), then send it ``HitTestRequest/scriptInvocation``. Its messages come
/// back through a WebKit message handler named `scratchpadInk` when present, else through
/// a function `window.scratchpadInkHost(message)` the host installs; hand them in as they
/// are (``EngineInput/pageMessage(_:)-(String)``, through ``InkSession/submit(_:)-(EngineInput)``
/// or `InkEngine.take(_:now:into:)`): they are validated there.
public enum PageScript {
    /// The script's source.
    public static var source: String {
        get throws {
            guard let url = Bundle.module.url(forResource: "scratchpad-ink-page", withExtension: "js") else {
                throw CocoaError(.fileNoSuchFile)
            }
            return try String(contentsOf: url, encoding: .utf8)
        }
    }

    /// The exercise page's side of pointer capture for replayed pointers
    /// (`Resources/scratchpad-ink-capture.js`): a page whose drag code calls
    /// `setPointerCapture` on pointerdown includes it in its own world, before that code, so
    /// that a touch the page claimed late and the page script replays drags as a trusted
    /// one does. Serve it with the page (it is not injected: it must run in the page's world).
    public static var pointerCaptureShim: String {
        get throws {
            guard let url = Bundle.module.url(forResource: "scratchpad-ink-capture", withExtension: "js") else {
                throw CocoaError(.fileNoSuchFile)
            }
            return try String(contentsOf: url, encoding: .utf8)
        }
    }
}
