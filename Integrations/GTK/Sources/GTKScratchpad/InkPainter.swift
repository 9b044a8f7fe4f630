import CWebKitGTK
import InkCore

/// Fills stroke outlines with cairo, as `StrokeSegment` describes them: each segment's body
/// (``StrokeSegment/outline(maxStep:)``) plus its start cap, and the end cap of the stroke's
/// last segment, filled with the non-zero rule. Segments outside the area being redrawn are
/// skipped. Uses the package's public geometry only.
enum InkPainter {
    /// Fills one stroke: its stable segments, then its volatile tail (read once, into
    /// `tail`, an array reused across strokes and frames).
    static func fill(_ stroke: InkLayer.Stroke, in clip: CanvasRect, on cr: OpaquePointer, tail: inout [StrokeSegment]) {
        tail.removeAll(keepingCapacity: true)
        stroke.appendVolatileSegments(to: &tail)
        let stable = stroke.stableSegments
        for (index, segment) in stable.enumerated() {
            fill(segment, isLast: tail.isEmpty && index == stable.count - 1, in: clip, on: cr)
        }
        for (index, segment) in tail.enumerated() { fill(segment, isLast: index == tail.count - 1, in: clip, on: cr) }
    }

    private static func fill(_ segment: StrokeSegment, isLast: Bool, in clip: CanvasRect, on cr: OpaquePointer) {
        let bounds = segment.bounds
        let reach = max(segment.startWidth, segment.endWidth) / 2 + 1
        guard bounds.maxX + reach >= clip.minX, bounds.minX - reach <= clip.maxX,
              bounds.maxY + reach >= clip.minY, bounds.minY - reach <= clip.maxY else { return }
        path(segment.outline(), on: cr)
        if !segment.isDot {
            path(segment.startCap(), on: cr)
            if isLast { path(segment.endCap(), on: cr) }
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
