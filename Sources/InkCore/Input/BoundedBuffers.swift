/// Buffers bounded by what they hold now, not by the longest thing they ever held (issue 53:
/// after one host line of 300 KB, every later line allocated a fresh buffer as large as it,
/// because `removeAll(keepingCapacity: true)` on storage a copy still shares allocates new
/// storage of the same capacity). A reused buffer keeps its storage when emptied only while
/// that storage is small: at most ``Swift/Array/keptStorageBytes``.
extension Array {
    /// The most bytes of storage a buffer keeps for reuse when it is emptied: 64 KiB (one
    /// read's chunk). A larger one is released, so what a long-lived reader holds between
    /// lines is bounded by this, whatever it once held.
    package static var keptStorageBytes: Int { 64 << 10 }

    /// Empties the array, keeping its storage for reuse only when it is at most `bytes`.
    package mutating func removeAll(keepingAtMost bytes: Int) {
        let small = capacity &* MemoryLayout<Element>.stride <= bytes
        if small {
            removeAll(keepingCapacity: true)
        } else {
            self = []
        }
    }

    /// Empties the array, keeping its storage only when it is at most ``keptStorageBytes``.
    package mutating func removeAllBounded() {
        removeAll(keepingAtMost: Self.keptStorageBytes)
    }

    /// Removes the first `count` elements. When the storage is then more than twice what is
    /// left and more than ``keptStorageBytes``, what is left moves to storage of its own
    /// size: the buffer does not keep the size of a message it held once.
    package mutating func removeFirstBounded(_ count: Int) {
        let left = self.count - count
        if capacity &* MemoryLayout<Element>.stride > Self.keptStorageBytes, capacity > 2 * left {
            self = Array(self[count...])
        } else {
            removeSubrange(..<count)
        }
    }
}
