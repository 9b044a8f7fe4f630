@_spi(Tooling) import InkCore
@_spi(Tooling) import HitTestBridge
/// The first line of a session log: what was recorded, on what, and how to read it.
public struct SessionHeader: Sendable, Hashable {
    /// The format name every session log carries.
    public static let formatName = "scratchpad-ink-session"
    /// The newest format version this library reads and writes: 3, a chained live
    /// recording (a header with ``engineConfiguration``, the lines of ``RecordedEvent``,
    /// each line carrying the chain of the lines before it, and an `end` line). Version 2
    /// (a recording without the chain) is read as it was, as unchained
    /// (``RecordingIntegrity/unchained(version:)``). A log that carries only inputs is
    /// written as version 1, which older readers read too.
    public static let currentVersion = 3

    /// Format version of the log. Readers refuse versions newer than ``currentVersion``.
    public var version: Int
    /// Canvas size in canvas points.
    public var canvas: CanvasSize
    /// How canvas points map to page coordinates; `nil` for the identity (canvas = page).
    public var pageTransform: PageTransform?
    /// An identifier path of the exercise shown under the canvas, like
    /// `"math/decimals/3.5"`; `nil` when unknown.
    public var exercise: String?
    /// Free-form description of the recording device and circumstances; `nil` when unknown.
    public var device: String?
    /// Where the recording came from (a dataset and item, a generator); `nil` when unknown.
    public var source: String?

    /// How timestamps were made up when the recording had none (ink converted from a
    /// file without a time channel); `nil` for recorded timestamps.
    public var synthesizedTiming: SynthesizedTiming?

    /// For a live recording: the version of the engine that recorded it (`InkEngine.version`).
    public var engineVersion: String?
    /// For a live recording: the configuration the engine ran with; a replay that checks
    /// identity runs with it. `nil` for a log that is not a live recording.
    public var engineConfiguration: InkEngineConfiguration?
    /// For a live recording: the page's layout generation when recording began.
    public var pageGeneration: UInt64?
    /// For a live recording: whether region snapshots kept the page's element ids (`false`:
    /// the app left them out).
    public var elementIDs = true

    /// Whether the log is a live recording (it names the engine's configuration).
    public var isRecording: Bool { engineConfiguration != nil }

    /// Creates a header (format version 1: a log of inputs).
    public init(
        canvas: CanvasSize, pageTransform: PageTransform? = nil, exercise: String? = nil,
        device: String? = nil, source: String? = nil, synthesizedTiming: SynthesizedTiming? = nil,
        version: Int = 1
    ) {
        self.synthesizedTiming = synthesizedTiming
        self.version = version
        self.canvas = canvas
        self.pageTransform = pageTransform
        self.exercise = exercise
        self.device = device
        self.source = source
    }
}

/// A size in canvas points.
public struct CanvasSize: Sendable, Hashable {
    /// Width in canvas points.
    public var width: Double
    /// Height in canvas points.
    public var height: Double

    /// Creates a size.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
}
