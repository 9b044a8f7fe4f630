/// Floating point to integer without a trap.
///
/// `Int(x)`, `Int64(x)` and their kin stop the process when `x` is not finite or does not
/// fit, and every time, coordinate or duration here can come from outside (a log, the host
/// protocol, a page message). Each conversion of such a value either refuses its input
/// first (with the line and a typed error, as the readers do) or goes through this one
/// initializer, when the figure is only reported (a latency in a summary, a progress
/// estimate, a chart's tick count) or only picks a bucket or a cell.
extension FixedWidthInteger {
    /// `value` rounded by `rule`, as this type, clamped to the type's range: a value above
    /// ``max`` (`+infinity` included) gives `max`, below ``min`` (`-infinity` included)
    /// gives `min`, and NaN gives `nan` (0 unless stated). Never traps.
    ///
    /// `Int64(saturating: 1e300)` is `Int64.max`; `UInt8(saturating: -3.5)` is 0;
    /// `Int(saturating: 2.7, rounding: .toNearestOrAwayFromZero)` is 3.
    @inlinable
    package init<Source: BinaryFloatingPoint>(saturating value: Source, rounding rule: FloatingPointRoundingRule = .towardZero,
                                              nan: Self = 0) {
        guard !value.isNaN else { self = nan; return }
        let whole = value.rounded(rule)
        // `Source(Self.max)` rounds up to the next power of two when `Source` cannot hold
        // `max` exactly (Double and Int64), so `>=` also catches the values that round to it.
        // `Source(Self.min)` is 0 or minus a power of two: always exact.
        if whole >= Source(Self.max) { self = .max; return }
        if whole <= Source(Self.min) { self = .min; return }
        self.init(whole)
    }
}
