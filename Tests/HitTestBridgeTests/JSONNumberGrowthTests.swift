@_spi(Tooling) @_spi(FrontEnd) @testable import HitTestBridge
@_spi(Tooling) @_spi(FrontEnd) import InkCore
import Testing

/// Issue 53, class 3: a recording holds every input the engine took. The recorder writes a
/// page's numbers in its own text; how much longer that text can be than the page's is
/// measured here, and the line limits are checked against it.
@Suite("the recorder's text of a number: at most maximumGrowth bytes over the shortest, and the line limits admit the engine's own")
struct JSONNumberGrowthTests {
    /// The shortest JSON text of `value`: its shortest digits, plain or with an exponent
    /// (no `+`, no leading zeros), whichever is shorter.
    static func shortestText(_ value: Double) -> Int {
        if value == 0 { return value.sign == .minus ? 2 : 1 }
        // The shortest digits and the decimal exponent, from `description`'s digits.
        let text = ShortestDecimal.text(value.magnitude)
        var mantissa = Substring(text), power = 0
        if let e = text.firstIndex(of: "e") {
            mantissa = text[..<e]
            power = Int(text[text.index(after: e)...])!
        }
        var digits = mantissa.filter { $0 != "." }
        let pointAt = (mantissa.firstIndex(of: ".").map { mantissa.distance(from: mantissa.startIndex, to: $0) } ?? mantissa.count) + power
        // digits d1…dn with the point after `pointAt` digits: strip leading and trailing zeros.
        var point = pointAt
        while digits.first == "0" { digits.removeFirst(); point -= 1 }
        while digits.last == "0" { digits.removeLast() }
        let n = digits.count
        let sign = value.sign == .minus ? 1 : 0
        let plain: Int
        if point <= 0 { plain = 2 + -point + n }                 // 0.000ddd
        else if point >= n { plain = point }                   // ddd000
        else { plain = n + 1 }                                  // dd.dd
        let exponent = point - 1                                // d.ddd e exponent
        let exponential = n + (n > 1 ? 1 : 0) + 1 + String(exponent).count
        return sign + min(plain, exponential)
    }

    static func written(_ value: Double) -> Int {
        var text: [UInt8] = []
        text.write(number: value)
        return text.count
    }

    @Test("the growth of a number's text is at most 11 bytes (1e14, written in full), over every power of ten, their multiples and a million random doubles; 1e15 stays short")
    func growthIsBounded() {
        var worst = (growth: Int.min, value: 0.0)
        func check(_ value: Double) {
            guard value.isFinite else { return }
            let growth = Self.written(value) - Self.shortestText(value)
            if growth > worst.growth { worst = (growth, value) }
        }
        for power in -330...310 {
            for digits in [1.0, 2, 5, 9, 12, 15, 99, 123, 999, 1234, 99999] {
                let value = digits * pow10(power)
                check(value)
                check(-value)
            }
        }
        var random = SplitMix64(seed: 53)
        for _ in 0..<1_000_000 {
            check(Double(bitPattern: random.next()))
        }
        #expect(worst.growth == JSONTextCursor.maximumGrowth, "the worst growth: \(worst.growth) bytes, at \(worst.value)")
        #expect(worst.growth == 11)
        #expect(Self.written(1e14) - Self.shortestText(1e14) == 11)
        // 1e15 was written 1000000000000000.0 (14 more than 1e15); now 1e+15.
        var text: [UInt8] = []
        text.write(number: 1e15)
        #expect(String(decoding: text, as: UTF8.self) == "1e+15")
        text = []
        text.write(number: 9007199254740992)
        #expect(String(decoding: text, as: UTF8.self) == "9.007199254740992e+15")
        #expect(Double("9.007199254740992e+15") == 9007199254740992)
    }

    @Test("the reader's line limit admits the longest line the recorder writes for a message within the engine's maximum limits")
    func limitsAdmitTheEnginesOwn() {
        let longest = SessionLogLines.longestRecordedLine(limits: InkEngineConfiguration.Limits.maximum)
        #expect(longest == 7_714_571)
        #expect(longest <= SessionLogLines.maxLineBytes)
        #expect(SessionLogLines.longestRecordedLine(limits: InkEngineConfiguration.Limits()) == 1_928_843)
    }

    /// 10^power, exactly as the text reads it.
    func pow10(_ power: Int) -> Double { Double("1e\(power)")! }
}
