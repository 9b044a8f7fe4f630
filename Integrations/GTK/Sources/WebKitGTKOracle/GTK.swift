import CWebKitGTK
import Foundation

/// Why something in WebKitGTK or GTK failed.
public enum WebKitGTKError: Error, Sendable, Hashable, CustomStringConvertible {
    /// GTK could not open a display (run under `xvfb-run -a`, or set `DISPLAY`).
    case noDisplay
    /// The page did not load.
    case loadFailed(String)
    /// Nothing came back in time.
    case timeout(what: String, seconds: Double)
    /// A script threw, or returned something other than what was asked for.
    case scriptFailed(String)
    /// The package's page script could not be read.
    case pageScriptMissing(String)
    /// GTK was already initialised on another thread (GTK is single-threaded).
    case otherThread
    /// The GTK thread could not be started.
    case threadFailed(Int32)

    /// A sentence saying what failed.
    public var description: String {
        switch self {
        case .noDisplay: "GTK could not open a display (run under xvfb-run -a, or set DISPLAY)"
        case let .loadFailed(reason): "the page did not load: \(reason)"
        case let .timeout(what, seconds): "\(what): no answer within \(seconds) s"
        case let .scriptFailed(reason): "a script failed: \(reason)"
        case let .pageScriptMissing(reason): "could not load the page script: \(reason)"
        case .otherThread: "GTK runs on another thread of this process; use GTK from that thread only"
        case let .threadFailed(code): "could not start the GTK thread (pthread_create: \(code))"
        }
    }
}

/// GTK's process-wide state: initialisation and the main context.
///
/// GTK and WebKitGTK are single-threaded: every call must come from the thread that
/// initialised GTK. A program that owns its main thread calls ``initialize()`` there and
/// runs the main loop itself (`scratchpad-gtk` does); code that runs on other threads
/// (Swift tasks, tests) goes through ``GTKThread``.
public enum GTK {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var owner: pthread_t?

    /// Initialises GTK on the calling thread, once per process; later calls from the same
    /// thread do nothing.
    /// - Throws: ``WebKitGTKError/noDisplay`` when no display can be opened;
    ///   ``WebKitGTKError/otherThread`` when GTK was initialised on another thread.
    public static func initialize() throws(WebKitGTKError) {
        lock.lock()
        defer { lock.unlock() }
        if let owner {
            guard pthread_equal(owner, pthread_self()) != 0 else { throw .otherThread }
            return
        }
        guard gtk_init_check(nil, nil) != 0 else { throw .noDisplay }
        owner = pthread_self()
    }

    /// Whether the caller is the thread GTK was initialised on.
    public static var isGTKThread: Bool {
        lock.lock()
        defer { lock.unlock() }
        return owner.map { pthread_equal($0, pthread_self()) != 0 } ?? false
    }

    /// Seconds of the monotonic clock, the timebase of every sample the front end makes.
    public static var now: Double { Double(g_get_monotonic_time()) / 1e6 }

    /// The monotonic clock in milliseconds, wrapped to 32 bits: the `time` field of GDK events.
    package static var eventTime: UInt32 { UInt32(truncatingIfNeeded: g_get_monotonic_time() / 1000) }

    /// Runs the main context (nested: callbacks, signals and WebKit's replies are
    /// dispatched meanwhile) until `done` is true or `timeout` seconds pass.
    /// - Returns: whether `done` became true.
    @discardableResult
    public static func spin(timeout: Double, until done: () -> Bool) -> Bool {
        let deadline = now + timeout
        // A wake-up every 5 ms, so the time limit is seen when nothing else happens; it does
        // not delay anything (an arriving message wakes the context at once).
        let wake = g_timeout_add(5, { _ in 1 }, nil)
        defer { g_source_remove(wake) }
        while !done() {
            if now >= deadline { return false }
            g_main_context_iteration(nil, 1)
        }
        return true
    }

    /// Runs the main context for `seconds`, dispatching whatever comes.
    public static func spin(for seconds: Double) {
        let end = now + seconds
        spin(timeout: seconds + 1) { now >= end }
    }
}

/// A thread of its own that runs GTK's main loop, for code that does not own the main
/// thread (tests, Swift tasks). ``run(_:)`` runs a closure on it and waits; the closure may
/// spin the main context (``GTK/spin(timeout:until:)``) while it waits for WebKit.
public final class GTKThread: @unchecked Sendable {
    /// The process's GTK thread, started (and GTK initialised on it) at first use.
    public static let shared = GTKThread()

    private let started = DispatchSemaphore(value: 0)
    private var failure: WebKitGTKError?
    private var thread = pthread_t()

    private init() {
        let box = Unmanaged.passRetained(self)
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        pthread_attr_setstacksize(&attributes, 8 << 20)
        let created = pthread_create(&thread, &attributes, { context in
            let owner = Unmanaged<GTKThread>.fromOpaque(context!).takeRetainedValue()
            do throws(WebKitGTKError) { try GTK.initialize() } catch { owner.failure = error }
            if owner.failure != nil {
                owner.started.signal()
                return nil
            }
            // Started only once the loop runs and owns the main context: before that,
            // g_main_context_invoke would run a job on the caller's own thread.
            g_idle_add_full(G_PRIORITY_HIGH, { context in
                Unmanaged<GTKThread>.fromOpaque(context!).takeUnretainedValue().started.signal()
                return 0
            }, Unmanaged.passUnretained(owner).toOpaque(), nil)
            g_main_loop_run(g_main_loop_new(nil, 0))
            return nil
        }, box.toOpaque())
        pthread_attr_destroy(&attributes)
        if created != 0 {
            box.release()
            failure = .threadFailed(created)
            return
        }
        started.wait()
    }

    /// Why the thread could not start GTK, if it could not (nothing posted to it runs then).
    public var startError: WebKitGTKError? { failure }

    /// Whether the caller is on the GTK thread.
    public var isCurrent: Bool { pthread_equal(pthread_self(), thread) != 0 }

    private final class Job: @unchecked Sendable {
        /// Let go of once run: a closure from `withoutActuallyEscaping` must not outlive the call.
        private var work: (() -> Void)?
        let done = DispatchSemaphore(value: 0)
        init(_ work: @escaping () -> Void) { self.work = work }
        func execute() {
            work?()
            work = nil
            done.signal()
        }
    }

    /// Runs `body` on the GTK thread and waits for it; on the GTK thread, runs it at once.
    /// What it returns must be `Sendable`: a page or a window never leaves the GTK thread.
    /// - Throws: ``WebKitGTKError/noDisplay`` or ``WebKitGTKError/otherThread`` when GTK
    ///   could not start here, or what `body` threw.
    public func run<T: Sendable>(_ body: () throws -> T) throws -> T {
        if let failure { throw failure }
        if isCurrent { return try body() }
        return try withoutActuallyEscaping(body) { body in
            var result: Result<T, any Error>?
            let job = Job { result = Result { try body() } }
            post(job)
            job.done.wait()
            return try result!.get()
        }
    }

    /// Runs `body` on the GTK thread later (from its main loop, even when called there),
    /// without waiting. Does nothing when GTK could not start.
    public func post(_ body: @escaping @Sendable () -> Void) {
        guard failure == nil else { return }
        post(Job(body))
    }

    private func post(_ job: Job) {
        g_idle_add_full(G_PRIORITY_DEFAULT, { context in
            Unmanaged<Job>.fromOpaque(context!).takeUnretainedValue().execute()
            return 0
        }, Unmanaged.passRetained(job).toOpaque(), { context in
            Unmanaged<Job>.fromOpaque(context!).release()
        })
    }
}

/// A typed pointer to a GObject (or any C struct) seen as another type, as GTK's casting
/// macros do.
@inline(__always)
package func cast<T>(_ pointer: UnsafeMutableRawPointer) -> UnsafeMutablePointer<T> {
    pointer.assumingMemoryBound(to: T.self)
}

@inline(__always)
package func cast<T, U>(_ pointer: UnsafeMutablePointer<U>) -> UnsafeMutablePointer<T> {
    UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: T.self)
}
