import Testing
@_spi(Tooling) @testable import InkCore
@_spi(Tooling) import HitTestBridge
@_spi(Tooling) @testable import InkRecording

@Suite("Recorded stroke order: layout order sorted, restarted clocks realigned, nothing dropped")
struct RecordedStrokeOrderTests {
    @Test("strokes already in time order (overlapping or not) are kept as recorded")
    func asRecorded() {
        #expect(RecordedStrokeOrder.plan(spans: [(0, 1), (2, 3), (2.5, 4)], gap: 0.2) == .asRecorded)
        #expect(RecordedStrokeOrder.plan(spans: [], gap: 0.2) == .asRecorded)
    }

    @Test("traces in layout order with absolute times are sorted by start time")
    func layoutOrder() {
        let plan = RecordedStrokeOrder.plan(spans: [(5, 6), (0, 1), (2, 3), (7, 8)], gap: 0.2)
        #expect(plan == .sortedByTime([1, 2, 0, 3]))
        #expect(plan.movedStrokes == 3)
    }

    @Test("traces that restart their clock at 0 are laid end to end in document order, gap apart")
    func restartedClocks() {
        let plan = RecordedStrokeOrder.plan(spans: [(0, 1), (0, 0.5), (0, 2)], gap: 0.2)
        guard case let .realigned(offsets) = plan else { Issue.record("\(plan)"); return }
        #expect(offsets == [0, 1.2, 1.9])
        #expect(plan.movedStrokes == 2)
    }

    @Test("every plan keeps every stroke, and afterwards strokes begin in time order (random spans)", arguments: 0..<20)
    func property(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let spans: [(start: Double, end: Double)] = (0..<Int(random.next() % 30)).map { _ in
            let start = Double(random.next() % 100) / 10
            return (start, start + Double(random.next() % 30) / 10)
        }
        let starts: [Double]
        switch RecordedStrokeOrder.plan(spans: spans, gap: 0.2) {
        case .asRecorded: starts = spans.map(\.start)
        case let .sortedByTime(order):
            #expect(order.sorted() == Array(spans.indices))
            starts = order.map { spans[$0].start }
        case let .realigned(offsets):
            #expect(offsets.count == spans.count && offsets.allSatisfy { $0 >= 0 })
            starts = zip(spans, offsets).map { $0.start + $1 }
            let ends = zip(spans, offsets).map { $0.end + $1 }
            #expect(zip(ends, starts.dropFirst()).allSatisfy { $0 <= $1 })   // no overlap left
        }
        #expect(zip(starts, starts.dropFirst()).allSatisfy { $0 <= $1 })
    }
}
