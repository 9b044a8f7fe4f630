import CWebKitGTK
import HitTestBridge
import WebKitGTKOracle

/// Reads where the view lands on the page (scroll, zoom) after something moved it, and again
/// every 50 ms until two reads agree (a smooth or kinetic scroll lands over several frames;
/// at most 60 reads), reporting each change. WebKitGTK has no scroll delegate (UIKit's
/// `scrollViewDidScroll(_:)`): this is how the GTK front end learns the page moved. It is not
/// a deadline timer: the engine's deadlines are the ``InkLoop``'s.
final class LayoutFollower {
    private let page: WebKitGTKPage
    private let changed: (PageTransform) -> Void
    private var source: guint = 0
    private var reads = 0
    private(set) var transform: PageTransform

    init(page: WebKitGTKPage, transform: PageTransform, changed: @escaping (PageTransform) -> Void) {
        self.page = page
        self.transform = transform
        self.changed = changed
    }

    deinit {
        if source != 0 { g_source_remove(source) }
    }

    /// The view may move now: read it soon, and until it rests.
    func follow() {
        reads = 0
        guard source == 0 else { return }
        schedule()
    }

    /// A transform the front end learned otherwise (a synchronous read).
    func set(_ transform: PageTransform) { self.transform = transform }

    private func schedule() {
        source = g_timeout_add(50, { context in
            let follower = Unmanaged<LayoutFollower>.fromOpaque(context!).takeUnretainedValue()
            follower.source = 0
            follower.page.canvasToPage { [weak follower] result in
                guard let follower, case let .success(view) = result else { return }
                follower.reads += 1
                let moved = view != follower.transform
                if moved {
                    follower.transform = view
                    follower.changed(view)
                }
                if (moved || follower.reads == 1) && follower.reads < 60 && follower.source == 0 { follower.schedule() }
            }
            return 0
        }, Unmanaged.passUnretained(self).toOpaque())
    }
}
