import InkCore
import HitTestBridge
/// The first line of a session log: what was recorded, on what, and how to read it.
public struct SessionHeader: Sendable, Hashable {
    /// The format name every session log carries.
    public static let formatName = "scratchpad-ink-session"
    /// The newest format version this library reads and writes.
    public static let currentVersion = 1

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

    /// Creates a header for the current format version.
    public init(
        canvas: CanvasSize, pageTransform: PageTransform? = nil, exercise: String? = nil,
        device: String? = nil, source: String? = nil, synthesizedTiming: SynthesizedTiming? = nil,
        version: Int = SessionHeader.currentVersion
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
