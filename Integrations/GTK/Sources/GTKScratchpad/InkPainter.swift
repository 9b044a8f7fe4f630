import CWebKitGTK
@_spi(Tooling) import InkCore

/// Fills stroke outlines with cairo, as `StrokeOutline` describes them: each segment's body
/// plus a disc at its start, and a disc at the end of the stroke's last segment, filled with
/// the non-zero rule. Segments outside the area being redrawn are skipped.
enum InkPainter {
    /// Fills one stroke: its stable segments, then its volatile tail.
    static func fill(_ stroke: StrokeBuilder, in clip: CanvasRect, on cr: OpaquePointer) {
        let stable = stroke.stableSegments, tail = stroke.volatileSegments
        let last = tail.last ?? stable.last
        for segment in stable { fill(segment, isLast: tail.isEmpty && segment == last, in: clip, on: cr) }
        for (index, segment) in tail.enumerated() { fill(segment, isLast: index == tail.count - 1, in: clip, on: cr) }
    }

    private static func fill(_ segment: StrokeSegment, isLast: Bool, in clip: CanvasRect, on cr: OpaquePointer) {
        let bounds = segment.bounds
        let reach = max(segment.startWidth, segment.endWidth) / 2 + 1
        guard bounds.maxX + reach >= clip.minX, bounds.minX - reach <= clip.maxX,
              bounds.maxY + reach >= clip.minY, bounds.minY - reach <= clip.maxY else { return }
        path(StrokeOutline.polygon(for: segment), on: cr)
        if !segment.isDot {
            path(StrokeOutline.circle(center: segment.curve.p0, radius: segment.startWidth / 2), on: cr)
            if isLast { path(StrokeOutline.circle(center: segment.curve.p3, radius: segment.endWidth / 2), on: cr) }
        }
        cairo_fill(cr)
    }

    private static func path(_ polygon: [CanvasPoint], on cr: OpaquePointer) {
        guard let first = polygon.first else { return }
        cairo_move_to(cr, first.x, first.y)
        for point in polygon.dropFirst() { cairo_line_to(cr, point.x, point.y) }
        cairo_close_path(cr)
    }
}
