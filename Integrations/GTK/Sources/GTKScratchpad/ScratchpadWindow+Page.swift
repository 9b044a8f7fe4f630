import CWebKitGTK
import HitTestBridge
import InkCore
import WebKitGTKOracle

/// The page's side of the window: the overlay's input shape cut to the regions that route to
/// the page, a resize, a new document, and the page's messages and layout generations.
extension ScratchpadWindow {
    /// Cuts a hole in the overlay's input shape over every interactive region of the page's
    /// fresh snapshot, so touches there reach the web view natively; with no fresh snapshot
    /// the overlay takes every touch.
    func reshape(for regions: TouchDownRegions?, force: Bool) {
        // Under hand-over routing the overlay takes every touch.
        guard !isDestroyed, loop.configuration.routing == .decideAtTouchDown else { return }
        let width = Double(gtk_widget_get_allocated_width(canvas)), height = Double(gtk_widget_get_allocated_height(canvas))
        var holes: [CanvasRect] = []
        for rect in regions?.rects ?? [] {
            // In whole pixels, covering the region, clipped to the canvas.
            let minX = max(0, rect.minX.rounded(.down)), minY = max(0, rect.minY.rounded(.down))
            let maxX = min(width, rect.maxX.rounded(.up)), maxY = min(height, rect.maxY.rounded(.up))
            if minX < maxX, minY < maxY { holes.append(CanvasRect(minX: minX, minY: minY, maxX: maxX, maxY: maxY)) }
        }
        let shape: [CanvasRect]? = regions == nil ? nil : holes
        guard force || shape != inputShapeHoles else { return }
        inputShapeHoles = shape
        var full = cairo_rectangle_int_t(x: 0, y: 0, width: gint(width), height: gint(height))
        let region = cairo_region_create_rectangle(&full)
        for hole in holes {
            var cut = cairo_rectangle_int_t(x: gint(hole.minX), y: gint(hole.minY), width: gint(hole.width), height: gint(hole.height))
            cairo_region_subtract_rectangle(region, &cut)
        }
        gtk_widget_input_shape_combine_region(canvas, region)
        cairo_region_destroy(region)
    }

    // MARK: The page

    /// The canvas (and the web view under it) got a new size: the window was resized. The
    /// page reflows: the loop drops the region snapshot of the old layout (touch-downs are
    /// asked until the page pushes one of the new layout, which the loop asks for), and the
    /// input shape covers the new size.
    func allocated(width: Int, height: Int) {
        defer { allocatedSize = (width, height) }
        guard let previous = allocatedSize, previous != (width, height), !isDestroyed, ownsPage else { return }
        deliver(.viewResized(transform))
        reshape(for: loop.touchDownRegions, force: true)
        layout.follow()
    }

    /// A navigation committed, or the web process terminated: a new document, at the top of
    /// the page at the zoom the view had, until the view is read again.
    func documentChanged() {
        let view = PageTransform(scale: transform.scale, offsetX: 0, offsetY: 0)
        lastRegionsGeneration = nil
        layout.set(view)
        deliver(.newDocument(view))
        layout.follow()
    }

    /// The page's message, as bytes, for the loop to validate.
    func take(_ message: WebKitGTKPage.PostedMessage) {
        deliver(.pageMessage(message.bytes))
    }

    /// The regions a touch-down is routed by changed (a snapshot taken, gone stale, or the
    /// view moved). A new layout generation may mean the page moved itself (a scroll it made, a
    /// fling still going) or changed colour: look at where the view lands and at the
    /// background again.
    func regionsChanged(_ regions: TouchDownRegions?) {
        reshape(for: regions, force: false)
        if let generation = regions?.generation, generation != lastRegionsGeneration {
            lastRegionsGeneration = generation
            layout.follow()
            learnPageBackground()
        }
    }
}
