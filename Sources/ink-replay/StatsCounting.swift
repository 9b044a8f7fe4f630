@_spi(Tooling) import InkCore
@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkRecording

/// A multiset of numbers kept as counts of distinct values, for exact quantiles in memory
/// that does not grow with how many values were added: exact while there are at most
/// ``limit`` distinct values; beyond that each value is rounded (its lowest mantissa bits
/// cleared, 4 bits at a time, until the distinct values fit again), and ``keptBits`` says how
/// many of the 52 remain. Sample intervals on any real clock have few distinct values.
struct ValueCounts {
    /// The most distinct values held.
    static let limit = 1 << 15
    private var counts: [Double: Int] = [:]
    /// How many values were added.
    private(set) var count = 0
    /// The mantissa bits kept (52: every value exact).
    private(set) var keptBits = 52

    /// Whether values were rounded to fit ``limit``.
    var isRounded: Bool { keptBits < 52 }

    mutating func add(_ value: Double, times: Int = 1) {
        counts[rounded(value), default: 0] += times
        count += times
        while counts.count > Self.limit { coarsen(to: keptBits - 4) }
    }

    mutating func merge(_ other: ValueCounts) {
        if other.keptBits < keptBits { coarsen(to: other.keptBits) }
        for (value, times) in other.counts { add(value, times: times) }
    }

    private func rounded(_ value: Double) -> Double {
        guard keptBits < 52, value.isFinite else { return value }
        let dropped = UInt64(52 - keptBits)
        return Double(bitPattern: value.bitPattern & ~((1 << dropped) - 1))
    }

    private mutating func coarsen(to bits: Int) {
        keptBits = max(0, bits)
        var merged: [Double: Int] = [:]
        for (value, times) in counts { merged[rounded(value), default: 0] += times }
        counts = merged
    }

    /// The values above zero, in order.
    var positive: Sorted { Sorted(counts.filter { $0.key > 0 }) }
    /// All the values, in order.
    var all: Sorted { Sorted(counts) }

    /// Distinct values in order with their counts: quantiles by rank.
    struct Sorted {
        private let values: [Double]
        /// The rank just past each distinct value.
        private let ends: [Int]
        let count: Int

        init(_ counts: [Double: Int]) {
            let sorted = counts.sorted { $0.key < $1.key }
            values = sorted.map(\.key)
            var total = 0
            ends = sorted.map { total += $0.value; return total }
            count = total
        }

        var isEmpty: Bool { count == 0 }

        /// The value of rank `round((count - 1) * q)` (0-based), as in a sorted array.
        func quantile(_ q: Double) -> Double {
            guard count > 0 else { return .nan }
            let rank = min(count - 1, Int((Double(count - 1) * q).rounded()))
            var low = 0, high = ends.count - 1
            while low < high {
                let mid = (low + high) / 2
                if ends[mid] > rank { high = mid } else { low = mid + 1 }
            }
            return values[low]
        }
    }
}

/// One session's touches, event by event, as ``SessionLog/samplesByTouch`` groups them (a
/// touch from its `began`, its samples in order; events of a touch that did not begin are not
/// counted): the intervals between a touch's samples, the pauses between a touch's last sample
/// and the first of the touch that began after it, and the session's span (a touch's first sample to the
/// latest touch's last, as the samples are ordered in the log). It holds the
/// touches down, at most ``limit``: beyond that the one that began longest ago counts as
/// ended (only a log with more touches down at once than that reads differently).
struct TouchTracker {
    /// The most touches held down.
    static let limit = HeldTools.limit

    private(set) var touches = 0
    private(set) var samples = 0
    private(set) var intervals = ValueCounts()
    private(set) var pauses = ValueCounts()
    private var firstTime = Double.infinity, lastTime = -Double.infinity

    /// The session's span: its first sample to its last, or `nil` without samples.
    var span: Double? { lastTime >= firstTime ? lastTime - firstTime : nil }

    private struct Touch {
        var serial: Int
        var last: Double?
        /// The first sample of the touch that began next, while this one is down.
        var successorFirst: Double?
    }

    private enum Previous {
        case none
        case down(PlatformTouchID, serial: Int)
        case ended(last: Double?)
    }

    private var down: [PlatformTouchID: Touch] = [:]
    private var order: [(touch: PlatformTouchID, serial: Int)] = []
    private var orderStart = 0
    private var serial = 0
    private var previous = Previous.none

    mutating func add(_ event: SessionEvent) {
        guard case let .touch(touch, _) = event else { return }
        if touch.phase == .began {
            if let old = down.removeValue(forKey: touch.touch) { end(touch.touch, old) }
            begin(touch.touch, first: touch.samples.first?.timestamp)
        }
        guard let i = down.index(forKey: touch.touch) else { return }
        for sample in touch.samples {
            if let last = down.values[i].last { intervals.add(sample.timestamp - last) } else { firstTime = min(firstTime, sample.timestamp) }
            down.values[i].last = sample.timestamp
        }
        samples += touch.samples.count
        if touch.phase == .ended || touch.phase == .cancelled {
            end(touch.touch, down.remove(at: i).value)
        }
    }

    /// The log ended: the touches still down end.
    mutating func finish() {
        for (touch, state) in down { end(touch, state) }
        down.removeAll()
        order.removeAll()
        orderStart = 0
    }

    private mutating func begin(_ touch: PlatformTouchID, first: Double?) {
        touches += 1
        serial += 1
        if let first {
            switch previous {
            case .none: break
            case let .ended(last): if let last { pauses.add(first - last) }
            case let .down(id, serial):
                if let i = down.index(forKey: id), down.values[i].serial == serial { down.values[i].successorFirst = first }
            }
        }
        down[touch] = Touch(serial: serial, last: nil, successorFirst: nil)
        previous = .down(touch, serial: serial)
        order.append((touch, serial))
        while down.count > Self.limit, orderStart < order.count {
            let oldest = order[orderStart]
            orderStart += 1
            if let i = down.index(forKey: oldest.touch), down.values[i].serial == oldest.serial {
                end(oldest.touch, down.remove(at: i).value)
            }
        }
        if orderStart > Self.limit || order.count - orderStart > 2 * Self.limit {
            order = order[orderStart...].filter { down[$0.touch]?.serial == $0.serial }
            orderStart = 0
        }
    }

    private mutating func end(_ touch: PlatformTouchID, _ state: Touch) {
        if let last = state.last { lastTime = max(lastTime, last) }
        if let next = state.successorFirst, let last = state.last { pauses.add(next - last) }
        if case let .down(id, serial) = previous, id == touch, serial == state.serial { previous = .ended(last: state.last) }
    }
}
