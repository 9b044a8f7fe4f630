import Foundation
import Testing
@_spi(Tooling) @testable import InkCore

/// Geometry tests draw from the same seeded generator as the router tests.
typealias GeometryRandom = SplitMix64

@Suite("Stroke geometry")
struct StrokeGeometryTests {
    static func line(count: Int, rate: Double = 240, from a: CanvasPoint = CanvasPoint(x: 10, y: 20),
                     to b: CanvasPoint = CanvasPoint(x: 210, y: 120), force: Double? = nil) -> [TouchSample] {
        (0..<count).map { i in
            let u = Double(i) / Double(max(count - 1, 1))
            let p = CanvasPoint.lerp(a, b, u)
            return TouchSample(x: p.x, y: p.y, timestamp: 1 + Double(i) / rate, force: force, tool: .pencil)
        }
    }

    static func build(_ samples: [TouchSample], style: StrokeStyle = StrokeStyle()) throws -> StrokeBuilder {
        var stroke = StrokeBuilder(style: style)
        for s in samples { _ = try stroke.append(s) }
        _ = stroke.finish()
        return stroke
    }

    @Test("a straight line stays straight")
    func straightLine() throws {
        let stroke = try Self.build(Self.line(count: 120))
        let a = CanvasPoint(x: 10, y: 20), b = CanvasPoint(x: 210, y: 120)
        for segment in stroke.stableSegments {
            for k in 0...8 {
                let p = segment.curve.point(at: Double(k) / 8)
                #expect(StrokeSimplifier.distanceToSegment(p, a, b) < 1e-6)
            }
        }
    }

    @Test("the ends are fitted: nearer the pen than the noisy first and last samples")
    func endsFitted() throws {
        var rawError = 0.0, fittedError = 0.0
        for seed in 0..<20 {
            var random = GeometryRandom(seed: UInt64(seed))
            let truth = (0..<50).map { i in CanvasPoint(x: 100 + 30 * sin(Double(i) / 8), y: 80 + Double(i)) }
            let samples = truth.enumerated().map { i, p in
                TouchSample(x: p.x + random.range(-0.8...0.8), y: p.y + random.range(-0.8...0.8), timestamp: Double(i) / 240)
            }
            let stroke = try Self.build(samples)
            let first = try #require(stroke.stableSegments.first?.curve.p0)
            let last = try #require(stroke.stableSegments.last?.curve.p3)
            rawError += samples[0].point.distance(to: truth[0]) + samples[49].point.distance(to: truth[49])
            fittedError += first.distance(to: truth[0]) + last.distance(to: truth[49])
            // The ink still starts and ends where the pen did, within the jitter.
            #expect(first.distance(to: samples[0].point) < 1.6 && last.distance(to: samples[49].point) < 1.6)
        }
        #expect(fittedError < 0.9 * rawError)
    }

    @Test("an unevenly sampled circle has no cusps or loops")
    func unevenCircle() throws {
        var random = GeometryRandom(seed: 42)
        var angle = 0.0, time = 0.0
        var samples: [TouchSample] = []
        while angle < 2 * Double.pi * 1.5 {
            samples.append(TouchSample(x: 200 + 80 * cos(angle), y: 200 + 80 * sin(angle), timestamp: time))
            // Very uneven spacing: from a hair to a fifth of the radius.
            angle += random.range(0.002...0.25)
            time += random.range(0.001...0.02)
        }
        let stroke = try Self.build(samples)
        #expect(stroke.stableSegments.count > 50)
        for segment in stroke.stableSegments where !segment.isDot {
            let chord = segment.curve.p3 - segment.curve.p0
            guard chord.length > 1e-3 else { continue }
            var turning = 0.0
            var previous = segment.curve.derivative(at: 0)
            for k in 1...32 {
                let d = segment.curve.derivative(at: Double(k) / 32)
                // No cusp: the curve keeps moving forward along its chord.
                #expect(d.x * chord.x + d.y * chord.y > 0)
                turning += abs(atan2(previous.x * d.y - previous.y * d.x, previous.x * d.x + previous.y * d.y))
                previous = d
            }
            // No loop: a segment of an arc turns far less than half a turn.
            #expect(turning < Double.pi / 2)
        }
    }

    @Test("the outline is closed and contains the centreline")
    func outlineContainsCentreline() throws {
        let samples = (0..<200).map { (i: Int) -> TouchSample in
            let x = 50 + Double(i)
            let y: Double = 100 + 40 * sin(Double(i) / 20)
            let force: Double = 0.2 + 0.6 * Double(i % 50) / 50
            return TouchSample(x: x, y: y, timestamp: Double(i) / 240, force: force)
        }
        let stroke = try Self.build(samples)
        for segment in stroke.stableSegments {
            let polygon = StrokeOutline.polygon(for: segment)
            #expect(polygon.count >= 4)
            #expect(StrokeOutline.signedArea(polygon) > 0, "every piece has the same orientation")
            for k in 0...10 {
                let p = segment.curve.point(at: Double(k) / 10)
                #expect(StrokeOutline.contains(p, in: stroke.stableSegments))
            }
        }
        // A point well away from the ink is not ink.
        #expect(!StrokeOutline.contains(CanvasPoint(x: 150, y: 300), in: stroke.stableSegments))
    }

    @Test("a 1- to 4-sample mark is a round dot at least as wide as the stroke", arguments: [1, 2, 3, 4])
    func dots(count: Int) throws {
        let style = StrokeStyle()
        let samples = (0..<count).map { i in
            TouchSample(x: 345 + Double(i) * 0.3, y: 565 + Double(i) * 0.2, timestamp: 1.6 + Double(i) / 240, force: 0.05, tool: .pencil)
        }
        let stroke = try Self.build(samples, style: style)
        #expect(!stroke.stableSegments.isEmpty)
        #expect(stroke.volatileSegments.isEmpty)
        let bounds = try #require(stroke.stableSegments.map(\.bounds).reduce(nil as CanvasRect?) { CanvasRect.union($0, $1) })
        // At least as wide as the stroke, however light the press.
        #expect(bounds.width >= style.size - 1e-9)
        #expect(bounds.height >= style.size - 1e-9)
        #expect(stroke.stableSegments.allSatisfy { $0.startWidth >= style.size && $0.endWidth >= style.size })
        #expect(StrokeOutline.contains(samples[0].point, in: stroke.stableSegments))
        #expect(!StrokeOutline.svgPathData(stroke.stableSegments).isEmpty)
    }

    @Test("a dot drawn slowly (the pen resting) is still a dot; a mark held past the limit is a stroke")
    func slowDot() throws {
        let style = StrokeStyle()
        func resting(_ count: Int) -> [TouchSample] {
            (0..<count).map { i in
                // Within 0.6 pt of where it landed: shorter than the brush (3 pt) all along.
                TouchSample(x: 345 + 0.3 * sin(Double(i)), y: 565 + 0.3 * cos(Double(i) * 0.7),
                            timestamp: 1 + Double(i) / 240, force: 0.05, tool: .pencil)
            }
        }
        // 60 samples (a quarter of a second): nothing turns stable while live, and the
        // finished mark is at least as wide as the brush everywhere.
        var stroke = StrokeBuilder(style: style)
        for s in resting(60) {
            let update = try stroke.append(s)
            #expect(update.newlyStable.isEmpty && stroke.stableSegments.isEmpty)
        }
        _ = stroke.finish()
        #expect(stroke.stableSegments.count == 59)
        #expect(stroke.stableSegments.allSatisfy { $0.startWidth >= style.size && $0.endWidth >= style.size })
        // Held past the limit it is drawn as a stroke: its tail is bounded while live, and it
        // has tapers when it finishes.
        var held = StrokeBuilder(style: style)
        for s in resting(StrokeBuilder.dotHoldLimit + 100) { _ = try held.append(s) }
        #expect(!held.stableSegments.isEmpty)
        #expect(held.volatileSegments.count < 20)
        _ = held.finish()
        #expect(held.stableSegments.contains { $0.startWidth < style.size })
    }

    @Test("a short mark stays a dot when its estimated forces arrive after it finished")
    func dotRefinedAfterFinish() throws {
        let style = StrokeStyle()
        var samples = (0..<3).map { i in
            TouchSample(x: 345 + Double(i) * 0.3, y: 565, timestamp: 1 + Double(i) / 240, force: 0.05, tool: .pencil)
        }
        for i in samples.indices { samples[i].estimationUpdateIndex = UInt64(i + 1) }
        var stroke = StrokeBuilder(style: style)
        for s in samples { _ = try stroke.append(s) }
        _ = stroke.finish()
        // Every sample waits for its estimate: nothing is stable yet, and the dot is drawn.
        #expect(stroke.stableSegments.isEmpty)
        #expect(stroke.volatileSegments.allSatisfy { $0.startWidth >= style.size && $0.endWidth >= style.size })
        // Refined one by one (the first makes a segment stable before the others arrive):
        // every segment keeps the dot's widths.
        for i in samples.indices {
            var refined = samples[i]
            refined.force = 0.02
            refined.estimationUpdateIndex = nil
            _ = stroke.refine(sampleAt: i, with: refined)
            #expect(stroke.allSegments.allSatisfy { $0.startWidth >= style.size && $0.endWidth >= style.size }, "after \(i)")
        }
        #expect(stroke.stableSegments.count == 2 && stroke.volatileSegments.isEmpty)
    }

    @Test("a live single sample already shows a dot")
    func liveDot() throws {
        var stroke = StrokeBuilder()
        let update = try stroke.append(TouchSample(x: 5, y: 5, timestamp: 0))
        #expect(stroke.volatileSegments.count == 1)
        #expect(update.changedBounds != nil)
    }

    @Test("the stable prefix never changes once reported", arguments: 0..<40)
    func stablePrefix(seed: UInt64) throws {
        var random = GeometryRandom(seed: seed)
        // Odd seeds without the built-in prediction, whose node can hide a tail's change.
        var stroke = StrokeBuilder(style: StrokeStyle(predictionHorizon: seed % 2 == 0 ? 1.0 / 60 : 0))
        var seen: [StrokeSegment] = []
        var time = 0.0
        var point = CanvasPoint(x: 100, y: 100)
        var heading = random.range(0...6.28)
        var estimates: [(Int, UInt64)] = []
        let count = Int(random.range(1...400))
        for i in 0..<count {
            // Sometimes a repeated timestamp; sometimes an estimated force.
            if random.unit() > 0.1 { time += random.range(0.002...0.03) }
            heading += random.range(-0.4...0.4)
            point = point + CanvasPoint(x: cos(heading), y: sin(heading)) * random.range(0...6)
            var sample = TouchSample(x: point.x + random.range(-0.5...0.5), y: point.y, timestamp: time,
                                     force: random.unit() > 0.5 ? random.unit() : nil)
            if random.unit() > 0.8 { sample.estimationUpdateIndex = UInt64(i + 1); estimates.append((i, UInt64(i + 1))) }
            let tailBefore = stroke.volatileSegments
            let update = try stroke.append(sample)
            #expect(update.newlyStable == seen.count..<stroke.stableSegments.count)
            // The changed area holds all the ink that changed: the old tail, the new one and
            // the newly stable segments (it is computed without building the tail).
            let changedInk = tailBefore + stroke.volatileSegments + Array(stroke.stableSegments[update.newlyStable])
            let exact = try #require(update.changedBounds)
            let area = CanvasRect(minX: exact.minX - 1e-9, minY: exact.minY - 1e-9, maxX: exact.maxX + 1e-9, maxY: exact.maxY + 1e-9)
            for segment in changedInk {
                let b = segment.bounds
                #expect(area.minX <= b.minX && area.minY <= b.minY && area.maxX >= b.maxX && area.maxY >= b.maxY)
                // Bézier control points bound the curve; check points on it too.
                for k in 0...8 {
                    let p = segment.curve.point(at: Double(k) / 8)
                    let r = max(segment.startWidth, segment.endWidth) / 2
                    #expect(area.contains(CanvasPoint(x: p.x - r, y: p.y - r)) && area.contains(CanvasPoint(x: p.x + r, y: p.y + r)))
                }
            }
            if random.unit() > 0.7 {
                let predicted = (1...3).map { k in TouchSample(x: point.x + Double(k), y: point.y, timestamp: time + Double(k) * 0.004) }
                _ = stroke.predict(predicted)
            }
            if random.unit() > 0.6, let (index, _) = estimates.first {
                estimates.removeFirst()
                var refined = sample
                refined.force = random.unit()
                refined.estimationUpdateIndex = nil
                _ = stroke.refine(sampleAt: index, with: refined)
            }
            #expect(Array(stroke.stableSegments.prefix(seen.count)) == seen)
            seen = stroke.stableSegments
            // Work per update is bounded: the tail never grows with the stroke.
            if estimates.isEmpty { #expect(stroke.volatileSegments.count <= StrokeBuilder.maxTaperNodes + 6) }
        }
        _ = stroke.finish()
        #expect(Array(stroke.stableSegments.prefix(seen.count)) == seen)
        _ = stroke.settleEstimates()
        #expect(Array(stroke.stableSegments.prefix(seen.count)) == seen)
        #expect(stroke.volatileSegments.isEmpty)
        #expect(stroke.stableSegments.count == max(1, stroke.nodeCount - 1))
    }

    @Test("a long stroke forgets early inputs but not one still waiting for its estimate")
    func longStrokeWindow() throws {
        var random = GeometryRandom(seed: 77)
        var stroke = StrokeBuilder()
        var samples: [TouchSample] = []
        for i in 0..<5_000 {
            let t = Double(i) / 240
            var sample = TouchSample(x: 100 + 40 * t + 20 * cos(9 * t) + random.range(-0.5...0.5),
                                     y: 100 + 25 * sin(13 * t) + random.range(-0.5...0.5), timestamp: t, force: 0.4)
            if i == 3_000 { sample.estimationUpdateIndex = 1 }
            samples.append(sample)
            _ = try stroke.append(sample)
        }
        // Everything before the estimate is stable; the rest waits for it.
        #expect(stroke.stableSegments.count > 2_900 && stroke.stableSegments.count < 3_000)
        let stable = stroke.stableSegments
        let before = stroke.nodes[3_000].width
        var refined = samples[3_000]
        refined.force = 1
        refined.estimationUpdateIndex = nil
        let update = stroke.refine(sampleAt: 3_000, with: refined)
        #expect(stroke.nodes[3_000].width > before)
        #expect(update.newlyStable.count > 1_900, "the segments after it settle at once")
        _ = stroke.finish()
        #expect(Array(stroke.stableSegments.prefix(stable.count)) == stable)
        #expect(stroke.stableSegments.count == stroke.nodeCount - 1)
        // The geometry equals that of the same stroke built without the estimate, but for the width.
        var plain = StrokeBuilder()
        for sample in samples { var s = sample; s.estimationUpdateIndex = nil; if s.timestamp == samples[3_000].timestamp { s.force = 1 }; _ = try plain.append(s) }
        _ = plain.finish()
        #expect(plain.stableSegments == stroke.stableSegments)
    }

    @Test("finishing twice changes nothing")
    func finishTwice() throws {
        var stroke = StrokeBuilder()
        for s in Self.line(count: 30) { _ = try stroke.append(s) }
        let first = stroke.finish()
        let segments = stroke.stableSegments
        let second = stroke.finish()
        #expect(first.changedBounds != nil)
        #expect(second == .none)
        #expect(stroke.stableSegments == segments)
        #expect(throws: StrokeInputError.finished) { try stroke.append(TouchSample(x: 0, y: 0, timestamp: 9)) }
    }

    @Test("host predictions form the tail and disappear when real samples arrive")
    func predictedTail() throws {
        var style = StrokeStyle()
        style.predictionHorizon = 0
        var stroke = StrokeBuilder(style: style)
        for s in Self.line(count: 20) { _ = try stroke.append(s) }
        let lastTime = stroke.nodes.last!.time
        _ = stroke.predict([TouchSample(x: 300, y: 200, timestamp: lastTime + 0.008), TouchSample(x: 310, y: 205, timestamp: lastTime + 0.016)])
        #expect(stroke.volatileSegments.last?.endTime == lastTime + 0.016)
        _ = try stroke.append(TouchSample(x: 211, y: 121, timestamp: lastTime + 0.004))
        #expect(stroke.volatileSegments.last?.endTime == lastTime + 0.004)
        #expect(stroke.nodes.count == 21, "predictions are never stored")
    }

    @Test("the built-in predictor extends the tail by one horizon, never stored")
    func builtInPrediction() throws {
        var stroke = StrokeBuilder()
        for s in Self.line(count: 20) { _ = try stroke.append(s) }
        let last = stroke.nodes.last!
        let tail = try #require(stroke.volatileSegments.last)
        #expect(abs(tail.endTime - (last.time + StrokeStyle().predictionHorizon)) < 1e-12)
        #expect(tail.curve.p3.x > last.position.x, "the prediction continues the motion")
        _ = stroke.finish()
        #expect(stroke.stableSegments.last?.endTime == last.time)
    }

    @Test("bad samples are refused and change nothing")
    func badSamples() throws {
        var stroke = StrokeBuilder()
        _ = try stroke.append(TouchSample(x: 1, y: 1, timestamp: 1))
        let nodes = stroke.nodes
        for bad in [TouchSample(x: .nan, y: 1, timestamp: 2), TouchSample(x: 1, y: .infinity, timestamp: 2),
                    TouchSample(x: 1, y: 1, timestamp: .nan), TouchSample(x: 1, y: 1, timestamp: 2, force: 2)] {
            #expect {
                try stroke.append(bad)
            } throws: { error in
                guard case .nonFinite = error as? StrokeInputError else { return false }
                return true
            }
        }
        #expect(throws: StrokeInputError.timestampWentBackwards(previous: 1, got: 0.5)) {
            try stroke.append(TouchSample(x: 1, y: 1, timestamp: 0.5))
        }
        #expect(stroke.nodes == nodes)
        #expect(stroke.sampleCount == 1)
    }

    @Test("samples with the same timestamp merge into one node at their mean")
    func duplicateTimestamps() throws {
        var stroke = StrokeBuilder()
        _ = try stroke.append(TouchSample(x: 0, y: 0, timestamp: 1))
        _ = try stroke.append(TouchSample(x: 10, y: 0, timestamp: 1))
        #expect(stroke.nodes.count == 1)
        #expect(stroke.nodes[0].position == CanvasPoint(x: 5, y: 0))
        _ = try stroke.append(TouchSample(x: 20, y: 0, timestamp: 1.01))
        _ = try stroke.append(TouchSample(x: 22, y: 2, timestamp: 1.01))
        #expect(stroke.nodes.count == 2)
        #expect(stroke.sampleCount == 4)
        _ = stroke.finish()
        #expect(stroke.stableSegments.last?.curve.p3 == CanvasPoint(x: 21, y: 1))
    }

    @Test("an estimated force update reshapes only its own part, and holds it volatile until then")
    func estimatedForce() throws {
        var stroke = StrokeBuilder()
        var samples = Self.line(count: 60, force: 0.3)
        samples[40].estimationUpdateIndex = 9
        for s in samples { _ = try stroke.append(s) }
        let stable = stroke.stableSegments
        #expect(stable.count <= 39, "segments around an estimated sample wait")
        let before = stroke.nodes[40].width
        var refined = samples[40]
        refined.force = 1
        refined.estimationUpdateIndex = nil
        let update = stroke.refine(sampleAt: 40, with: refined)
        #expect(stroke.nodes[40].width > before)
        #expect(Array(stroke.stableSegments.prefix(stable.count)) == stable)
        #expect(!update.newlyStable.isEmpty)
        let bounds = try #require(update.changedBounds)
        #expect(!bounds.contains(samples[0].point), "the start of the stroke was not touched")
        // Refining a sample that is not an estimate changes nothing.
        #expect(stroke.refine(sampleAt: 3, with: refined) == .none)
    }

    @Test("force widens the ink; without force, speed thins it")
    func widths() throws {
        let light = try Self.build(Self.line(count: 80, force: 0.1)).nodes[40].width
        let heavy = try Self.build(Self.line(count: 80, force: 0.9)).nodes[40].width
        #expect(heavy > light)
        // The same 224-point line drawn in 1.3 s (slow) and in 33 ms (fast).
        let slow = try Self.build(Self.line(count: 80, rate: 60)).nodes[40].width
        let fast = try Self.build(Self.line(count: 80, rate: 2400)).nodes[40].width
        #expect(slow > fast)
    }

    @Test("simplification keeps every removed point within its bound", arguments: [0.1, 0.5, 2.0])
    func simplification(tolerance: Double) {
        var random = GeometryRandom(seed: UInt64(tolerance * 100))
        var p = CanvasPoint(x: 0, y: 0)
        let points = (0..<500).map { _ -> CanvasPoint in
            p = p + CanvasPoint(x: random.range(0...3), y: random.range(-2...2))
            return p
        }
        let kept = StrokeSimplifier.keptIndices(points, tolerance: tolerance)
        #expect(kept.first == 0)
        #expect(kept.last == points.count - 1)
        #expect(kept.count < points.count)
        for (a, b) in zip(kept, kept.dropFirst()) {
            for i in a..<b {
                #expect(StrokeSimplifier.distanceToSegment(points[i], points[a], points[b]) <= tolerance + 1e-9)
            }
        }
    }

    @Test("SVG numbers are fixed-point without trailing zeros")
    func svgNumbers() {
        #expect(SVGNumber.format(1.0, decimals: 2) == "1")
        #expect(SVGNumber.format(-0.004, decimals: 2) == "0")
        #expect(SVGNumber.format(-2.5, decimals: 2) == "-2.5")
        #expect(SVGNumber.format(3.14159, decimals: 2) == "3.14")
        #expect(SVGNumber.format(0.05, decimals: 2) == "0.05")
        #expect(SVGNumber.format(.nan, decimals: 2) == "0")
    }
}

@Suite("Ink layer")
struct InkLayerTests {
    @Test("router actions build, finish, refine and retract strokes")
    func actions() throws {
        var layer = InkLayer()
        let id = TouchID(1)
        let samples = StrokeGeometryTests.line(count: 12)
        for s in samples { #expect(layer.apply(.ink(id, s))?.bounds != nil) }
        #expect(layer.active.count == 1)
        #expect(layer.apply(.release(TouchID(2), samples[0])) == nil)
        #expect(layer.apply(.endInk(id))?.removed == false)
        #expect(layer.finished.count == 1)
        #expect(layer.finished[0].builder.isFinished)
        #expect(layer.finished[0].builder.sampleCount == 12)

        let other = TouchID(3)
        for s in samples { _ = layer.apply(.ink(other, s)) }
        let retraction = layer.apply(.retractInk(other))
        let change = try #require(retraction)
        #expect(change.removed)
        #expect(change.bounds != nil)
        #expect(layer.active.isEmpty)
        #expect(layer.strokes.count == 1)
    }

    @Test("undo removes the last finished stroke; clear removes every finished stroke; strokes being drawn stay")
    func undoAndClear() throws {
        var layer = InkLayer()
        let samples = StrokeGeometryTests.line(count: 8)
        for id in 1...3 {
            for s in samples { _ = layer.apply(.ink(TouchID(UInt64(id)), s)) }
            _ = layer.apply(.endInk(TouchID(UInt64(id))))
        }
        for s in samples { _ = layer.apply(.ink(TouchID(9), s)) }   // still being drawn
        let change = layer.removeLastStroke()
        let undone = try #require(change)
        #expect(undone.touch == TouchID(3) && undone.removed && undone.bounds != nil)
        #expect(layer.finished.map(\.touch) == [TouchID(1), TouchID(2)] && layer.active.map(\.touch) == [TouchID(9)])
        let cleared = layer.removeFinishedStrokes()
        #expect(cleared != nil)
        #expect(layer.finished.isEmpty && layer.active.map(\.touch) == [TouchID(9)])
        let nothingToUndo = layer.removeLastStroke(), nothingToClear = layer.removeFinishedStrokes()
        #expect(nothingToUndo == nil && nothingToClear == nil)
        // A refinement for an erased stroke finds nothing to change.
        let refined = layer.apply(.refineInk(TouchID(1), index: 0, samples[0]))
        #expect(refined == nil)
    }

    @Test("a stroke is found by its touch, being drawn, finished, refined or removed; a change to a finished stroke says where it is")
    func strokeByTouch() throws {
        var layer = InkLayer()
        let samples = StrokeGeometryTests.line(count: 8)
        for id in 1...40 {
            for s in samples { _ = layer.apply(.ink(TouchID(UInt64(id)), s)) }
            let end = layer.apply(.endInk(TouchID(UInt64(id))))
            #expect(end?.finishedIndex == id - 1)
        }
        for s in samples { _ = layer.apply(.ink(TouchID(99), s)) }
        #expect(layer.stroke(for: TouchID(99))?.builder.isFinished == false)
        for id in [1, 17, 40] {
            let stroke = try #require(layer.stroke(for: TouchID(UInt64(id))))
            #expect(stroke.touch == TouchID(UInt64(id)) && stroke.builder.isFinished)
        }
        #expect(layer.stroke(for: TouchID(500)) == nil)
        // A late refinement of a finished stroke names its place among the finished strokes.
        var moved = samples[3]
        moved.x += 5
        let refinement = layer.apply(.refineInk(TouchID(17), index: 3, moved))
        let refined = try #require(refinement)
        #expect(refined.touch == TouchID(17) && refined.finishedIndex == 16 && layer.finished[16].touch == TouchID(17))
        let drawing = layer.apply(.ink(TouchID(99), samples[7]))
        #expect(drawing != nil && drawing?.finishedIndex == nil)
        _ = layer.removeLastStroke()
        #expect(layer.stroke(for: TouchID(40)) == nil && layer.stroke(for: TouchID(39)) != nil)
        _ = layer.removeFinishedStrokes()
        #expect(layer.stroke(for: TouchID(1)) == nil && layer.stroke(for: TouchID(99)) != nil)
        _ = layer.apply(.retractInk(TouchID(99)))
        #expect(layer.stroke(for: TouchID(99)) == nil)
    }
}
