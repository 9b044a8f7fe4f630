import Foundation
@_spi(Tooling) import InkCore

/// What `ink-replay bench geometry` and `ink-replay bench strokes` measure: the stroke
/// pipeline on a set of strokes, wall-clock, in this build.
///
/// Three passes, each repeated and the median taken:
/// - **append**: every sample through ``StrokeBuilder/append(_:)``, then
///   ``StrokeBuilder/finish()``: the engine's work per sample. One builder draws every
///   stroke, ``StrokeBuilder/reset()`` between them, as a renderer that keeps a builder per
///   touch slot does.
/// - **append + outline**: the same, plus the outline polygon of every segment as it
///   becomes stable (``StrokeOutline/appendPolygon(for:maxStep:to:)``, into one reused
///   buffer): what a renderer adds for the ink that no longer changes.
/// - **tail reads**: the append pass plus one read of the volatile tail per display frame
///   (``StrokeBuilder/appendVolatileSegments(to:)`` at `frameRate`, by the samples' own
///   timestamps, and once at the end of each stroke); its extra time over the append pass,
///   per read, is the cost of a frame's tail.
struct StrokeBench {
    struct Result {
        var strokes: Int
        var samples: Int
        var frames: Int
        var appendNanoseconds: Double
        var outlineNanoseconds: Double
        var tailNanosecondsPerFrame: Double
    }

    let strokes: [[TouchSample]]
    var frameRate = 60.0

    /// Runs each pass `passes` times (after one warm-up) and keeps the medians.
    func run(passes: Int) throws -> Result {
        let samples = strokes.reduce(0) { $0 + $1.count }
        guard samples > 0 else { throw CommandFailure(message: "no samples to measure") }
        var checksum = 0.0
        var frames = 0
        _ = try pass(outline: true, readTail: true)   // warm-up
        var append: [Double] = [], outline: [Double] = [], withTail: [Double] = []
        for _ in 0..<max(1, passes) {
            // Interleaved, so a change in the machine's load touches all three alike.
            for (kind, outlined, readTail) in [(0, false, false), (1, true, false), (2, false, true)] {
                let result = try pass(outline: outlined, readTail: readTail)
                checksum += result.checksum
                switch kind {
                case 0: append.append(result.nanoseconds)
                case 1: outline.append(result.nanoseconds)
                default: withTail.append(result.nanoseconds); frames = result.frames
                }
            }
        }
        guard checksum.isFinite else { throw CommandFailure(message: "non-finite output") }
        let appendTime = Self.median(append)
        return Result(strokes: strokes.count, samples: samples, frames: frames,
                      appendNanoseconds: appendTime / Double(samples),
                      outlineNanoseconds: Self.median(outline) / Double(samples),
                      tailNanosecondsPerFrame: max(0, Self.median(withTail) - appendTime) / Double(max(1, frames)))
    }

    /// One pass over every stroke: its time, a checksum of what was built (so nothing is
    /// optimized away) and the tail reads made.
    private func pass(outline: Bool, readTail: Bool) throws -> (nanoseconds: Double, checksum: Double, frames: Int) {
        var checksum = 0.0
        var frames = 0
        var tail: [StrokeSegment] = []
        tail.reserveCapacity(64)
        var polygon: [CanvasPoint] = []
        polygon.reserveCapacity(128)
        let frame = 1 / frameRate
        // One builder, reset for each stroke (as a renderer keeps one per touch slot).
        var builder = StrokeBuilder()
        let clock = ContinuousClock()
        let start = clock.now
        for stroke in strokes {
            builder.reset()
            var nextFrame = (stroke.first?.timestamp ?? 0) + frame
            for sample in stroke {
                let update = try builder.append(sample)
                if outline {
                    for i in update.newlyStable {
                        polygon.removeAll(keepingCapacity: true)
                        StrokeOutline.appendPolygon(for: builder.stableSegments[i], to: &polygon)
                        checksum += Double(polygon.count)
                    }
                }
                if readTail, sample.timestamp >= nextFrame {
                    nextFrame = sample.timestamp + frame
                    tail.removeAll(keepingCapacity: true)
                    builder.appendVolatileSegments(to: &tail)
                    checksum += Double(tail.count)
                    frames += 1
                }
            }
            if readTail {
                tail.removeAll(keepingCapacity: true)
                builder.appendVolatileSegments(to: &tail)
                checksum += Double(tail.count)
                frames += 1
            }
            let update = builder.finish()
            if outline {
                for i in update.newlyStable {
                    polygon.removeAll(keepingCapacity: true)
                    StrokeOutline.appendPolygon(for: builder.stableSegments[i], to: &polygon)
                    checksum += Double(polygon.count)
                }
            }
            checksum += builder.stableSegments.last?.curve.p3.x ?? 0
        }
        let elapsed = clock.now - start
        return (Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) * 1e-9, checksum, frames)
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
