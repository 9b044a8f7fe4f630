import CWebKitGTK
import HitTestBridge

/// An `InkSession`'s transport over a ``WebKitGTKPage`` (`InkSession { try await oracle.send($0) }`), on any thread: the
/// transport an app over WebKitGTK gives its session, shaped as the iOS one is.
///
/// ``send(_:)`` evaluates the request's `scriptInvocation` in the page script's world, on
/// the GTK thread, and returns `nil` once the script took it: the answer comes later, as a
/// message. Every message the page script posts (answers and region snapshots) is yielded
/// by ``messages``, in the order it arrived; submit each to the session as a `.pageMessage`
/// input:
///
/// ```swift
/// let oracle = try GTKThread.shared.run { WebKitGTKOracle(page: try WebKitGTKPage()) }
/// let session = InkSession { try await oracle.send($0) }   // its default clock is GTK.now's: CLOCK_MONOTONIC
/// Task { await session.run() }
/// Task { for await message in oracle.messages { session.submit(.pageMessage(message)) } }
/// Task { for await batch in session.events { … } }   // ink, the page's touches
/// ```
///
/// The page is used only on the GTK thread, through ``GTKThread``.
public final class WebKitGTKOracle: @unchecked Sendable {
    /// The page. Touch it on the GTK thread only.
    public var page: WebKitGTKPage { holder.page! }
    private let holder: Holder
    private let thread: GTKThread

    /// Holds the page, so that its last reference goes on the GTK thread: WebKit aborts when
    /// a web view is freed on another.
    private final class Holder: @unchecked Sendable {
        var page: WebKitGTKPage?
        init(_ page: WebKitGTKPage) { self.page = page }
    }
    /// Every message the page script posted, in order, as text (untrusted: the bridge
    /// validates it). Buffers at most 1,000 not yet read; the oldest are dropped beyond.
    public let messages: AsyncStream<String>
    private let continuation: AsyncStream<String>.Continuation

    /// An oracle over `page`; create it on the GTK thread. From now on the page's messages
    /// go to ``messages``.
    public init(page: WebKitGTKPage, thread: GTKThread = .shared) {
        holder = Holder(page)
        self.thread = thread
        (messages, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingNewest(1_000))
        let continuation = continuation
        page.onMessage = { message in continuation.yield(String(decoding: message.bytes, as: UTF8.self)) }
    }

    deinit {
        continuation.finish()
        let holder = holder
        thread.post { holder.page = nil }
    }

    /// Evaluates the request in the page script's world; returns `nil` when the script took
    /// it (its answer comes through ``messages``).
    /// - Throws: ``WebKitGTKError`` when the page script is not there or the evaluation
    ///   failed: the bridge's fallback then decides at once.
    public func send(_ request: HitTestRequest) async throws -> String? {
        if let failure = thread.startError { throw failure }
        return try await withCheckedThrowingContinuation { (done: CheckedContinuation<String?, any Error>) in
            thread.post { [self] in
                page.send(request) { result in
                    switch result {
                    case .success: done.resume(returning: nil)
                    case let .failure(error): done.resume(throwing: error)
                    }
                }
            }
        }
    }
}
