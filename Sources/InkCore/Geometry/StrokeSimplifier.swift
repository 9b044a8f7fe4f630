/// Simplification of a finished stroke's centreline for storage (Ramer-Douglas-Peucker).
package enum StrokeSimplifier {
    /// The indices of the nodes to keep so that every removed node lies within `tolerance`
    /// (canvas points) of the polyline through the kept ones. The first and last nodes are
    /// always kept.
    ///
    /// - Complexity: O(n log n) typical, O(n²) worst case; iterative (no recursion depth).
    package static func keptIndices(_ points: [CanvasPoint], tolerance: Double) -> [Int] {
        guard points.count > 2 else { return Array(points.indices) }
        var keep = [Bool](repeating: false, count: points.count)
        keep[0] = true
        keep[points.count - 1] = true
        var ranges = [(0, points.count - 1)]
        while let (first, last) = ranges.popLast() {
            guard last > first + 1 else { continue }
            var farthest = first, distance = -1.0
            for i in (first + 1)..<last {
                let d = distanceToSegment(points[i], points[first], points[last])
                if d > distance { distance = d; farthest = i }
            }
            if distance > tolerance {
                keep[farthest] = true
                ranges.append((first, farthest))
                ranges.append((farthest, last))
            }
        }
        return keep.indices.filter { keep[$0] }
    }

    /// The nodes of a simplified stroke.
    package static func simplify(_ nodes: [StrokeNode], tolerance: Double) -> [StrokeNode] {
        keptIndices(nodes.map(\.position), tolerance: tolerance).map { nodes[$0] }
    }

    /// Distance from `p` to the segment from `a` to `b`.
    package static func distanceToSegment(_ p: CanvasPoint, _ a: CanvasPoint, _ b: CanvasPoint) -> Double {
        let ab = b - a
        let lengthSquared = ab.x * ab.x + ab.y * ab.y
        guard lengthSquared > 0 else { return p.distance(to: a) }
        let t = min(max(((p.x - a.x) * ab.x + (p.y - a.y) * ab.y) / lengthSquared, 0), 1)
        return p.distance(to: a + ab * t)
    }
}
