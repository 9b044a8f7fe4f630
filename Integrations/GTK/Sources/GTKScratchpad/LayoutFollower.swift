import HitTestBridge
import WebKitGTKOracle

/// Reads where the view lands on the page (scroll, zoom) after something moved it, and again
/// as soon as each read answers, until two reads agree (at most 60), reporting each change.
/// WebKitGTK has no scroll delegate (UIKit's `scrollViewDidScroll(_:)`): this is how the GTK
/// front end learns the page moved. It keeps no timer: a smooth or kinetic scroll that goes on
/// after two reads agreed makes the page script push a snapshot of a new layout generation,
/// and the window follows again then.
final class LayoutFollower {
    private let page: WebKitGTKPage
    private let changed: (PageTransform) -> Void
    private var reading = false
    private var again = false
    private var reads = 0
    private(set) var transform: PageTransform

    init(page: WebKitGTKPage, transform: PageTransform, changed: @escaping (PageTransform) -> Void) {
        self.page = page
        self.transform = transform
        self.changed = changed
    }

    /// The view may move now: read it, and until it rests.
    func follow() {
        reads = 0
        guard !reading else {
            again = true
            return
        }
        read()
    }

    /// A transform the front end learned otherwise (a synchronous read).
    func set(_ transform: PageTransform) { self.transform = transform }

    private func read() {
        reading = true
        again = false
        page.canvasToPage { [weak self] result in
            guard let self else { return }
            reading = false
            reads += 1
            var moved = false
            if case let .success(view) = result, view != transform {
                transform = view
                moved = true
                changed(view)
            }
            if (moved || again) && reads < 60 { read() }
        }
    }
}
