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

    /// A finished stroke's outline, tessellated once: for each segment, the polygons filled
    /// for it (its body and start cap, the last one's end cap) and the area they reach. A
    /// renderer that fills the stroke again (a tile picture made again after a zoom) fills
    /// these instead of tessellating anew.
    struct Outline {
        /// The stroke's stable segments it was made from, hashed with their count: a stroke
        /// refined since no longer matches.
        var fingerprint: Int
        var pieces: [(bounds: CanvasRect, polygons: [[CanvasPoint]])]
    }

    /// The fingerprint of a stroke's stable segments (``Outline/fingerprint``).
    static func fingerprint(of stroke: InkLayer.Stroke) -> Int {
        var hasher = Hasher()
        let stable = stroke.stableSegments
        hasher.combine(stable.count)
        for segment in stable { hasher.combine(segment) }
        return hasher.finalize()
    }

    /// Tessellates a finished stroke once (its stable segments; a finished stroke has no
    /// tail).
    static func outline(of stroke: InkLayer.Stroke, fingerprint: Int) -> Outline {
        let stable = stroke.stableSegments
        var pieces: [(bounds: CanvasRect, polygons: [[CanvasPoint]])] = []
        pieces.reserveCapacity(stable.count)
        for (index, segment) in stable.enumerated() {
            let bounds = segment.bounds
            let reach = max(segment.startWidth, segment.endWidth) / 2 + 1
            var polygons = [segment.outline()]
            if !segment.isDot {
                polygons.append(segment.startCap())
                if index == stable.count - 1 { polygons.append(segment.endCap()) }
            }
            pieces.append((CanvasRect(minX: bounds.minX - reach, minY: bounds.minY - reach,
                                      maxX: bounds.maxX + reach, maxY: bounds.maxY + reach), polygons))
        }
        return Outline(fingerprint: fingerprint, pieces: pieces)
    }

    /// Fills a tessellated stroke, skipping the segments outside `clip`: the same fills as
    /// ``fill(_:in:on:tail:)`` makes for the stroke it was made from.
    static func fill(_ outline: Outline, in clip: CanvasRect, on cr: OpaquePointer) {
        for piece in outline.pieces {
            guard piece.bounds.maxX >= clip.minX, piece.bounds.minX <= clip.maxX,
                  piece.bounds.maxY >= clip.minY, piece.bounds.minY <= clip.maxY else { continue }
            for polygon in piece.polygons { path(polygon, on: cr) }
            cairo_fill(cr)
        }
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
