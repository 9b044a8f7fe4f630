/// Where the finished strokes of an ``InkLayer`` lie, by square tiles of page space: what a
/// renderer needs to keep finished ink as pictures, one per tile, drawn once and moved with
/// the page, instead of filling every segment of every stroke in every frame.
///
/// The layer keeps its index up to date as strokes finish, are refined, undone or cleared.
/// A renderer asks which tiles a visible area covers (``tiles(covering:limit:)``), which
/// finished strokes touch a tile (``strokes(in:)``, oldest first: the order to fill them in)
/// and the tile's ``revision(of:)``: a picture made at one revision is current while the tile
/// keeps it; any change of finished ink in the tile (a stroke finished, refined, undone,
/// cleared) gives the tile a greater revision than it ever had. Strokes being drawn are
/// not indexed: a renderer draws them live over the tiles.
///
/// A stroke that would span more than ``maxTilesPerStroke`` tiles (coordinates far apart, as
/// a hostile log may hold) is not put in tiles: it is listed in ``oversized``, to be drawn
/// live like a stroke being drawn.
///
/// ```swift
/// for tile in layer.tiles.tiles(covering: visiblePageRect) ?? [] {
///     if cached[tile]?.revision != layer.tiles.revision(of: tile) { cached[tile] = render(tile) }
///     paint(cached[tile])
/// }
/// ```
public struct InkTileIndex: Sendable {
    /// A tile: the square of page space from `column × tileSize`, `row × tileSize`, one
    /// `InkTileIndex.tileSize` wide.
    public struct Tile: Sendable, Hashable {
        /// The tile's column: `floor(x / tileSize)`.
        public var column: Int
        /// The tile's row: `floor(y / tileSize)`.
        public var row: Int

        /// Creates a tile reference.
        public init(column: Int, row: Int) {
            self.column = column
            self.row = row
        }
    }

    /// The most tiles one stroke is indexed in; a stroke spanning more is ``oversized``.
    public static let maxTilesPerStroke = 1_024

    /// The side of a tile, in page coordinates.
    public let tileSize: Double
    /// Finished strokes (indices into ``InkLayer/finished``) that are in no tile, because they
    /// span too many: drawn live.
    public private(set) var oversized: [Int] = []

    private var strokesByTile: [Tile: [Int]] = [:]
    private var revisions: [Tile: UInt64] = [:]
    /// The tiles of each finished stroke, by its index (empty for an oversized stroke).
    private var tilesOfStroke: [[Tile]] = []
    private var clock: UInt64 = 0

    /// Creates an empty index.
    /// - Parameter tileSize: The side of a tile, page coordinates; a value that is not finite
    ///   or not positive gives 256.
    public init(tileSize: Double = 256) {
        self.tileSize = tileSize.isFinite && tileSize > 0 ? tileSize : 256
    }

    /// The latest revision given to any tile: it changes whenever any finished ink changes, so
    /// a renderer can tell in one comparison that nothing did.
    public var revision: UInt64 { clock }

    /// The number of finished strokes indexed (in tiles or oversized).
    public var strokeCount: Int { tilesOfStroke.count }

    /// The finished strokes that touch `tile`, oldest first (indices into ``InkLayer/finished``).
    public func strokes(in tile: Tile) -> [Int] { strokesByTile[tile] ?? [] }

    /// The tiles that hold finished ink now.
    public var occupiedTiles: Dictionary<Tile, [Int]>.Keys { strokesByTile.keys }

    /// The tile's revision: 0 while it never held finished ink; a greater value than it ever
    /// had whenever its finished ink changes (tiles changed together share the value).
    public func revision(of tile: Tile) -> UInt64 { revisions[tile] ?? 0 }

    /// The tile's square, page coordinates.
    public func rect(of tile: Tile) -> CanvasRect {
        CanvasRect(minX: Double(tile.column) * tileSize, minY: Double(tile.row) * tileSize,
                   maxX: Double(tile.column + 1) * tileSize, maxY: Double(tile.row + 1) * tileSize)
    }

    /// The tiles that `rect` (page coordinates) overlaps, row by row; `nil` when they are more
    /// than `limit` or the rectangle is not finite (too far out to be tiled).
    public func tiles(covering rect: CanvasRect, limit: Int = 4_096) -> [Tile]? {
        guard let range = range(covering: rect), range.count <= limit else { return nil }
        var tiles: [Tile] = []
        tiles.reserveCapacity(range.count)
        for row in range.rows { for column in range.columns { tiles.append(Tile(column: column, row: row)) } }
        return tiles
    }

    // MARK: Kept by the layer

    /// A stroke finished: it is the next finished stroke.
    mutating func append(_ builder: StrokeBuilder) {
        let index = tilesOfStroke.count
        let tiles = tiles(of: builder)
        tilesOfStroke.append(tiles ?? [])
        guard let tiles else {
            oversized.append(index)
            return
        }
        let stamp = tick()
        for tile in tiles {
            strokesByTile[tile, default: []].append(index)
            revisions[tile] = stamp
        }
    }

    /// The finished stroke at `index` changed shape (a refined sample).
    mutating func update(_ index: Int, to builder: StrokeBuilder) {
        guard tilesOfStroke.indices.contains(index) else { return }
        let stamp = tick()
        let old = tilesOfStroke[index]
        if old.isEmpty { oversized.removeAll { $0 == index } }
        for tile in old {
            revisions[tile] = stamp
            strokesByTile[tile]?.removeAll { $0 == index }
            if strokesByTile[tile]?.isEmpty == true { strokesByTile[tile] = nil }
        }
        guard let tiles = tiles(of: builder) else {
            tilesOfStroke[index] = []
            oversized.append(index)
            oversized.sort()
            return
        }
        tilesOfStroke[index] = tiles
        for tile in tiles {
            revisions[tile] = stamp
            // Kept oldest first: the stroke goes back to its place among the others.
            var list = strokesByTile[tile] ?? []
            list.insert(index, at: list.firstIndex { $0 > index } ?? list.endIndex)
            strokesByTile[tile] = list
        }
    }

    /// The most recent finished stroke was removed (undo).
    mutating func removeLast() {
        guard let tiles = tilesOfStroke.popLast() else { return }
        let index = tilesOfStroke.count
        if tiles.isEmpty { oversized.removeAll { $0 == index } }
        let stamp = tick()
        for tile in tiles {
            revisions[tile] = stamp
            if strokesByTile[tile]?.last == index { strokesByTile[tile]?.removeLast() }
            if strokesByTile[tile]?.isEmpty == true { strokesByTile[tile] = nil }
        }
    }

    /// Every finished stroke was removed (clear).
    mutating func removeAll() {
        let stamp = tick()
        for tile in strokesByTile.keys { revisions[tile] = stamp }
        strokesByTile.removeAll()
        tilesOfStroke.removeAll()
        oversized.removeAll()
    }

    // MARK: Geometry

    private mutating func tick() -> UInt64 {
        clock += 1
        return clock
    }

    /// The tiles a stroke's ink touches: each segment's bounds grown by half its width and a
    /// point, as a renderer fills it; `nil` when that is more than ``maxTilesPerStroke``.
    private func tiles(of builder: StrokeBuilder) -> [Tile]? {
        var seen = Set<Tile>(), ordered: [Tile] = []
        for segment in builder.allSegments {
            let reach = max(segment.startWidth, segment.endWidth) / 2 + 1
            let b = segment.bounds
            let grown = CanvasRect(minX: b.minX - reach, minY: b.minY - reach, maxX: b.maxX + reach, maxY: b.maxY + reach)
            guard let range = range(covering: grown), range.count <= Self.maxTilesPerStroke else { return nil }
            for row in range.rows {
                for column in range.columns {
                    let tile = Tile(column: column, row: row)
                    if seen.insert(tile).inserted {
                        guard ordered.count < Self.maxTilesPerStroke else { return nil }
                        ordered.append(tile)
                    }
                }
            }
        }
        return ordered
    }

    private struct Range {
        var columns: ClosedRange<Int>
        var rows: ClosedRange<Int>
        var count: Int {
            let (product, overflow) = columns.count.multipliedReportingOverflow(by: rows.count)
            return overflow ? .max : product
        }
    }

    /// The columns and rows `rect` overlaps; `nil` when it is not finite, inverted, or lies
    /// beyond ±2⁴⁰ tiles (no integer overflow, whatever the coordinates).
    private func range(covering rect: CanvasRect) -> Range? {
        let bound = 1_099_511_627_776.0  // 2^40 tiles
        let values = [rect.minX / tileSize, rect.maxX / tileSize, rect.minY / tileSize, rect.maxY / tileSize]
        guard values.allSatisfy({ $0.isFinite && abs($0) < bound }), rect.minX <= rect.maxX, rect.minY <= rect.maxY else {
            return nil
        }
        let minColumn = Int(values[0].rounded(.down)), maxColumn = Int(values[1].rounded(.down))
        let minRow = Int(values[2].rounded(.down)), maxRow = Int(values[3].rounded(.down))
        return Range(columns: minColumn...maxColumn, rows: minRow...maxRow)
    }
}
