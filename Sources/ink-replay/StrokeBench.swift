import Foundation
import InkCore

/// What `ink-replay bench geometry` and `ink-replay bench strokes` measure: the stroke
/// pipeline on a set of strokes, wall-clock, in this build.
///
/// Three passes, each repeated and the median taken:
/// - **append**: every sample through ``StrokeBuilder/append(_:)``, then
///   ``StrokeBuilder/finish()``: the engine's work per sample.
/// - **append + outline**: the same, plus the outline polygon of every segment as it
///   becomes stable (``StrokeOutline/polygon(for:maxStep:)``): what a renderer adds for the
///   ink that no longer changes.
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
        var tail: [StrokeSegment] = []
        tail.reserveCapacity(64)

        func appendPass(outline: Bool, readTail: Bool) throws -> Double {
            let clock = ContinuousClock()
            let start = clock.now
            frames = 0
            for stroke in strokes {
                var builder = StrokeBuilder()
                var nextFrame = (stroke.first?.timestamp ?? 0) + 1 / frameRate
                for sample in stroke {
                    let update = try builder.append(sample)
                    if outline {
                        for i in update.newlyStable { checksum += Double(StrokeOutline.polygon(for: builder.stableSegments[i]).count) }
                    }
                    if readTail, sample.timestamp >= nextFrame {
                        nextFrame = sample.timestamp + 1 / frameRate
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
                    for i in update.newlyStable { checksum += Double(StrokeOutline.polygon(for: builder.stableSegments[i]).count) }
                }
                checksum += builder.stableSegments.last?.curve.p3.x ?? 0
            }
            let elapsed = clock.now - start
            return (Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) * 1e-9)
        }

        _ = try appendPass(outline: true, readTail: true)   // warm-up
        var append: [Double] = [], outline: [Double] = [], withTail: [Double] = []
        for _ in 0..<max(1, passes) {
            // Interleaved, so a change in the machine's load touches all three alike.
            append.append(try appendPass(outline: false, readTail: false))
            outline.append(try appendPass(outline: true, readTail: false))
            withTail.append(try appendPass(outline: false, readTail: true))
        }
        guard checksum.isFinite else { throw CommandFailure(message: "non-finite output") }
        let appendTime = Self.median(append)
        return Result(strokes: strokes.count, samples: samples, frames: frames,
                      appendNanoseconds: appendTime / Double(samples),
                      outlineNanoseconds: Self.median(outline) / Double(samples),
                      tailNanosecondsPerFrame: max(0, Self.median(withTail) - appendTime) / Double(max(1, frames)))
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
