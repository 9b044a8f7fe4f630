/// Items waiting for their time, taken earliest first; items at the same time come out in
/// the order they were scheduled. A binary heap: O(log n) to schedule and to take.
package struct TimedQueue<Item: Sendable>: Sendable {
    private struct Entry: Sendable {
        var time: Double
        var order: UInt64
        var item: Item

        func precedes(_ other: Entry) -> Bool { time < other.time || (time == other.time && order < other.order) }
    }

    private var heap: [Entry] = []
    private var scheduled: UInt64 = 0

    package init() {}

    /// How many items wait.
    package var count: Int { heap.count }
    /// `true` when nothing waits.
    package var isEmpty: Bool { heap.isEmpty }
    /// The time of the earliest item, if any.
    package var nextTime: Double? { heap.first?.time }

    /// Adds an item due at `time`.
    package mutating func schedule(_ item: Item, at time: Double) {
        scheduled &+= 1
        heap.append(Entry(time: time, order: scheduled, item: item))
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the earliest item when it is due at or before `time`.
    package mutating func take(dueBy time: Double) -> (time: Double, item: Item)? {
        guard let first = heap.first, first.time <= time else { return nil }
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1, right = left + 1
                var best = parent
                if left < heap.count, heap[left].precedes(heap[best]) { best = left }
                if right < heap.count, heap[right].precedes(heap[best]) { best = right }
                guard best != parent else { break }
                heap.swapAt(parent, best)
                parent = best
            }
        }
        return (first.time, first.item)
    }
}
