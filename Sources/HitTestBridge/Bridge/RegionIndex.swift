@_spi(Tooling) import InkCore

/// A uniform grid over a page's interactive rectangles, so the question "is any region
/// at this point?" looks at a handful of rectangles instead of all of them.
///
/// The grid covers the regions' bounding box with about one cell per region; each cell
/// lists the regions that overlap it, in one flat array (no per-cell allocation). A lookup
/// computes its cell and tests that cell's regions. Points outside the box need no test at
/// all. Regions with a non-finite or negative size are left out when the index is built
/// (the region cache refuses such snapshots before they get here).
@_spi(Tooling) public struct RegionIndex: Sendable {
    /// The regions, as given.
    public let regions: [PageRegion]
    private let minX: Double, minY: Double, cellWidth: Double, cellHeight: Double
    private let columns: Int, rows: Int
    /// Cell `c`'s regions are `members[starts[c] ..< starts[c + 1]]`.
    private let starts: [Int32]
    private let members: [Int32]
    /// Each region's rectangle, packed for the lookup loop: minX, minY, maxX, maxY.
    private let boxes: [SIMD4<Double>]
    /// Regions that span more than ``maxCellsPerRegion`` cells are tested on every lookup
    /// instead of being listed in each cell, so a snapshot of huge overlapping rectangles
    /// cannot blow the index up to regions × cells entries.
    private let large: [Int32]

    /// The most cells a side of the grid may have.
    static let maxCellsPerSide = 256
    /// The most cells a region is listed in; larger ones go to the list tested every time.
    static let maxCellsPerRegion = 64

    /// Builds the index.
    public init(regions: [PageRegion]) {
        self.regions = regions
        var boxes: [SIMD4<Double>] = []
        boxes.reserveCapacity(regions.count)
        var lo = SIMD2<Double>(.infinity, .infinity), hi = SIMD2<Double>(-.infinity, -.infinity)
        for r in regions {
            let box = SIMD4(r.x, r.y, r.x + r.width, r.y + r.height)
            guard box.x.isFinite, box.y.isFinite, box.z.isFinite, box.w.isFinite, r.width >= 0, r.height >= 0 else {
                boxes.append(SIMD4(.infinity, .infinity, -.infinity, -.infinity))  // matches nothing
                continue
            }
            boxes.append(box)
            lo = pointwiseMin(lo, SIMD2(box.x, box.y))
            hi = pointwiseMax(hi, SIMD2(box.z, box.w))
        }
        self.boxes = boxes
        let side = max(1, min(Self.maxCellsPerSide, Int(Double(regions.count).squareRoot().rounded(.up))))
        guard lo.x <= hi.x, lo.y <= hi.y else {
            (minX, minY, cellWidth, cellHeight, columns, rows) = (0, 0, 1, 1, 1, 1)
            starts = [0, 0]
            members = []
            large = []
            return
        }
        let columns = side, rows = side
        // Finite even when the regions span more than the largest Double (-1e308 to 1e308).
        let cellWidth = max(Self.cells(from: lo.x, to: hi.x, size: Double(side)), 1e-9)
        let cellHeight = max(Self.cells(from: lo.y, to: hi.y, size: Double(side)), 1e-9)
        (minX, minY, self.cellWidth, self.cellHeight, self.columns, self.rows) = (lo.x, lo.y, cellWidth, cellHeight, columns, rows)
        // Two passes: count each cell's members, then fill them.
        var counts = [Int32](repeating: 0, count: columns * rows + 1)
        var large: [Int32] = []
        /// Calls `body` for each cell the box overlaps; `false` when it is too large for that.
        func cells(of box: SIMD4<Double>, _ body: (Int) -> Void) -> Bool {
            guard box.x <= box.z else { return true }
            func cell(_ value: Double, _ origin: Double, _ size: Double, _ count: Int) -> Int {
                Self.clamp(Int(saturating: Self.cells(from: origin, to: value, size: size)), count)
            }
            let c0 = cell(box.x, lo.x, cellWidth, columns), c1 = cell(box.z, lo.x, cellWidth, columns)
            let r0 = cell(box.y, lo.y, cellHeight, rows), r1 = cell(box.w, lo.y, cellHeight, rows)
            guard (c1 - c0 + 1) * (r1 - r0 + 1) <= Self.maxCellsPerRegion else { return false }
            for row in r0...r1 { for column in c0...c1 { body(row * columns + column) } }
            return true
        }
        for (index, box) in boxes.enumerated() where !cells(of: box, { counts[$0 + 1] += 1 }) {
            large.append(Int32(index))
        }
        for i in 1..<counts.count { counts[i] += counts[i - 1] }
        var fill = counts
        var filled = [Int32](repeating: 0, count: Int(counts[counts.count - 1]))
        for (index, box) in boxes.enumerated() {
            _ = cells(of: box) { cell in
                filled[Int(fill[cell])] = Int32(index)
                fill[cell] += 1
            }
        }
        starts = counts
        members = filled
        self.large = large
    }

    private static func clamp(_ value: Int, _ count: Int) -> Int { min(max(value, 0), count - 1) }

    /// `(value - origin) / size`, computed in halves when the difference overflows to
    /// infinity (finite coordinates near ±1.8e308), so it is never NaN for finite input.
    @inline(__always)
    private static func cells(from origin: Double, to value: Double, size: Double) -> Double {
        let difference = value - origin
        return difference.isFinite ? difference / size : (value / 2 - origin / 2) / (size / 2)
    }

    /// The first region (in the snapshot's order) containing the page point, edges
    /// included; `nil` when none does.
    public func region(at point: PagePoint) -> PageRegion? {
        firstIndex(at: point).map { regions[$0] }
    }

    /// Whether any region contains the page point, edges included.
    public func contains(_ point: PagePoint) -> Bool { firstIndex(at: point) != nil }

    /// Whether any region lies within `margin` page units of the point (its rectangle grown
    /// by `margin` on every side contains the point). Non-finite points are near everything.
    public func hasRegion(near point: PagePoint, margin: Double) -> Bool {
        guard point.x.isFinite, point.y.isFinite, margin.isFinite else { return true }
        let m = max(margin, 0)
        func near(_ index: Int32) -> Bool {
            let box = boxes[Int(index)]
            return point.x >= box.x - m && point.x <= box.z + m && point.y >= box.y - m && point.y <= box.w + m
        }
        if large.contains(where: near) { return true }
        let lo = SIMD2(Self.cells(from: minX, to: point.x - m, size: cellWidth), Self.cells(from: minY, to: point.y - m, size: cellHeight))
        let hi = SIMD2(Self.cells(from: minX, to: point.x + m, size: cellWidth), Self.cells(from: minY, to: point.y + m, size: cellHeight))
        guard hi.x >= 0, hi.y >= 0, lo.x <= Double(columns), lo.y <= Double(rows) else { return false }
        let c0 = Self.clamp(Int(max(lo.x, 0)), columns), c1 = Self.clamp(Int(min(hi.x, Double(columns))), columns)
        let r0 = Self.clamp(Int(max(lo.y, 0)), rows), r1 = Self.clamp(Int(min(hi.y, Double(rows))), rows)
        for row in r0...r1 {
            for column in c0...c1 {
                let cell = row * columns + column
                for slot in Int(starts[cell])..<Int(starts[cell + 1]) where near(members[slot]) { return true }
            }
        }
        return false
    }

    private func firstIndex(at point: PagePoint) -> Int? {
        guard point.x.isFinite, point.y.isFinite else { return nil }
        let fx = Self.cells(from: minX, to: point.x, size: cellWidth), fy = Self.cells(from: minY, to: point.y, size: cellHeight)
        guard fx >= 0, fy >= 0, fx <= Double(columns), fy <= Double(rows) else { return nil }
        var best: Int32 = .max
        func test(_ index: Int32) {
            let box = boxes[Int(index)]
            if index < best, point.x >= box.x, point.x <= box.z, point.y >= box.y, point.y <= box.w { best = index }
        }
        let cell = Self.clamp(Int(fy), rows) * columns + Self.clamp(Int(fx), columns)
        for slot in Int(starts[cell])..<Int(starts[cell + 1]) { test(members[slot]) }
        for index in large { test(index) }
        return best == .max ? nil : Int(best)
    }
}
