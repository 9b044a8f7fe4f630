import HitTestBridge
import InkCore

extension ScratchpadWindow {
    /// Settings of a window.
    public struct Options: Sendable {
        /// The page's viewport, CSS pixels (the overlay covers it, one point each).
        public var width: Int
        /// The viewport's height, CSS pixels.
        public var height: Int
        /// The engine's settings: how touches are decided and the page asked (one timeout).
        public var configuration: InkEngineConfiguration
        /// Whether each finished touch's outcome, its samples included, is kept for the
        /// report; off, the audit still checks every touch but keeps only counts. (The ink
        /// itself, every stroke drawn, is kept either way.)
        public var keepsOutcomes: Bool
        /// Seconds every message from the page is held before the engine takes it: a slower
        /// page, for measuring what a user sees at a given page latency
        /// (``WebKitGTKPage/messageDelay``, the page transport's). Default 0.
        public var pageMessageDelay: Double = 0
        /// Records the session (what the engine took and decided) for `ink-replay verify`,
        /// through its sink; `nil`, the default, records nothing. The window's ``InkLoop``
        /// records every input and wake-up as the engine takes them, and flushes it in
        /// ``ScratchpadWindow/finish()``.
        public var recorder: SessionRecorder?
        /// The page zooms Ctrl and the wheel may reach (WebKitGTK's `zoom-level`); the app can
        /// set any zoom on the web view itself. Default 0.5 to 5.
        public var zoomRange: ClosedRange<Double> = 0.5...5

        /// Settings for a `width` × `height` page. The default configuration routes at
        /// touch-down, as an iPad app must (``TouchRouting/decideAtTouchDown``).
        public init(width: Int = 1024, height: Int = 768,
                    configuration: InkEngineConfiguration = InkEngineConfiguration(routing: .decideAtTouchDown),
                    keepsOutcomes: Bool = true) {
            self.width = width
            self.height = height
            self.configuration = configuration
            self.keepsOutcomes = keepsOutcomes
        }
    }

}

