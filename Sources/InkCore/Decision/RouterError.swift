/// Input the decision engine refuses. A refused input changes no touch's state and produces
/// no action; `InkEngine` (HitTestBridge) counts its samples as received and refused
/// (``SampleLedger/refused``).
package enum RouterError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A sample has a non-finite position or timestamp, or a property out of range.
    case invalidSample(TouchID, TouchSample)
    /// A sample is older than the touch's previous sample.
    case timestampWentBackwards(TouchID, previous: Double, got: Double)
    /// A `began` event carried no sample.
    case beganWithoutSample(TouchID)
    /// A `began` event named a touch that has not finished: still down, or ended but still
    /// undecided (its actions are yet to come under that id). Give each touch its own id;
    /// `InkEngine` (HitTestBridge) maps platform ids that are reused to fresh ones.
    case touchAlreadyActive(TouchID)
    /// A `moved`, `ended` or `cancelled` event, or an update, named no active touch.
    case unknownTouch(TouchID)
    /// An estimated-property update named an index no sample of the touch carries.
    case unknownUpdateIndex(TouchID, UInt64)
    /// An estimated-property update's index is awaited by more than one sample of the
    /// touches its id named (a platform that numbers indices per touch, its id reused): the
    /// engine cannot tell whose it is, so it refines neither.
    case ambiguousUpdateIndex(TouchID, UInt64)
    /// An estimated-property update carried a non-finite or out-of-range value.
    case invalidUpdate(TouchID, UInt64)

    /// The touch the error is about.
    package var touch: TouchID {
        switch self {
        case let .invalidSample(touch, _), let .timestampWentBackwards(touch, _, _), let .beganWithoutSample(touch),
             let .touchAlreadyActive(touch), let .unknownTouch(touch), let .unknownUpdateIndex(touch, _),
             let .ambiguousUpdateIndex(touch, _), let .invalidUpdate(touch, _):
            return touch
        }
    }

    /// The same error about another touch id (a replay maps engine ids back to log ids).
    package func replacingTouch(_ id: TouchID) -> RouterError {
        switch self {
        case let .invalidSample(_, sample): return .invalidSample(id, sample)
        case let .timestampWentBackwards(_, previous, got): return .timestampWentBackwards(id, previous: previous, got: got)
        case .beganWithoutSample: return .beganWithoutSample(id)
        case .touchAlreadyActive: return .touchAlreadyActive(id)
        case .unknownTouch: return .unknownTouch(id)
        case let .unknownUpdateIndex(_, index): return .unknownUpdateIndex(id, index)
        case let .ambiguousUpdateIndex(_, index): return .ambiguousUpdateIndex(id, index)
        case let .invalidUpdate(_, index): return .invalidUpdate(id, index)
        }
    }

    /// A one-line explanation.
    package var description: String {
        switch self {
        case let .invalidSample(touch, sample):
            var text = "\(touch): invalid sample (x \(sample.x), y \(sample.y), t \(sample.timestamp), force \(sample.force.map { "\($0)" } ?? "none")): coordinates and time must be finite, force 0...1"
            if let force = sample.force, !force.isFinite {
                text += "; a non-finite force usually comes from force / maximumPossibleForce on a device that does not "
                    + "sense force (maximumPossibleForce is 0): pass nil for 'no force', or map it with "
                    + "TouchSample.normalizedForce(_:maximumPossibleForce:)"
            }
            return text
        case let .timestampWentBackwards(touch, previous, got):
            return "\(touch): timestamp went backwards from \(previous) s to \(got) s"
        case let .beganWithoutSample(touch):
            return "\(touch): a began event must carry the touch-down sample"
        case let .touchAlreadyActive(touch):
            return "\(touch): began while a touch with this id is unfinished (down, or ended and still undecided)"
        case let .unknownTouch(touch):
            return "\(touch): no such active touch"
        case let .unknownUpdateIndex(touch, index):
            return "\(touch): no sample awaits estimated-property update \(index)"
        case let .ambiguousUpdateIndex(touch, index):
            return "\(touch): more than one sample awaits estimated-property update \(index) (indices numbered per touch?): applied to none"
        case let .invalidUpdate(touch, index):
            return "\(touch): estimated-property update \(index) has a non-finite or out-of-range value"
        }
    }
}
