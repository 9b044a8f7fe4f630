import CWebKitGTK
import HitTestBridge
import InkCore
import WebKitGTKOracle

/// Drawing the ink over the page, and erasing it.
extension ScratchpadWindow {
    // MARK: Drawing

    /// Redraws the overlay where ink at these page coordinates lies now.
    func invalidate(page bounds: PageRect) {
        let view = transform
        invalidate(view.canvasRect(for: bounds))
    }

    func invalidate(_ bounds: CanvasRect) {
        // Clipped to the canvas first: a stroke far outside it (a log's huge coordinates)
        // redraws nothing, and never overflows GTK's integers.
        guard bounds.minX.isFinite, bounds.minY.isFinite, bounds.maxX.isFinite, bounds.maxY.isFinite else { return }
        let width = Double(gtk_widget_get_allocated_width(canvas)), height = Double(gtk_widget_get_allocated_height(canvas))
        let minX = max(0, bounds.minX - 2), minY = max(0, bounds.minY - 2)
        let maxX = min(width, bounds.maxX + 2), maxY = min(height, bounds.maxY + 2)
        guard minX < maxX, minY < maxY else { return }
        let x = Int(minX.rounded(.down)), y = Int(minY.rounded(.down))
        gtk_widget_queue_draw_area(canvas, gint(x), gint(y), gint(Int(maxX.rounded(.up)) - x), gint(Int(maxY.rounded(.up)) - y))
    }

    func draw(_ cr: OpaquePointer) {
        let start = GTK.now
        defer { drawSeconds += GTK.now - start }
        var x0 = 0.0, y0 = 0.0, x1 = 0.0, y1 = 0.0
        cairo_clip_extents(cr, &x0, &y0, &x1, &y1)
        let clip = CanvasRect(minX: x0, minY: y0, maxX: x1, maxY: y1)
        redrawnArea += Self.clipArea(cr) ?? clip.width * clip.height
        framesDrawn += 1
        // Strokes are in page coordinates: drawn through the page's current transform.
        let view = transform
        let pageClip = view.pageRect(for: clip), inkClip = pageClip.inkLayerRect
        let color = effectiveInkColor
        // Finished ink: each tile's picture, made once, painted where the tile is now.
        if usesInkCache {
            inkTiles.paint(ink.layer, in: pageClip, view: view, color: color, deviceScale: gtk_widget_get_scale_factor(canvas),
                           now: start, on: cr)
            if settleWake == nil, let due = inkTiles.settleDue(now: start) {
                // The zoom is settling: once it has rested, the pictures are made again at
                // its resolution.
                settleWake = GLibClock().wake(at: start + due + 0.001) { [weak self] in
                    guard let self else { return }
                    settleWake = nil
                    if !isDestroyed { gtk_widget_queue_draw(canvas) }
                }
            }
        }
        cairo_save(cr)
        let toCanvas = view.pageToCanvas
        cairo_translate(cr, toCanvas.tx, toCanvas.ty)
        cairo_scale(cr, toCanvas.a, toCanvas.a)
        cairo_set_source_rgba(cr, color.red, color.green, color.blue, color.alpha)
        cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
        if usesInkCache {
            // Live: the strokes being drawn, and the few too large for tiles.
            for index in ink.tiles.oversized where ink.finished.indices.contains(index) {
                InkPainter.fill(ink.finished[index], in: inkClip, on: cr, tail: &paintTail)
            }
        } else {
            for stroke in ink.finished { InkPainter.fill(stroke, in: inkClip, on: cr, tail: &paintTail) }
        }
        for stroke in ink.active { InkPainter.fill(stroke, in: inkClip, on: cr, tail: &paintTail) }
        cairo_restore(cr)
    }

    // MARK: Colour

    /// The colour ink is drawn with now: the one rule, `PageInk.color(chosen:background:darkAppearance:)`
    /// (the app's ``inkColor`` when set; else the ink that contrasts most with the page's
    /// background, ``pageBackground``, or with white until it is known; 92 % opaque).
    public var effectiveInkColor: InkColor {
        PageInk.color(chosen: inkColor, background: pageBackground, darkAppearance: false)
    }

    /// Reads the page's background (``PageBackground/probeScript``, in the page script's
    /// world) and redraws the ink if its colour changes. Called when a page has loaded and
    /// whenever the page pushes a new generation of regions (its layout or DOM changed).
    func learnPageBackground() {
        page.evaluate(PageBackground.probeScript) { [weak self] result in
            guard let self, !isDestroyed, case let .success(text?) = result,
                  let background = PageBackground.color(fromProbeResult: text), background != pageBackground else { return }
            let before = effectiveInkColor
            pageBackground = background
            if effectiveInkColor != before { gtk_widget_queue_draw(canvas) }
        }
    }

    // MARK: Erasing

    /// Removes the last finished stroke (Ctrl+Alt+Z). The engine's ledger is unchanged: the
    /// samples were ink; the user erased it. Returns `false` when there was none.
    @discardableResult
    public func undo() -> Bool {
        side.undo() != nil
    }

    /// Removes every finished stroke (Ctrl+Alt+C); strokes being drawn stay. The ledger is
    /// unchanged.
    public func clearInk() {
        side.clear()
    }

    /// Ctrl+Alt+Z and Ctrl+Alt+C, whatever has the focus (they leave the page's own Ctrl+Z
    /// to the page).
    func handleKey(_ event: UnsafeMutablePointer<GdkEvent>) -> Bool {
        guard event.pointee.type == GDK_KEY_PRESS else { return false }
        let key = event.pointee.key
        let modifiers = key.state & (GDK_CONTROL_MASK.rawValue | GDK_MOD1_MASK.rawValue | GDK_SHIFT_MASK.rawValue)
        guard modifiers == GDK_CONTROL_MASK.rawValue | GDK_MOD1_MASK.rawValue else { return false }
        switch gdk_keyval_to_lower(key.keyval) {
        case guint(GDK_KEY_z): undo(); return true
        case guint(GDK_KEY_c): clearInk(); return true
        default: return false
        }
    }

    /// The area GTK asked to repaint in this frame: the sum of the clip region's rectangles
    /// (GTK merges the frame's invalidated rectangles into one region; its extents can be
    /// far larger when two changes lie apart). `nil` when cairo cannot list the clip.
    private static func clipArea(_ cr: OpaquePointer) -> Double? {
        guard let list = cairo_copy_clip_rectangle_list(cr) else { return nil }
        defer { cairo_rectangle_list_destroy(list) }
        guard list.pointee.status == CAIRO_STATUS_SUCCESS, let rectangles = list.pointee.rectangles else { return nil }
        var area = 0.0
        for i in 0..<Int(list.pointee.num_rectangles) { area += rectangles[i].width * rectangles[i].height }
        return area
    }
}
