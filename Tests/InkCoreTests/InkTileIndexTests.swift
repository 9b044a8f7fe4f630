import Testing
@_spi(Tooling) @testable import InkCore

@Suite("Finished ink by tiles")
struct InkTileIndexTests {
    /// A short stroke from `a` to `b`, finished in `layer` under touch `id`.
    static func finish(_ id: UInt64, from a: CanvasPoint, to b: CanvasPoint, in layer: inout InkLayer) {
        for s in StrokeGeometryTests.line(count: 10, from: a, to: b) { _ = layer.apply(.ink(TouchID(id), s)) }
        _ = layer.apply(.endInk(TouchID(id)))
    }

    /// Which finished strokes touch `tile`, by brute force: a segment's bounds grown by half its
    /// width and a point overlap the tile's square.
    static func expected(_ tile: InkTileIndex.Tile, in layer: InkLayer) -> [Int] {
        let r = layer.tiles.rect(of: tile)
        return layer.finished.indices.filter { index in
            layer.finished[index].builder.allSegments.contains { segment in
                let reach = max(segment.startWidth, segment.endWidth) / 2 + 1, b = segment.bounds
                return b.maxX + reach >= r.minX && b.minX - reach < r.maxX && b.maxY + reach >= r.minY && b.minY - reach < r.maxY
            }
        }
    }

    @Test("a finished stroke is in the tiles it crosses and no other; a stroke being drawn is in none")
    func placesStrokes() throws {
        var layer = InkLayer(tileSize: 100)
        Self.finish(1, from: CanvasPoint(x: 20, y: 20), to: CanvasPoint(x: 250, y: 40), in: &layer)
        for s in StrokeGeometryTests.line(count: 10, from: CanvasPoint(x: 20, y: 520), to: CanvasPoint(x: 60, y: 540)) {
            _ = layer.apply(.ink(TouchID(2), s))
        }
        let occupied = Set(layer.tiles.occupiedTiles)
        #expect(occupied == [InkTileIndex.Tile(column: 0, row: 0), InkTileIndex.Tile(column: 1, row: 0), InkTileIndex.Tile(column: 2, row: 0)])
        #expect(layer.tiles.strokes(in: InkTileIndex.Tile(column: 2, row: 0)) == [0])
        #expect(layer.tiles.strokes(in: InkTileIndex.Tile(column: 0, row: 5)).isEmpty, "a stroke being drawn is not in tiles")
        #expect(layer.tiles.rect(of: InkTileIndex.Tile(column: -1, row: 2)) == CanvasRect(minX: -100, minY: 200, maxX: 0, maxY: 300))
        #expect(layer.tiles.tiles(covering: CanvasRect(minX: 0, minY: 0, maxX: 1023, maxY: 767))?.count == 11 * 8)
        #expect(layer.tiles.tiles(covering: CanvasRect(minX: 0, minY: 0, maxX: 1e300, maxY: 10)) == nil)
    }

    @Test("undo and clear change the revision of every tile the removed ink was in, and of no other")
    func undoAndClear() throws {
        var layer = InkLayer(tileSize: 100)
        Self.finish(1, from: CanvasPoint(x: 20, y: 20), to: CanvasPoint(x: 80, y: 30), in: &layer)
        Self.finish(2, from: CanvasPoint(x: 320, y: 20), to: CanvasPoint(x: 380, y: 30), in: &layer)
        let a = InkTileIndex.Tile(column: 0, row: 0), b = InkTileIndex.Tile(column: 3, row: 0)
        let (ra, rb) = (layer.tiles.revision(of: a), layer.tiles.revision(of: b))
        #expect(ra > 0 && rb > ra)
        _ = layer.removeLastStroke()
        #expect(layer.tiles.revision(of: a) == ra, "the first stroke's tile keeps its picture")
        #expect(layer.tiles.revision(of: b) > rb && layer.tiles.strokes(in: b).isEmpty)
        _ = layer.removeFinishedStrokes()
        #expect(layer.tiles.revision(of: a) > ra && layer.tiles.occupiedTiles.isEmpty && layer.tiles.strokeCount == 0)
    }

    @Test("a stroke with far-apart points is oversized: in no tile, listed to be drawn live; undo takes it off the list")
    func oversized() throws {
        var layer = InkLayer(tileSize: 10)
        Self.finish(1, from: CanvasPoint(x: 0, y: 0), to: CanvasPoint(x: 1e9, y: 1e9), in: &layer)
        Self.finish(2, from: CanvasPoint(x: 5, y: 5), to: CanvasPoint(x: 8, y: 8), in: &layer)
        #expect(layer.tiles.oversized == [0])
        #expect(layer.tiles.strokes(in: InkTileIndex.Tile(column: 0, row: 0)) == [1])
        _ = layer.removeLastStroke()
        _ = layer.removeLastStroke()
        #expect(layer.tiles.oversized.isEmpty && layer.tiles.occupiedTiles.isEmpty)
    }

    /// A renderer's cache in miniature: each tile's picture is the geometry of the strokes it
    /// was made from, kept with the revision it was made at.
    struct Picture: Equatable {
        var revision: UInt64
        var strokes: [[StrokeSegment]]
    }

    @Test("random finishes, refinements, undos and clears: the index always agrees with a brute-force placement, and a tile whose revision did not change still shows exactly its ink (no stale picture)",
          arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func agreesWithBruteForce(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        var layer = InkLayer(tileSize: 128)
        var cache: [InkTileIndex.Tile: Picture] = [:]
        var next: UInt64 = 1
        func point() -> CanvasPoint {
            CanvasPoint(x: Double(random.next() % 600) - 100, y: Double(random.next() % 600) - 100)
        }
        for _ in 0..<120 {
            switch random.next() % 10 {
            case 0...5:
                let a = point()
                Self.finish(next, from: a, to: CanvasPoint(x: a.x + Double(random.next() % 200), y: a.y + Double(random.next() % 90)), in: &layer)
                next += 1
            case 6:
                if let stroke = layer.finished.randomElement(using: &random) {
                    let sample = TouchSample(x: Double(random.next() % 500), y: Double(random.next() % 500), timestamp: 1, tool: .pencil)
                    _ = layer.apply(.refineInk(stroke.touch, index: 0, sample))
                }
            case 7, 8: _ = layer.removeLastStroke()
            default: if random.next() % 4 == 0 { _ = layer.removeFinishedStrokes() }
            }
            let grid = try #require(layer.tiles.tiles(covering: CanvasRect(minX: -200, minY: -200, maxX: 900, maxY: 900)))
            for tile in grid {
                let strokes = Self.expected(tile, in: layer)
                #expect(layer.tiles.strokes(in: tile) == strokes, "tile \(tile)")
                let revision = layer.tiles.revision(of: tile)
                let picture = Picture(revision: revision, strokes: strokes.map { layer.finished[$0].builder.allSegments })
                if let cached = cache[tile], cached.revision == revision {
                    #expect(cached == picture, "tile \(tile) kept revision \(revision) but its ink changed")
                }
                // A tile's revision only grows: a picture made before is never current again.
                #expect(revision >= (cache[tile]?.revision ?? 0), "tile \(tile)")
                cache[tile] = picture
            }
            #expect(layer.tiles.strokeCount == layer.finished.count && layer.tiles.oversized.isEmpty)
        }
    }
}

@Suite("Ink colour")
struct InkColorTests {
    @Test("the contrast ratio follows WCAG 2: 21 for black on white, 1 for a colour on itself")
    func contrastRatio() {
        let black = InkColor(red: 0, green: 0, blue: 0), white = InkColor.white
        #expect(abs(black.contrastRatio(with: white) - 21) < 1e-9)
        #expect(abs(InkColor.darkInk.contrastRatio(with: .darkInk) - 1) < 1e-12)
        // #777777 on white: 4.48 (the WCAG reference value).
        let grey = InkColor(red: 0x77 / 255.0, green: 0x77 / 255.0, blue: 0x77 / 255.0)
        #expect(abs(grey.contrastRatio(with: white) - 4.48) < 0.01)
        #expect(abs(InkColor.power(0.5) - 0.189464571) < 1e-8)
    }

    @Test("the contrasting ink is dark on a light page and light on a dark one, with a ratio of at least 7; a translucent background is seen over white")
    func contrasting() {
        for background in [InkColor.white, InkColor(red: 0.98, green: 0.98, blue: 0.96), InkColor(red: 0.9, green: 0.95, blue: 1)] {
            #expect(InkColor.contrasting(with: background) == .darkInk)
            #expect(InkColor.darkInk.contrastRatio(with: background) >= 7)
        }
        for background in [InkColor(red: 0, green: 0, blue: 0), InkColor(red: 0.07, green: 0.08, blue: 0.12), InkColor(red: 0.05, green: 0.15, blue: 0.35)] {
            #expect(InkColor.contrasting(with: background) == .lightInk)
            #expect(InkColor.lightInk.contrastRatio(with: background) >= 7)
            #expect(background.isDark)
        }
        #expect(InkColor.contrasting(with: InkColor(red: 0, green: 0, blue: 0, alpha: 0.1)) == .darkInk)
        #expect(InkColor.contrasting(with: .white, candidates: []) == .darkInk)
        #expect(!InkColor.white.isDark)
    }
}
