@testable import HitTestBridge
import InkCore
import Testing

/// `ShortestDecimal` against the standard library's `Double.description`, which a session
/// log's numbers were written with before it: the same bytes for every value, and each
/// reads back to the same double.
@Suite struct ShortestDecimalTests {
    /// The values that disagree (at most `limit`), as "bits: ours vs description".
    static func disagreements(_ values: some Sequence<Double>, limit: Int = 10) -> [String] {
        var found: [String] = []
        for value in values {
            let ours = ShortestDecimal.text(value)
            let theirs = value.description
            if ours != theirs || (value.isFinite && Double(ours) != value) {
                found.append("0x\(String(value.bitPattern, radix: 16)): \(ours) vs \(theirs)")
                if found.count >= limit { break }
            }
        }
        return found
    }

    @Test func edgeValuesReadAsDescriptionWritesThem() {
        var values: [Double] = [
            0, -0.0, .infinity, -.infinity, .nan, .leastNonzeroMagnitude, .leastNormalMagnitude,
            .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .ulpOfOne, 1, -1, 0.1, 0.2, 0.3, 1.0 / 3,
            2.0 / 3, 0x1p53, 0x1p53 + 2, 0x1p54, 0x1p53 - 1, 1e15, 1e16, 1e-4, 1e-5, 9.999999999999999e-5,
            0.000999999999, 2.2250738585072014e-308, 1.7976931348623157e308, 123456789012345.6,
            // 17-digit values and the classic hard cases of shortest printing.
            2.9802322387695312e-8, 9.5e-5, 1.2345678901234567e-7, 0.30000000000000004,
            1.0000000000000002, 0.9999999999999999, 4.35, 4.345, 2.675, 1e23, 8.41e21, 5.92e-46, 3.6893488147419103e19,
        ]
        // Subnormal and inexact texts the compiler would warn about as literals.
        values += ["5e-324", "1e-323", "2.2250738585072009e-308", "4.9406564584124654e-324", "9007199254740993"].map { Double($0)! }
        // Every power of two, with its neighbours (the lowest significand of a binade has
        // an interval narrower below than above).
        for exponent in -1074...1023 {
            let power = Double(sign: .plus, exponent: exponent, significand: 1)
            values += [power, power.nextUp, power.nextDown, -power]
        }
        // Every power of ten a double comes near, with its neighbours.
        for exponent in -323...308 {
            let power = Double("1e\(exponent)")!
            values += [power, power.nextUp, power.nextDown]
            values += [Double("5e\(exponent)") ?? 0, Double("9.999999999999999e\(exponent)") ?? 0]
        }
        // The smallest subnormals, one by one.
        for pattern in UInt64(1)...2_000 { values.append(Double(bitPattern: pattern)) }
        #expect(Self.disagreements(values).isEmpty)
    }

    @Test func randomBitPatternsReadAsDescriptionWritesThem() {
        var random = SplitMix64(seed: 42)
        let values = (0..<400_000).lazy.map { _ in Double(bitPattern: random.next()) }
        #expect(Self.disagreements(values).isEmpty)
    }

    @Test func recordedKindsOfNumbersReadAsDescriptionWritesThem() {
        // What a recorder writes: times in seconds since boot, points on a canvas, forces
        // and angles, each with a random fraction, and short decimals a device reports.
        var random = SplitMix64(seed: 7)
        var values: [Double] = []
        for _ in 0..<100_000 {
            values.append(Double.random(in: 0..<1_000_000, using: &random))
            values.append(Double.random(in: -4_000..<4_000, using: &random))
            values.append(Double.random(in: 0...1, using: &random))
            values.append(Double(Int.random(in: -999_999...999_999, using: &random)) / 1_000)
            values.append(Double(Int.random(in: 0...99_999_999, using: &random)) * 1e-12)
        }
        #expect(Self.disagreements(values).isEmpty)
    }

    @Test func everyDigitCountAndPointPosition() {
        // d digits (1...17) with the point anywhere from far left to far right.
        var random = SplitMix64(seed: 3)
        var values: [Double] = []
        for digits in 1...17 {
            for point in -30...30 {
                for _ in 0..<20 {
                    var mantissa = "\(Int.random(in: 1...9, using: &random))"
                    for _ in 1..<digits { mantissa += "\(Int.random(in: 0...9, using: &random))" }
                    values.append(Double("0.\(mantissa)e\(point)")!)
                }
            }
        }
        #expect(Self.disagreements(values).isEmpty)
    }

    @Test func appendingToBytesAndStringsWritesTheSameText() {
        var bytes: [UInt8] = Array("x=".utf8)
        var text = "x="
        for value in [1.5, -2.2250738585072014e-308, 0.1, 1e300, 123456.78901234567] {
            bytes.write(number: value)
            text.write(number: value)
            bytes.append(UInt8(ascii: ","))
            text += ","
        }
        #expect(String(decoding: bytes, as: UTF8.self) == text)
        #expect(text == "x=1.5,-2.2250738585072014e-308,0.1,1e+300,123456.78901234567,")
    }

    @Test func integersAndTextWriteTheSameToStringsAndBytes() {
        var text = ""
        var bytes: [UInt8] = []
        for value: Int64 in [0, 7, -7, 10, 99, 100, 123_456_789, .max, .min] {
            text.write(integer: value)
            bytes.write(integer: value)
            text.write(ascii: " ")
            bytes.write(ascii: " ")
        }
        #expect(text == "0 7 -7 10 99 100 123456789 9223372036854775807 -9223372036854775808 ")
        #expect(String(decoding: bytes, as: UTF8.self) == text)
        // A string to escape, with characters of 1 to 4 UTF-8 bytes across the 15-byte
        // pieces a String target is appended in.
        let value = JSONValue.object(JSONObject([("k\"ey", .string("àéîõü \u{1}\t\"\\ 漢字かな 🙂🙂🙂 ñ")), ("n", .number(-0.5))]))
        var viaBytes: [UInt8] = []
        value.write(to: &viaBytes)
        #expect(String(decoding: viaBytes, as: UTF8.self) == value.serialized())
        #expect(value.serialized() == #"{"k\"ey":"àéîõü \u0001\t\"\\ 漢字かな 🙂🙂🙂 ñ","n":-0.5}"#)
    }

    // MARK: - The logarithms and the table, checked exactly

    /// `a × 2^twos × 10^tens` for non-negative exponents.
    static func natural(_ a: UInt64, twos: Int, tens: Int) -> BigNatural {
        var x = BigNatural(a)
        var t = twos
        while t >= 32 {
            x.multiply(by: 1 << 32)
            t -= 32
        }
        x.multiply(by: 1 << UInt64(t))
        var d = tens
        while d >= 19 {
            x.multiply(by: 10_000_000_000_000_000_000)
            d -= 19
        }
        for _ in 0..<d { x.multiply(by: 10) }
        return x
    }

    /// Whether `a × 2^x < b × 10^y` (or ≤), exactly.
    static func less(_ a: UInt64, twos x: Int, than b: UInt64, tens y: Int, orEqual: Bool = false) -> Bool {
        let lhs = natural(a, twos: max(x, 0), tens: max(-y, 0))
        let rhs = natural(b, twos: max(-x, 0), tens: max(y, 0))
        return lhs < rhs || (orEqual && lhs == rhs)
    }

    @Test func theLogarithmsAreExactOverEveryExponentADoubleHas() {
        var wrong: [Int] = []
        for q in -1_100...1_100 {
            // 10^k ≤ 2^q < 10^(k+1)
            let k = ShortestDecimal.floorLog10Pow2(q)
            if Self.less(1, twos: q, than: 1, tens: k) || !Self.less(1, twos: q, than: 1, tens: k + 1) { wrong.append(q) }
            // 10^k ≤ 3 × 2^(q-2) < 10^(k+1)
            let k34 = ShortestDecimal.floorLog10ThreeQuartersPow2(q)
            if Self.less(3, twos: q - 2, than: 1, tens: k34) || !Self.less(3, twos: q - 2, than: 1, tens: k34 + 1) {
                wrong.append(q)
            }
        }
        #expect(wrong.isEmpty)
    }

    @Test func theTableBoundsEveryPowerOfTenFromAbove() {
        // g = high × 2^63 + low must satisfy g - 1 ≤ 10^n × 2^(125 - e) < g, with
        // 2^e ≤ 10^n < 2^(e+1).
        var wrong: [Int] = []
        for n in PowerTable.smallestPower...PowerTable.largestPower {
            let entry = PowerTable.shared.entry(forPowerOfTen: n)
            let e = entry.binaryExponent
            // 2^e ≤ 10^n < 2^(e+1)
            if !Self.less(1, twos: e, than: 1, tens: n, orEqual: true) || Self.less(1, twos: e + 1, than: 1, tens: n, orEqual: true) {
                wrong.append(n)
            }
            // g - 1 ≤ 10^n × 2^(125 - e) < g, both sides scaled to naturals.
            func scaled(_ high: UInt64, _ low: UInt64) -> BigNatural {
                var g = BigNatural(high)
                g.multiply(by: 1 << 63)
                g.add(low)
                for _ in 0 ..< max(-n, 0) { g.multiply(by: 10) }
                for _ in 0 ..< max(e - 125, 0) { g.multiply(by: 2) }
                return g
            }
            let upper = scaled(entry.high, entry.low)
            let lower = entry.low > 0 ? scaled(entry.high, entry.low - 1) : scaled(entry.high - 1, (1 << 63) - 1)
            let tenSide = Self.natural(1, twos: max(125 - e, 0), tens: max(n, 0))
            if !(tenSide < upper) || tenSide < lower { wrong.append(n) }
        }
        #expect(wrong.isEmpty)
    }
}
