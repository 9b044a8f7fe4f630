/// A sample the stroke geometry refuses. A refused sample changes nothing.
@_spi(Tooling) public enum StrokeInputError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A coordinate, the timestamp or the force is not finite (or force is outside 0...1).
    case nonFinite(TouchSample)
    /// The sample is older than the previous one.
    case timestampWentBackwards(previous: Double, got: Double)
    /// The stroke is finished; it takes no more samples.
    case finished

    /// A one-line explanation.
    public var description: String {
        switch self {
        case let .nonFinite(sample):
            return "sample (x \(sample.x), y \(sample.y), t \(sample.timestamp)) has a non-finite or out-of-range value"
        case let .timestampWentBackwards(previous, got):
            return "timestamp went backwards from \(previous) s to \(got) s"
        case .finished:
            return "the stroke is finished"
        }
    }
}
