import Foundation

/// Things that arrive from other tasks (requests a fake page was sent, events a consumer
/// drew, refusals), and a wait for the first `count` of them that suspends until they are
/// there: a test waits deterministically, never by spinning on `Task.yield()` or sleeping.
///
/// ```swift
/// let sent = Arrivals<HitTestRequest>()
/// let session = InkSession(clock: clock) { request in sent.append(request); return nil }
/// let first = await sent.wait(for: 1)[0]   // resumes once the session has sent it
/// ```
public final class Arrivals<Element: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Element] = []
    private var waiters: [(count: Int, continuation: CheckedContinuation<[Element], Never>)] = []

    /// An empty list.
    public init() {}

    /// What has arrived so far, in order.
    public var all: [Element] { lock.withLock { items } }

    /// How many have arrived.
    public var count: Int { lock.withLock { items.count } }

    /// One more arrived: every wait it completes resumes.
    public func append(_ element: Element) {
        let ready: [(CheckedContinuation<[Element], Never>, [Element])] = lock.withLock {
            items.append(element)
            let ready = waiters.filter { $0.count <= items.count }.map { ($0.continuation, items) }
            waiters.removeAll { $0.count <= items.count }
            return ready
        }
        for (continuation, items) in ready { continuation.resume(returning: items) }
    }

    /// Several arrived, in order.
    public func append(contentsOf elements: some Sequence<Element>) {
        for element in elements { append(element) }
    }

    /// Suspends until at least `count` have arrived; returns all that have.
    @discardableResult
    public func wait(for count: Int) async -> [Element] {
        await withCheckedContinuation { (continuation: CheckedContinuation<[Element], Never>) in
            let ready: [Element]? = lock.withLock {
                if items.count >= count { return items }
                waiters.append((count, continuation))
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
