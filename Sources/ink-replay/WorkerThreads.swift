#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Threads started with `pthread_create` itself, so that a thread the system refuses (a
/// process limit, `ulimit -u`; no address space for its stack, `ulimit -v`) is known at once
/// (issue 53: `verify --jobs 200` under a 1 GB address space waited forever, at 0 % CPU, for
/// a signal from workers `Thread` never started, and never said so).
///
/// ``start(_:stackBytes:body:)`` starts up to `count` threads, each running `body(index)`
/// once the pool is settled: when the system refuses one, no more are asked for and, since
/// the refusal shows that room is short, only half of those that started take part. The
/// caller learns how many run and why the others do not, and waits only for threads that
/// exist (``join()``).
///
/// A refusal for address space (`ulimit -v`) comes when the stacks have taken nearly all of
/// it, so nothing may allocate until room is given back (stop 56: CI's `verify --jobs 200`
/// under 1 GB crashed, "failed to allocate 11320 bytes", as did 300 MB, 700 MB and 1.2 GB
/// here). So the pool allocates all it needs before the first thread, holds a reserve of
/// address space while it asks for threads and gives it back after, and lets the admitted
/// threads run only once those not admitted have ended and been joined (a thread's stack
/// stays mapped until it is joined).
final class WorkerThreads: @unchecked Sendable {
    /// How many threads run `body`.
    private(set) var running = 0
    /// The error number of the refusal, when the system refused a thread.
    private(set) var refusal: Int32?
    /// The threads asked for.
    let requested: Int

    private var threads: [pthread_t] = []
    private let gate = NSCondition()
    /// `nil` until the pool is settled; then how many threads take part. Those not admitted
    /// end when it is set.
    private var admitted: Int?
    /// Set once those not admitted are joined: the admitted threads start their work then.
    private var released = false

    /// Address space held while threads are asked for, so that the moment a stack is
    /// refused is not also a moment with no room for anything else.
    static let reserveBytes = 32 << 20

    private init(requested: Int) { self.requested = requested }

    /// What a started thread runs: waits for the pool to be settled, then, if its index is
    /// admitted, for the others to be joined, and runs the body.
    private final class Start {
        let pool: WorkerThreads
        let index: Int
        let body: @Sendable (Int) -> Void
        init(pool: WorkerThreads, index: Int, body: @escaping @Sendable (Int) -> Void) {
            self.pool = pool
            self.index = index
            self.body = body
        }

        func run() {
            pool.gate.lock()
            while pool.admitted == nil { pool.gate.wait() }
            let isAdmitted = index < pool.admitted!
            while isAdmitted && !pool.released { pool.gate.wait() }
            pool.gate.unlock()
            if isAdmitted { body(index) }
        }
    }

    /// Starts up to `count` threads with stacks of `stackBytes`; `running` says how many run
    /// `body` (0 when the system refused the first: the caller then does the work itself).
    static func start(_ count: Int, stackBytes: Int, body: @escaping @Sendable (_ index: Int) -> Void) -> WorkerThreads {
        let pool = WorkerThreads(requested: count)
        // Everything the loop below needs is allocated before it: no allocation happens
        // between a thread's start and the refusal of the next.
        let starts = (0..<count).map { Unmanaged.passRetained(Start(pool: pool, index: $0, body: body)).toOpaque() }
        pool.threads.reserveCapacity(count)
        // Initialized by pthread_attr_init, not by Swift (the type's importer differs by platform).
        let attributes = UnsafeMutablePointer<pthread_attr_t>.allocate(capacity: 1)
        pthread_attr_init(attributes)
        defer {
            pthread_attr_destroy(attributes)
            attributes.deallocate()
        }
        _ = pthread_attr_setstacksize(attributes, stackBytes)
        let reserve = mmap(nil, reserveBytes, PROT_NONE, MAP_PRIVATE | MAP_ANON, -1, 0)
        for (index, start) in starts.enumerated() {
            #if canImport(Glibc)
            var thread = pthread_t()
            let status = pthread_create(&thread, attributes, { raw in
                Unmanaged<Start>.fromOpaque(raw!).takeRetainedValue().run()
                return nil
            }, start)
            #else
            var created: pthread_t?
            let status = pthread_create(&created, attributes, { raw in
                Unmanaged<Start>.fromOpaque(raw).takeRetainedValue().run()
                return nil
            }, start)
            let thread = created
            #endif
            guard status == 0 else {
                for unused in starts[index...] { Unmanaged<Start>.fromOpaque(unused).release() }
                pool.refusal = status
                break
            }
            #if canImport(Glibc)
            pool.threads.append(thread)
            #else
            if let thread { pool.threads.append(thread) }
            #endif
        }
        if let reserve, reserve != UnsafeMutableRawPointer(bitPattern: -1) { munmap(reserve, reserveBytes) }
        let started = pool.threads.count
        pool.running = pool.refusal == nil ? started : started / 2
        pool.gate.lock()
        pool.admitted = pool.running
        pool.gate.broadcast()
        pool.gate.unlock()
        for thread in pool.threads[pool.running...] { _ = pthread_join(thread, nil) }
        pool.threads.removeSubrange(pool.running...)
        pool.gate.lock()
        pool.released = true
        pool.gate.broadcast()
        pool.gate.unlock()
        return pool
    }

    /// Waits for every thread started (those not admitted end at once).
    func join() {
        for thread in threads { _ = pthread_join(thread, nil) }
        threads.removeAll()
    }

    /// Why the system refused a thread, in words (`strerror`).
    var refusalText: String? { refusal.map { String(cString: strerror($0)) } }
}
