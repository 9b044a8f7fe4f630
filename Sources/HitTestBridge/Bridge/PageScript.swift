import Foundation

/// The page-side JavaScript that answers hit tests and pushes region snapshots, shipped
/// with the package. Inject it into the exercise page (in an isolated world where the web
/// view supports one), then send it ``HitTestRequest/scriptInvocation``. Its messages come
/// back through a WebKit message handler named `scratchpadInk` when present, else through
/// a function `window.scratchpadInkHost(message)` the host installs; hand them in as they
/// are (``EngineInput/pageMessage(_:)-(String)``, through ``InkSession/submit(_:)-(EngineInput)``
/// or ``InkEngine/take(_:now:into:)-(EngineInput,_,_)``): they are validated there.
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
}
