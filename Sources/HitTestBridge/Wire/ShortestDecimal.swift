/// The shortest decimal text that reads back to the same `Double`, written as Swift's
/// `Double.description` writes it, byte for byte, and without allocating: a session
/// recorder writes four numbers per sample, and `description` builds a heap string for
/// every one longer than 15 bytes.
///
/// The digits come from Raffaello Giulietti's Schubfach method ("The Schubfach way to
/// render doubles", 2020): the double's rounding interval is scaled by a 126-bit upper
/// approximation of a power of ten, rounded to odd, so that every comparison the method
/// makes against the interval's ends is exact. Of the decimals in the interval, it
/// picks one with the fewest digits, and among those the closest (ties to an even last
/// digit), which is what `description` prints. The powers of ten are computed once, exactly,
/// with integer arithmetic (``PowerTable``), not copied from anywhere.
///
/// `ShortestDecimalTests` checks the text against `description` over edge values
/// (subnormals, ±0, the largest and smallest doubles, powers of two and ten, the layout
/// boundaries) and millions of random bit patterns.
package enum ShortestDecimal {
    /// The most bytes a double's text takes (`-2.2250738585072014e-308` is 24).
    package static let maximumLength = 32

    /// Computes the powers of ten now (once per process), so that the first number written
    /// does not pay for it.
    package static func prepare() {
        _ = PowerTable.shared.entry(forPowerOfTen: 0)
    }

    /// `value`'s text, as a string (as `value.description` writes it, `inf`, `-inf` and `nan`
    /// included): for tests and messages. Writers append it through `JSONTextOutput`.
    package static func text(_ value: Double) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maximumLength) { buffer in
            String(decoding: UnsafeBufferPointer(rebasing: buffer[..<write(value, into: buffer)]), as: UTF8.self)
        }
    }

    /// Writes `value`'s text into `buffer` (at least ``maximumLength`` bytes) and returns
    /// its length in bytes. `exponential`: in the exponent form `description` uses above
    /// 2^53 (`1e+15`), whatever the magnitude.
    package static func write(_ value: Double, into buffer: UnsafeMutableBufferPointer<UInt8>, exponential: Bool = false) -> Int {
        precondition(buffer.count >= maximumLength)
        var out = Cursor(base: buffer.baseAddress!)
        if value.isNaN {
            out.put("nan")
            return out.count
        }
        if value.sign == .minus { out.put(UInt8(ascii: "-")) }
        if value.isInfinite {
            out.put("inf")
            return out.count
        }
        if value == 0 {
            out.put("0.0")
            return out.count
        }
        var (digits, exponent) = shortest(value.magnitude)
        // The digits without their trailing zeros.
        while digits % 10 == 0 {
            digits /= 10
            exponent += 1
        }
        let count = decimalDigitCount(digits)
        // The value is 0.d₁d₂…dₙ × 10^point.
        let point = count + exponent
        // `description` writes exponential text below 0.0001 and above 2^53.
        if exponential || point < -3 || value.magnitude > 0x1p53 {
            out.put(digits, count: count, pointAfter: 1)
            out.put(UInt8(ascii: "e"))
            var power = point - 1
            if power < 0 {
                out.put(UInt8(ascii: "-"))
                power = -power
            } else {
                out.put(UInt8(ascii: "+"))
            }
            if power >= 100 { out.put(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: power / 100)) }
            out.put(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: power / 10 % 10))
            out.put(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: power % 10))
        } else if point <= 0 {
            out.put("0.")
            for _ in 0 ..< -point { out.put(UInt8(ascii: "0")) }
            out.put(digits, count: count, pointAfter: 0)
        } else if point < count {
            out.put(digits, count: count, pointAfter: point)
        } else {
            out.put(digits, count: count, pointAfter: 0)
            for _ in 0 ..< point - count { out.put(UInt8(ascii: "0")) }
            out.put(".0")
        }
        return out.count
    }

    /// Where the text is written: a pointer and a count, so that writing a byte is a store.
    private struct Cursor {
        let base: UnsafeMutablePointer<UInt8>
        var count = 0

        mutating func put(_ byte: UInt8) {
            base[count] = byte
            count += 1
        }

        mutating func put(_ text: StaticString) {
            text.withUTF8Buffer { for byte in $0 { put(byte) } }
        }

        /// `digits` (`count` of them), with a '.' after the first `pointAfter` when that
        /// lies inside (0 < pointAfter < count). Two digits at a time, from the end.
        mutating func put(_ digits: UInt64, count digitCount: Int, pointAfter: Int) {
            let start = count
            count += digitCount
            var index = count
            var rest = digits
            let pairs = ShortestDecimal.digitPairs
            while rest >= 100 {
                let pair = Int(truncatingIfNeeded: rest % 100) &* 2
                rest /= 100
                index -= 2
                base[index] = pairs[pair]
                base[index + 1] = pairs[pair + 1]
            }
            if rest >= 10 {
                let pair = Int(truncatingIfNeeded: rest) &* 2
                index -= 2
                base[index] = pairs[pair]
                base[index + 1] = pairs[pair + 1]
            } else {
                base[index - 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest)
            }
            guard pointAfter > 0, pointAfter < digitCount else { return }
            let point = start + pointAfter
            var i = count
            while i > point {
                base[i] = base[i - 1]
                i -= 1
            }
            base[point] = UInt8(ascii: ".")
            count += 1
        }
    }

    /// "00", "01", … "99", back to back.
    fileprivate static var digitPairs: UnsafePointer<UInt8> {
        ("00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899" as StaticString).utf8Start
    }

    /// The number of decimal digits of `value` (at least 1).
    static func decimalDigitCount(_ value: UInt64) -> Int {
        var count = 1
        var rest = value
        while rest >= 10_000 {
            rest /= 10_000
            count += 4
        }
        if rest >= 100 {
            rest /= 100
            count += 2
        }
        return rest >= 10 ? count + 1 : count
    }

    // MARK: - The digits

    /// The shortest, closest decimal `digits × 10^exponent` that reads back to `value`
    /// (finite and greater than zero). `digits` may end in zeros.
    static func shortest(_ value: Double) -> (digits: UInt64, exponent: Int) {
        let fraction = value.significandBitPattern
        let biased = Int(value.exponentBitPattern)
        if biased == 0 {
            // Subnormal: c × 2^-1074. The two smallest have intervals wider than ten of the
            // method's steps (4.9e-324 ± 2.5e-324, 9.9e-324 ± 2.5e-324), where it would stop one
            // digit early; their shortest texts are one digit (the tests check both).
            switch fraction {
            case 1: return (5, -324)
            case 2: return (1, -323)
            default: return digits(significand: fraction, power: minPower)
            }
        }
        let significand = fraction | hiddenBit
        let power = biased - 1075
        // An integer below 2^53 is its own shortest text.
        if power <= 0, power > -53 {
            let integer = significand >> UInt64(-power)
            if integer << UInt64(-power) == significand { return (integer, 0) }
        }
        return digits(significand: significand, power: power)
    }

    private static let hiddenBit: UInt64 = 1 << 52
    private static let minPower = -1074
    private static let mask63: UInt64 = (1 << 63) - 1

    /// Schubfach's step for `c × 2^q`: the interval's ends and the value, scaled by 10^-k
    /// in units of a quarter, decide between the candidates one digit shorter than
    /// `floor(v × 10^-k)` and `floor(v × 10^-k)` or the next integer.
    private static func digits(significand c: UInt64, power q: Int) -> (digits: UInt64, exponent: Int) {
        let odd: UInt64 = c & 1   // an odd significand's interval is open
        let cb = c << 2
        let cbr = cb + 2
        let cbl: UInt64
        let k: Int
        if c != hiddenBit || q == minPower {
            cbl = cb - 2
            k = floorLog10Pow2(q)
        } else {
            // The lowest significand of a binade: the gap below is half the gap above.
            cbl = cb - 1
            k = floorLog10ThreeQuartersPow2(q)
        }
        let entry = PowerTable.shared.entry(forPowerOfTen: -k)
        let h = q + entry.binaryExponent + 2
        assert(h >= 1 && h <= 7)   // 10^-k lies in [2^-q, 10 × 2^-q) (a little lower for the three-quarters case), so cbr << h fits
        let vb = roundToOdd(entry.high, entry.low, cb << UInt64(h))
        let vbl = roundToOdd(entry.high, entry.low, cbl << UInt64(h))
        let vbr = roundToOdd(entry.high, entry.low, cbr << UInt64(h))
        let s = vb >> 2
        if s >= 10 {
            // One digit fewer: at most one multiple of 10 × 10^k lies in the interval.
            let sp10 = s / 10 * 10
            let tp10 = sp10 + 10
            let lowIn = vbl + odd <= sp10 << 2
            let highIn = (tp10 << 2) + odd <= vbr
            if lowIn != highIn { return (lowIn ? sp10 : tp10, k) }
        }
        let t = s + 1
        let lowIn = vbl + odd <= s << 2
        let highIn = (t << 2) + odd <= vbr
        if lowIn != highIn { return (lowIn ? s : t, k) }
        // Both lie in the interval: the closer, ties to the even one.
        let twice = (s + t) << 1
        let closerLow = vb < twice || (vb == twice && s & 1 == 0)
        return (closerLow ? s : t, k)
    }

    /// `floor(g × cp / 2^127)` with its lowest bit set when the product has bits below it
    /// (rounding to odd), for `g = high × 2^63 + low`.
    private static func roundToOdd(_ high: UInt64, _ low: UInt64, _ cp: UInt64) -> UInt64 {
        let x1 = low.multipliedFullWidth(by: cp).high
        let y = high.multipliedFullWidth(by: cp)
        let z = (y.low >> 1) + x1
        let vbp = y.high + (z >> 63)
        return vbp | (((z & mask63) + mask63) >> 63)
    }

    /// `floor(q × log10(2))` for |q| ≤ 1,100 (checked for every such q by the tests).
    static func floorLog10Pow2(_ q: Int) -> Int {
        (q * 661_971_961_083) >> 41
    }

    /// `floor(q × log10(2) + log10(3/4))` for |q| ≤ 1,100 (checked by the tests).
    static func floorLog10ThreeQuartersPow2(_ q: Int) -> Int {
        (q * 661_971_961_083 - 274_743_187_321) >> 41
    }
}

/// The 126-bit upper approximations of 10^n for n from -292 to 324 that
/// ``ShortestDecimal`` scales by: for each, `g = floor(10^n × 2^(125 - e)) + 1` with
/// `e = floor(log2(10^n))`, so `2^125 < g ≤ 2^126`, split as `g = high × 2^63 + low`.
/// Computed once, exactly, with the little big-integer arithmetic below.
package struct PowerTable: Sendable {
    package struct Entry: Sendable, Equatable {
        package var high: UInt64
        package var low: UInt64
        /// `floor(log2(10^n))`.
        package var binaryExponent: Int
    }

    package static let smallestPower = -292
    package static let largestPower = 324

    package static let shared = PowerTable()

    private let entries: [Entry]

    package func entry(forPowerOfTen n: Int) -> Entry {
        entries[n - Self.smallestPower]
    }

    private init() {
        var entries = [Entry](repeating: Entry(high: 0, low: 0, binaryExponent: 0),
                              count: Self.largestPower - Self.smallestPower + 1)
        // n ≥ 0: 10^n exactly.
        var power = BigNatural(1)
        for n in 0...Self.largestPower {
            let e = power.bitWidth - 1
            entries[n - Self.smallestPower] = Self.entry(topBitsOf: power, exponent: e, shift: e - 125)
            power.multiply(by: 10)
        }
        // n < 0: floor(2^M / 10^-n), divided by ten once per step (floor of a floor is the
        // floor of the quotient), its top bits taken where 2^(125 - e) / 10^-n falls.
        let m = 1_300
        var quotient = BigNatural(powerOfTwo: m)
        var tens = BigNatural(1)
        for k in 1 ... -Self.smallestPower {
            quotient.divide(by: 10)
            tens.multiply(by: 10)
            let e = -tens.bitWidth   // 10^k is no power of two: floor(log2(10^-k)) = -bitWidth
            entries[-k - Self.smallestPower] = Self.entry(topBitsOf: quotient, exponent: e, shift: m + e - 125)
        }
        self.entries = entries
    }

    /// `floor(x / 2^shift) + 1` (or `x × 2^-shift + 1` for a negative shift) as an entry.
    private static func entry(topBitsOf x: BigNatural, exponent: Int, shift: Int) -> Entry {
        var g = x.bits(from: shift, count: 126)
        g.low += 1
        if g.low == 0 { g.high += 1 }
        let high = g.high << 1 | g.low >> 63
        precondition(g.high >> 63 == 0 && high >> 63 == 0, "g fits 126 bits")
        return Entry(high: high, low: g.low & ((1 << 63) - 1), binaryExponent: exponent)
    }
}

/// A natural number as 64-bit limbs, least significant first: just what ``PowerTable``
/// needs (and the tests, to check the logarithms).
package struct BigNatural: Sendable, Equatable {
    package private(set) var limbs: [UInt64]

    package init(_ value: UInt64) { limbs = [value] }

    package init(powerOfTwo n: Int) {
        limbs = [UInt64](repeating: 0, count: n / 64 + 1)
        limbs[n / 64] = 1 << UInt64(n % 64)
    }

    /// The number of bits up to the highest one (0 for zero).
    package var bitWidth: Int {
        for i in limbs.indices.reversed() where limbs[i] != 0 {
            return i * 64 + 64 - limbs[i].leadingZeroBitCount
        }
        return 0
    }

    package mutating func multiply(by factor: UInt64) {
        var carry: UInt64 = 0
        for i in limbs.indices {
            let product = limbs[i].multipliedFullWidth(by: factor)
            let (sum, overflow) = product.low.addingReportingOverflow(carry)
            limbs[i] = sum
            carry = product.high + (overflow ? 1 : 0)
        }
        if carry != 0 { limbs.append(carry) }
    }

    package mutating func add(_ value: UInt64) {
        var carry = value
        for i in limbs.indices where carry != 0 {
            let (sum, overflow) = limbs[i].addingReportingOverflow(carry)
            limbs[i] = sum
            carry = overflow ? 1 : 0
        }
        if carry != 0 { limbs.append(carry) }
    }

    package mutating func divide(by divisor: UInt64) {
        var remainder: UInt64 = 0
        for i in limbs.indices.reversed() {
            let (q, r) = divisor.dividingFullWidth((remainder, limbs[i]))
            limbs[i] = q
            remainder = r
        }
        while limbs.count > 1, limbs.last == 0 { limbs.removeLast() }
    }

    package static func < (lhs: BigNatural, rhs: BigNatural) -> Bool {
        let (a, b) = (lhs.bitWidth, rhs.bitWidth)
        if a != b { return a < b }
        for i in stride(from: (a + 63) / 64 - 1, through: 0, by: -1) {
            let (x, y) = (lhs.limb(i), rhs.limb(i))
            if x != y { return x < y }
        }
        return false
    }

    private func limb(_ i: Int) -> UInt64 { i >= 0 && i < limbs.count ? limbs[i] : 0 }

    /// `floor(self / 2^shift)` (a negative shift multiplies), keeping its lowest `count`
    /// (≤ 128) bits, as a 128-bit value.
    package func bits(from shift: Int, count: Int) -> (high: UInt64, low: UInt64) {
        func bit(_ i: Int) -> UInt64 {
            guard i >= 0 else { return 0 }
            return (limb(i / 64) >> UInt64(i % 64)) & 1
        }
        var high: UInt64 = 0
        var low: UInt64 = 0
        for j in stride(from: count - 1, through: 0, by: -1) {
            high = high << 1 | low >> 63
            low = low << 1 | bit(shift + j)
        }
        return (high, low)
    }
}
