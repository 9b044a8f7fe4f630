@_spi(Tooling) import InkCore
@_spi(Tooling) import HitTestBridge
/// Builds a session log from strokes, as a recorder would have written it: touch events at
/// their samples' times, the page's answers at their arrival times, events sorted by time.
///
/// Answers are what the page shows at touch-down: `.page` when the latest region snapshot
/// (through the header's page transform) has an interactive region under the first point.
public struct SessionBuilder: Sendable {
    /// The header of the log being built.
    public let header: SessionHeader
    private var events: [SessionEvent] = []
    private var snapshots: [(time: Double, snapshot: RegionSnapshot)] = []

    /// Starts an empty log.
    public init(header: SessionHeader) { self.header = header }

    /// The log built so far, events sorted by time (stable).
    public var log: SessionLog {
        var log = SessionLog(header: header, events: events)
        log.sortEventsByTime()
        return log
    }

    /// Records a region snapshot pushed by the page at `time`.
    @_spi(Tooling) public mutating func regions(_ snapshot: RegionSnapshot, at time: Double) {
        snapshots.append((time, snapshot))
        events.append(.regions(snapshot, time: time))
    }

    /// What the page answers for a canvas point at `time`, from the latest snapshot.
    public func pageVerdict(at point: CanvasPoint, time: Double) -> HitTestVerdict {
        guard let latest = snapshots.last(where: { $0.time <= time }) else { return .ink }
        let transform = header.pageTransform ?? .identity
        return latest.snapshot.verdict(at: transform.pagePoint(for: point))
    }

    /// Records one touch: `began` with the first sample, one `moved` per middle sample, and
    /// `ended` with the last (or `cancelled` after `cancelAfter` samples when given).
    ///
    /// - Parameters:
    ///   - touch: The touch id.
    ///   - samples: At least one sample, in time order.
    ///   - answerAfter: Seconds after touch-down that the page's answer arrives; `nil` for
    ///     a question never answered.
    ///   - verdict: The recorded answer; by default what the regions say at touch-down.
    ///   - duplicateAnswer: Also record the answer a second time, this many seconds later.
    ///   - cancelAfter: Cancel the touch after this many samples instead of ending it.
    ///   - samplesPerEvent: How many samples each `moved` event coalesces.
    public mutating func stroke(
        _ touch: PlatformTouchID, _ samples: [TouchSample], answerAfter: Double?, verdict: HitTestVerdict? = nil,
        duplicateAnswer: Double? = nil, cancelAfter: Int? = nil, samplesPerEvent: Int = 1
    ) {
        guard let first = samples.first else { return }
        events.append(.touch(TouchEvent(touch: touch, phase: .began, samples: [first]), time: first.timestamp))
        let last = cancelAfter.map { min($0, samples.count) } ?? samples.count
        let middleEnd = cancelAfter == nil ? last - 1 : last
        var index = 1
        while index < middleEnd {
            let chunk = Array(samples[index..<min(index + max(1, samplesPerEvent), middleEnd)])
            events.append(.touch(TouchEvent(touch: touch, phase: .moved, samples: chunk), time: chunk.last!.timestamp))
            index += chunk.count
        }
        if cancelAfter != nil {
            let time = samples[max(0, last - 1)].timestamp
            events.append(.touch(TouchEvent(touch: touch, phase: .cancelled, samples: []), time: time))
        } else {
            let tail = samples.count > 1 ? [samples[samples.count - 1]] : []
            events.append(.touch(TouchEvent(touch: touch, phase: .ended, samples: tail), time: samples[samples.count - 1].timestamp))
        }
        if let answerAfter {
            let answer = verdict ?? pageVerdict(at: first.point, time: first.timestamp)
            events.append(.answer(touch: touch, verdict: answer, time: first.timestamp + answerAfter))
            if let duplicateAnswer {
                events.append(.answer(touch: touch, verdict: answer, time: first.timestamp + answerAfter + duplicateAnswer))
            }
        }
    }

    /// Records any other event as is.
    public mutating func append(_ event: SessionEvent) { events.append(event) }
}
