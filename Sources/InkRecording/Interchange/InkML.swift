@_spi(Tooling) import InkCore
@_spi(Tooling) import HitTestBridge
/// One channel of an InkML `<traceFormat>`.
public struct InkMLChannel: Sendable, Hashable {
    /// The value type a channel declares.
    public enum ValueType: String, Sendable, Hashable, CaseIterable {
        /// Whole numbers.
        case integer
        /// Decimal numbers (the default).
        case decimal
        /// Floating-point numbers.
        case double
        /// `T` or `F`.
        case boolean
    }

    /// The channel name (`X`, `Y`, `T`, `F`, `OA`, … or an application's own).
    public var name: String
    /// The declared value type.
    public var type: ValueType
    /// The value an intermittent channel has before it is first given (0 or F by default).
    public var defaultValue: Double
    /// The declared units, if any (`mm`, `ms`, `px`, `dev`, …).
    public var units: String?
    /// The declared smallest value, if any.
    public var min: Double?
    /// The declared largest value, if any.
    public var max: Double?
    /// Whether the axis grows the other way (`orientation="-ve"`).
    public var isInverted: Bool
    /// The `<timestamp>` a time channel is relative to (`#id`), if any.
    public var respectTo: String?
    /// Whether the channel is listed under `<intermittentChannels>`.
    public var isIntermittent: Bool

    /// Creates a channel.
    public init(
        name: String, type: ValueType = .decimal, defaultValue: Double = 0, units: String? = nil,
        min: Double? = nil, max: Double? = nil, isInverted: Bool = false, respectTo: String? = nil,
        isIntermittent: Bool = false
    ) {
        self.name = name
        self.type = type
        self.defaultValue = defaultValue
        self.units = units
        self.min = min
        self.max = max
        self.isInverted = isInverted
        self.respectTo = respectTo
        self.isIntermittent = isIntermittent
    }
}

/// An InkML `<traceFormat>`: the channels of every point, regular ones first.
public struct InkMLTraceFormat: Sendable, Hashable {
    /// The channels in the order values appear in a point.
    public var channels: [InkMLChannel]

    /// Creates a format.
    public init(channels: [InkMLChannel]) { self.channels = channels }

    /// The format a document uses when it declares none: X and Y, decimal.
    public static let `default` = InkMLTraceFormat(channels: [InkMLChannel(name: "X"), InkMLChannel(name: "Y")])

    /// The index of the channel called `name`.
    public func index(of name: String) -> Int? { channels.firstIndex { $0.name == name } }
}

/// How an import filled in timestamps for ink recorded without a time channel.
public struct SynthesizedTiming: Sendable, Hashable {
    /// Samples per second assumed within a stroke.
    public var sampleRate: Double
    /// Seconds assumed between the end of a stroke and the start of the next, when the
    /// file gives no start time.
    public var strokeGap: Double

    /// Creates a timing description.
    public init(sampleRate: Double, strokeGap: Double) {
        self.sampleRate = sampleRate
        self.strokeGap = strokeGap
    }
}

/// Choices an InkML import makes where the file is silent.
public struct InkMLImportOptions: Sendable, Hashable {
    /// The sample rate (Hz) for traces without a T channel, when the file states none.
    public var sampleRate: Double
    /// Seconds between strokes for traces without a T channel or a `timeOffset`.
    public var strokeGap: Double
    /// The tool of every touch; `nil` picks `.pencil` for traces with a force channel and
    /// `.finger` for the others.
    public var tool: ToolKind?

    /// The defaults: 60 Hz, 0.2 s between strokes, tool chosen by the force channel.
    public init(sampleRate: Double = 60, strokeGap: Double = 0.2, tool: ToolKind? = nil) {
        self.sampleRate = sampleRate
        self.strokeGap = strokeGap
        self.tool = tool
    }
}

/// One stroke read from an InkML file: the samples of a pen-down trace (or of a trace and
/// its continuations) in canvas points and seconds.
public struct InkMLStroke: Sendable, Hashable {
    /// The 0-based index of the (first) trace among the document's traces.
    public var trace: Int
    /// The line of its `<trace>` tag.
    public var line: Int
    /// The trace's `xml:id`, if any.
    public var id: String?
    /// The samples: x and y in canvas points (CSS pixels, 96 per inch), timestamps in
    /// seconds from the document's time origin, force normalised to 0...1.
    public var samples: [TouchSample]
}

/// Why (part of) an InkML file could not be read.
public struct InkMLError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file, when known.
    public var file: String?
    /// The 1-based line.
    public var line: Int
    /// The 0-based index of the trace at fault, when the fault is in a trace.
    public var trace: Int?
    /// The 0-based point within the trace, when known.
    public var point: Int?
    /// What was wrong.
    public var message: String
    /// Whether reading stopped here. A fault confined to one trace is not fatal: that
    /// trace is left out and the reader goes on with the next.
    public var isFatal: Bool

    /// `file:line: trace N, point K: message`.
    public var description: String {
        var text = (file ?? "<inkml>") + ":\(line): "
        if let trace { text += "trace \(trace)" + (point.map { ", point \($0)" } ?? "") + ": " }
        return text + message
    }
}

/// What an InkML import found besides strokes.
public struct InkMLReadSummary: Sendable, Hashable {
    /// `<trace>` elements outside `<definitions>`.
    public var traces = 0
    /// Strokes delivered (a trace with continuations counts once, unless it was split).
    public var strokes = 0
    /// Times a chain of continued traces reached the per-trace limit of points (500,000)
    /// and was split there: the joined points so far became one stroke and the
    /// continuation began the next.
    public var splitContinuations = 0
    /// Points in the strokes delivered.
    public var points = 0
    /// Pen-up (hover) traces, left out.
    public var penUpTraces = 0
    /// `<traceView>` elements, not followed (they select parts of traces defined elsewhere).
    public var traceViews = 0
    /// Traces that failed and were left out.
    public var faultyTraces = 0
    /// How timestamps were made up for traces without a T channel; `nil` when every trace
    /// had one.
    public var synthesizedTiming: SynthesizedTiming?
    /// `<annotation type="…">` texts at the document level (the first of each type).
    public var annotations: [String: String] = [:]
    /// Assumptions the import made, in words (units taken as canvas points, and so on).
    public var notes: [String] = []
    /// Names of the channels seen, in first-seen order.
    public var channels: [String] = []

    /// An empty summary.
    public init() {}
}
