@_spi(Tooling) import InkCore

/// The one check of a stroke file's strokes (`smooth`, `bench geometry`, `bench strokes`):
/// each stroke is built once, and a stroke whose geometry is not finite is refused, naming
/// the point after which it overflowed. Finite but enormous coordinates or times (±1e308)
/// are valid samples, yet the pipeline's arithmetic (speeds, widths, squared distances)
/// overflows on them; a tool that wrote the result would write `null`s.
enum StrokeGeometryCheck {
    /// Builds `samples` in `builder`, reset first (its style kept, so a caller checking stroke
    /// after stroke reuses one builder); throws a ``CommandFailure`` naming the first point
    /// after which a changed bound or a settled segment is not finite, or the sample the
    /// geometry refused.
    static func check(_ samples: [TouchSample], with builder: inout StrokeBuilder) throws {
        builder.reset()
        for (index, sample) in samples.enumerated() { try append(sample, point: index, to: &builder) }
        try finish(&builder, last: samples.last, point: samples.count - 1)
    }

    /// Appends one sample of a stroke being read, refusing it as ``check(_:with:)`` does.
    static func append(_ sample: TouchSample, point index: Int, to builder: inout StrokeBuilder) throws {
        let update: StrokeUpdate
        do { update = try builder.append(sample) } catch {
            throw CommandFailure(message: "point \(index): \(error)")
        }
        if !isFinite(update.changedBounds) { throw overflow(index, sample) }
    }

    /// Finishes a stroke being read, refusing it as ``check(_:with:)`` does.
    static func finish(_ builder: inout StrokeBuilder, last sample: TouchSample?, point index: Int) throws {
        let update = builder.finish()
        if let sample, !isFinite(update.changedBounds) || builder.stableSegments.contains(where: { !isFinite($0.bounds) }) {
            throw overflow(index, sample)
        }
    }

    private static func isFinite(_ rect: CanvasRect?) -> Bool {
        guard let rect else { return true }
        return rect.minX.isFinite && rect.minY.isFinite && rect.maxX.isFinite && rect.maxY.isFinite
    }

    private static func overflow(_ index: Int, _ sample: TouchSample) -> CommandFailure {
        CommandFailure(message: "point \(index) (x \(sample.x), y \(sample.y), t \(sample.timestamp * 1000) ms): the stroke's geometry "
            + "is not finite from here (a coordinate or time too large for its arithmetic); refused")
    }
}
