import Foundation
import Testing
@_spi(Tooling) @testable import InkCore

/// `StrokeBuilder.reset()` (issue 42): one builder reused for stroke after stroke is, field for
/// field, a new builder after each reset, and gives, call for call, the output a new builder
/// gives, bit for bit, whatever the stroke before it left.
@Suite("Stroke builder reset")
struct StrokeBuilderResetTests {
    /// One call of a stroke's script.
    enum Call {
        case append(TouchSample)
        case predict([TouchSample])
        case refine(Int, TouchSample)
        case finish
        case settleEstimates
    }

    /// A stroke to build: its style and its calls (a stroke may end unfinished, or refuse a
    /// sample).
    struct Script {
        var style: StrokeStyle
        var calls: [Call]
    }

    /// What a builder answers, as bit patterns (so a difference in the last bit, or of the
    /// sign of a zero, shows): every update and error, the tail after every call, and at the
    /// end the stable segments, the nodes and the counters.
    static func trace(_ script: Script, on builder: inout StrokeBuilder) -> [UInt64] {
        var out: [UInt64] = []
        func number(_ value: Double) { out.append(value.bitPattern) }
        func point(_ p: CanvasPoint) { number(p.x); number(p.y) }
        func rect(_ r: CanvasRect?) {
            guard let r else { out.append(0xDEAD); return }
            number(r.minX); number(r.minY); number(r.maxX); number(r.maxY)
        }
        func update(_ u: StrokeUpdate) {
            out.append(UInt64(u.newlyStable.lowerBound)); out.append(UInt64(u.newlyStable.upperBound))
            rect(u.changedBounds)
        }
        func segments(_ segments: [StrokeSegment]) {
            out.append(UInt64(segments.count))
            for s in segments {
                point(s.curve.p0); point(s.curve.p1); point(s.curve.p2); point(s.curve.p3)
                number(s.startWidth); number(s.endWidth); number(s.startTime); number(s.endTime)
            }
        }
        segments(builder.volatileSegments)
        for call in script.calls {
            switch call {
            case let .append(sample):
                do { update(try builder.append(sample)) } catch {
                    switch error {
                    case .finished: out.append(0xE001)
                    case let .timestampWentBackwards(previous, got): out.append(0xE002); number(previous); number(got)
                    case .nonFinite: out.append(0xE003)
                    }
                }
            case let .predict(samples): update(builder.predict(samples))
            case let .refine(index, sample): update(builder.refine(sampleAt: index, with: sample))
            case .finish: update(builder.finish())
            case .settleEstimates: update(builder.settleEstimates())
            }
            segments(builder.volatileSegments)
        }
        segments(builder.stableSegments)
        out.append(UInt64(builder.nodes.count))
        for node in builder.nodes {
            point(node.position); number(node.time); number(node.width); number(node.force ?? -1)
        }
        out.append(UInt64(builder.sampleCount)); out.append(builder.isFinished ? 1 : 0)
        return out
    }

    /// Every stored property of `builder`, recursively (its arrays' capacities aside).
    static func state(of builder: StrokeBuilder) -> String {
        var text = ""
        dump(builder, to: &text)
        return text
    }

    /// A seeded stroke of `count` samples, `step` seconds apart (sometimes a repeated
    /// timestamp), with forces or without, some estimated and refined later, host predictions
    /// now and then; finished unless `finish` is false.
    static func script(seed: UInt64, count: Int, step: Double, style: StrokeStyle = StrokeStyle(), finish: Bool = true,
                       spread: Double = 5, estimates: Bool = true) -> Script {
        var random = GeometryRandom(seed: seed)
        var point = CanvasPoint(x: 200 + random.range(0...100), y: 200 + random.range(0...100))
        var heading = random.range(0...6.28)
        var calls: [Call] = []
        var waiting: [(Int, TouchSample)] = []
        var tick = 0
        let forces = seed % 3 != 0
        for i in 0..<count {
            if i > 0, random.unit() > 0.08 { tick += 1 }
            heading += random.range(-0.5...0.5)
            point = point + CanvasPoint(x: cos(heading), y: sin(heading)) * random.range(0...spread)
            var sample = TouchSample(x: point.x + random.range(-0.5...0.5), y: point.y + random.range(-0.5...0.5),
                                     timestamp: Double(tick) * step, force: forces ? random.unit() : nil)
            if estimates, forces, random.unit() > 0.85 {
                sample.estimationUpdateIndex = UInt64(i + 1)
                waiting.append((i, sample))
            }
            calls.append(.append(sample))
            if random.unit() > 0.85 {
                let t = sample.timestamp
                calls.append(.predict((1...3).map { k in
                    TouchSample(x: point.x + Double(k) * random.range(-2...2), y: point.y + Double(k), timestamp: t + Double(k) * step)
                }))
            }
            if random.unit() > 0.7, !waiting.isEmpty {
                var (index, refined) = waiting.removeFirst()
                refined.force = random.unit()
                refined.estimationUpdateIndex = nil
                calls.append(.refine(index, refined))
            }
        }
        if finish {
            calls.append(.finish)
            if let (index, refined) = waiting.first { calls.append(.refine(index, refined)) }
            calls.append(.settleEstimates)
        }
        return Script(style: style, calls: calls)
    }

    /// The strokes one reused builder draws in turn: first strokes that leave as much behind
    /// as they can (unfinished with estimates and host predictions pending, a window that has
    /// forgotten nodes, filter weights kept for a step a hair off the next stroke's, refused
    /// samples), then dots, short strokes of every length from 1 to 12 points (each length
    /// twice in a row, so an end fit kept from the last stroke would be reused), longer ones,
    /// other styles, a stroke with no sample and a very long one.
    static func strokes() -> [Script] {
        let step = (1000.0 / 240) / 1000
        let off = step * (1 + 4e-10)   // the filter keeps its weights across this difference
        var scripts: [Script] = []
        scripts.append(script(seed: 1, count: 700, step: off, finish: false))
        scripts.append(script(seed: 2, count: 9, step: step, finish: false))
        var refused = script(seed: 3, count: 20, step: off)
        refused.calls.insert(.append(TouchSample(x: 1, y: 1, timestamp: -1)), at: 10)
        refused.calls.insert(.append(TouchSample(x: .nan, y: 1, timestamp: 99)), at: 12)
        refused.calls.append(.append(TouchSample(x: 1, y: 1, timestamp: 99)))   // after finish
        scripts.append(refused)
        var brokenOff = script(seed: 4, count: 15, step: off, finish: false)
        brokenOff.calls.append(.append(TouchSample(x: 1, y: 1, timestamp: -5)))
        scripts.append(brokenOff)
        scripts.append(Script(style: StrokeStyle(), calls: [.finish]))
        scripts.append(script(seed: 5, count: 1, step: step))
        scripts.append(script(seed: 6, count: 40, step: step, spread: 0.05))   // a slow dot
        for length in 1...12 {
            for copy in 0..<2 { scripts.append(script(seed: UInt64(100 + 2 * length + copy), count: length, step: step)) }
        }
        for seed in UInt64(200)..<UInt64(230) {
            var random = GeometryRandom(seed: seed)
            scripts.append(script(seed: seed, count: Int(random.range(3...120)), step: seed % 2 == 0 ? step : off,
                                  finish: seed % 7 != 0))
        }
        let styles = [StrokeStyle(size: 8, settleRadius: 0, predictionHorizon: 0), StrokeStyle(startTaper: 0, settleRadius: 2),
                      StrokeStyle(size: 1, endTaper: 20, settleRadius: 32, sampleNoise: 2)]
        for (k, style) in styles.enumerated() {
            scripts.append(script(seed: 300 + UInt64(k), count: 60, step: step, style: style))
            scripts.append(script(seed: 310 + UInt64(k), count: 5, step: step, style: style))
        }
        scripts.append(script(seed: 400, count: 3_000, step: step, estimates: false))
        scripts.append(script(seed: 401, count: 7, step: step))
        scripts.append(script(seed: 402, count: 600, step: off))
        scripts.append(script(seed: 403, count: 4, step: step))
        return scripts
    }

    @Test("a reset builder gives a new builder's output, bit for bit, stroke after stroke")
    func resetMatchesFresh() {
        let scripts = Self.strokes()
        var reused = StrokeBuilder(style: StrokeStyle(size: 5, predictionHorizon: 0))
        for (n, script) in scripts.enumerated() {
            reused.reset(style: script.style)
            var fresh = StrokeBuilder(style: script.style)
            // Every stored property, private ones and caches included (the filter's step
            // weights, the last shifted fit, the tail's box), as a new builder's.
            #expect(Self.state(of: reused) == Self.state(of: fresh), "stroke \(n)")
            let expected = Self.trace(script, on: &fresh)
            let got = Self.trace(script, on: &reused)
            #expect(got == expected, "stroke \(n) (\(script.calls.count) calls)")
        }
        // reset() keeps the style.
        reused.reset(style: StrokeStyle(size: 9))
        reused.reset()
        #expect(reused.style.size == 9)
        let script = Self.script(seed: 9, count: 30, step: 1.0 / 240)
        var nine = StrokeBuilder(style: StrokeStyle(size: 9))
        #expect(Self.trace(script, on: &reused) == Self.trace(script, on: &nine))
    }

    @Test("copies taken before a reset keep the last stroke")
    func copiesKeepTheirStroke() throws {
        var builder = StrokeBuilder()
        for sample in StrokePipelineSpeedTests.scribble(seed: 4, count: 50) { _ = try builder.append(sample) }
        _ = builder.finish()
        let copy = builder
        let segments = builder.stableSegments
        let nodes = builder.nodes
        builder.reset()
        #expect(builder.stableSegments.isEmpty && builder.nodes.isEmpty && builder.sampleCount == 0 && !builder.isFinished)
        #expect(copy.stableSegments == segments && copy.nodes == nodes && copy.isFinished)
        #expect(segments.count == nodes.count - 1)
        for sample in StrokePipelineSpeedTests.scribble(seed: 5, count: 20) { _ = try builder.append(sample) }
        #expect(copy.stableSegments == segments && copy.nodes == nodes)
    }

    @Test("reset keeps the buffers of a stroke of ordinary length and releases a very long one's")
    func resetKeepsBoundedBuffers() throws {
        var builder = StrokeBuilder()
        for sample in StrokePipelineSpeedTests.scribble(seed: 6, count: 300) { _ = try builder.append(sample) }
        _ = builder.finish()
        let grown = builder.stableSegments.capacity
        #expect(grown > 64)
        builder.reset()
        #expect(builder.stableSegments.capacity == grown)
        for sample in StrokePipelineSpeedTests.scribble(seed: 7, count: 5_000) { _ = try builder.append(sample) }
        _ = builder.finish()
        #expect(builder.stableSegments.capacity > StrokeInputModeler.keptCapacity)
        builder.reset()
        #expect(builder.stableSegments.capacity <= StrokeInputModeler.keptCapacity)
        #expect(builder.nodes.capacity <= StrokeInputModeler.keptCapacity)
    }

    @Test("a long stroke keeps a bounded window of its nodes, however long it grows, while no estimate waits")
    func longStrokeKeepsBoundedNodes() throws {
        var builder = StrokeBuilder()
        var mostKept = 0
        for sample in StrokePipelineSpeedTests.scribble(seed: 8, count: 20_000) {
            _ = try builder.append(sample)
            mostKept = max(mostKept, builder.nodes.count)
        }
        _ = builder.finish()
        // The stroke's nodes are all counted, its segments all kept (they are the output), but
        // only the last few hundred nodes are held: the store forgets in batches of at least 256.
        #expect(builder.nodeCount > 10_000)
        #expect(builder.stableSegments.count == builder.nodeCount - 1)
        #expect(mostKept <= 600, "\(mostKept) nodes kept at once")
        #expect(builder.nodes.capacity <= 1_024, "room for \(builder.nodes.capacity) nodes")
    }
}

/// `InkLayer` draws a new stroke in the builder of the last stroke retracted or cancelled.
@Suite("Ink layer builder reuse")
struct InkLayerReuseTests {
    /// What a layer shows of a touch's stroke, as bit patterns.
    static func picture(_ layer: InkLayer, _ touch: TouchID) -> [UInt64] {
        guard let stroke = layer.stroke(for: touch) else { return [] }
        return stroke.segments.flatMap { s in
            [s.curve.p0.x, s.curve.p0.y, s.curve.p1.x, s.curve.p1.y, s.curve.p2.x, s.curve.p2.y, s.curve.p3.x, s.curve.p3.y,
             s.startWidth, s.endWidth, s.startTime, s.endTime].map(\.bitPattern)
        }
    }

    @Test("a stroke drawn after a retracted or cancelled one is what a new layer draws, and copies keep the removed stroke")
    func reuseAfterRemoval() throws {
        var layer = InkLayer()
        let removed = StrokePipelineSpeedTests.scribble(seed: 11, count: 90)
        for s in removed { _ = layer.apply(.ink(TouchID(1), s)) }
        _ = layer.apply(.predictInk(TouchID(1), [TouchSample(x: 400, y: 400, timestamp: removed.last!.timestamp + 0.01)]))
        let copy = try #require(layer.stroke(for: TouchID(1)))
        let copied = copy.segments
        #expect(layer.apply(.retractInk(TouchID(1)))?.removed == true)
        for (n, seed) in [UInt64(12), 13, 14].enumerated() {
            let touch = TouchID(UInt64(2 + n))
            if n == 2 { layer.style = StrokeStyle(size: 7, settleRadius: 2) }
            var fresh = InkLayer(style: layer.style)
            let samples = StrokePipelineSpeedTests.scribble(seed: seed, count: 5 + 40 * n)
            for s in samples {
                #expect(layer.apply(.ink(touch, s)) == fresh.apply(.ink(touch, s)))
                #expect(Self.picture(layer, touch) == Self.picture(fresh, touch))
            }
            #expect(layer.apply(.endInk(touch))?.bounds == fresh.apply(.endInk(touch))?.bounds)
            #expect(Self.picture(layer, touch) == Self.picture(fresh, touch))
            // The next stroke is drawn, then cancelled: its builder is the spare again.
            for s in samples.prefix(20) { _ = layer.apply(.ink(TouchID(100 + UInt64(n)), s)) }
            _ = layer.apply(.cancel(TouchID(100 + UInt64(n)), previously: .ink))
        }
        #expect(copy.segments == copied && !copied.isEmpty)
        #expect(layer.finished.count == 3 && layer.active.isEmpty)
    }
}
