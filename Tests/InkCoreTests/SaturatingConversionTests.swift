import Testing
@_spi(Tooling) @testable import InkCore

/// `FixedWidthInteger.init(saturating:rounding:nan:)`: the one floating-point to integer
/// conversion that never traps (issue 29: a first-ink latency of 1e13 s stopped five
/// commands with "Double value cannot be converted to Int64").
@Suite("Saturating floating-point to integer conversion")
struct SaturatingConversionTests {
    @Test("infinities give the type's bounds, NaN the stated value (0 unless stated)")
    func nonFinite() {
        #expect(Int64(saturating: Double.infinity) == .max)
        #expect(Int64(saturating: -Double.infinity) == .min)
        #expect(Int64(saturating: Double.nan) == 0)
        #expect(Int64(saturating: -Double.nan) == 0)
        #expect(Int64(saturating: Double.signalingNaN) == 0)
        #expect(Int(saturating: Double.nan, nan: 7) == 7)
        #expect(UInt32(saturating: Double.infinity) == .max)
        #expect(UInt32(saturating: -Double.infinity) == 0)
        #expect(Int32(saturating: Float.infinity) == .max)
        #expect(UInt8(saturating: Float.nan, nan: 9) == 9)
    }

    @Test("±1e300 and the largest finite values give the bounds")
    func huge() {
        #expect(Int64(saturating: 1e300) == .max)
        #expect(Int64(saturating: -1e300) == .min)
        #expect(Int(saturating: Double.greatestFiniteMagnitude) == .max)
        #expect(Int(saturating: -Double.greatestFiniteMagnitude) == .min)
        #expect(UInt64(saturating: 1e300) == .max)
        #expect(UInt64(saturating: -1e300) == 0)
        #expect(Int16(saturating: Float.greatestFiniteMagnitude) == .max)
        // The reported case: 1e13 s in microseconds.
        #expect(Int64(saturating: 1e13 * 1e6) == .max)
    }

    @Test("the exact edges: the largest Double below 2^63 converts, 2^63 saturates, -2^63 is exact")
    func int64Edges() {
        let twoTo63 = 9_223_372_036_854_775_808.0   // Double(Int64.max) rounds up to this
        #expect(Double(Int64.max) == twoTo63)
        #expect(Int64(saturating: twoTo63) == .max)
        #expect(Int64(saturating: twoTo63.nextUp) == .max)
        #expect(Int64(saturating: twoTo63.nextDown) == 9_223_372_036_854_774_784)
        #expect(Int64(saturating: -twoTo63) == .min)
        #expect(Int64(saturating: (-twoTo63).nextDown) == .min)
        #expect(Int64(saturating: (-twoTo63).nextUp) == -9_223_372_036_854_774_784)
        #expect(UInt64(saturating: 18_446_744_073_709_551_616.0) == .max)   // 2^64
        #expect(UInt64(saturating: 18_446_744_073_709_551_616.0.nextDown) == 18_446_744_073_709_549_568)
    }

    @Test("types a Double holds exactly: the bounds themselves, and just beyond them")
    func exactBounds() {
        #expect(Int32(saturating: 2_147_483_647.0) == .max)
        #expect(Int32(saturating: 2_147_483_647.9) == .max)   // truncated to max, not beyond
        #expect(Int32(saturating: 2_147_483_646.9) == 2_147_483_646)
        #expect(Int32(saturating: 2_147_483_648.0) == .max)
        #expect(Int32(saturating: -2_147_483_648.0) == .min)
        #expect(Int32(saturating: -2_147_483_649.0) == .min)
        #expect(UInt8(saturating: 255.0) == 255)
        #expect(UInt8(saturating: 255.5, rounding: .toNearestOrAwayFromZero) == 255)
        #expect(UInt8(saturating: 256.0) == 255)
        #expect(UInt8(saturating: -0.5) == 0)
        #expect(UInt8(saturating: -3.5) == 0)
        #expect(UInt8(saturating: -0.0) == 0)
    }

    @Test("in range it is Self(value.rounded(rule)): toward zero unless told otherwise")
    func rounding() {
        #expect(Int(saturating: 2.7) == 2)
        #expect(Int(saturating: -2.7) == -2)
        #expect(Int(saturating: 2.5, rounding: .toNearestOrAwayFromZero) == 3)
        #expect(Int(saturating: -2.5, rounding: .toNearestOrAwayFromZero) == -3)
        #expect(Int(saturating: 2.5, rounding: .toNearestOrEven) == 2)
        #expect(Int(saturating: 2.1, rounding: .up) == 3)
        #expect(Int(saturating: -2.1, rounding: .down) == -3)
        #expect(Int64(saturating: 1e15) == 1_000_000_000_000_000)
        #expect(Int(saturating: Float(16_777_216)) == 16_777_216)
        #expect(Int64(saturating: Float(Int64.max)) == .max)   // Float rounds it up to 2^63 too
    }
}
