@_spi(Tooling) import InkCore
@_spi(Tooling) import HitTestBridge

/// The session-log reader's fast path: decodes the lines that make up almost every log (touch
/// events and answers) straight from their UTF-8 bytes, with no JSON tree, no `String` per key
/// or value and no text round trip per number.
///
/// It accepts only a line it reads exactly as the general reader does (``JSONParser`` then the
/// field checks in ``SessionLogLineReader``), and returns `nil` for anything else: another
/// kind, a key it does not know or a repeated key, a `null`, an escape or a non-ASCII byte in
/// a string, an unknown phase, tool or verdict, a value out of range, a JSON fault. The general
/// reader then reads that line, so every fault is found and named exactly as before. A new
/// event kind needs only the general reader; it belongs here too when it is frequent (the
/// kinds are the `Kind` cases, their keys the `Key` bits).
struct SessionLineDecoder {
    /// Decodes `line` as a touch event or an answer, reading a touch's remembered tool from
    /// `tools` when the line leaves it out (and changing nothing: the caller remembers).
    static func decode(_ line: UnsafeBufferPointer<UInt8>, tools: borrowing HeldTools) -> SessionEvent? {
        var cursor = SessionLineDecoder(bytes: line)
        if let event = cursor.writerOrderedTouch(tools: tools) { return event }
        cursor.index = 0
        return cursor.event(tools: tools)
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    private init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// The top-level keys of the kinds read here, one bit each (a repeated key is refused).
    private struct Key: OptionSet {
        let rawValue: UInt16
        static let kind = Key(rawValue: 1 << 0), time = Key(rawValue: 1 << 1), touch = Key(rawValue: 1 << 2)
        static let phase = Key(rawValue: 1 << 3), tool = Key(rawValue: 1 << 4), samples = Key(rawValue: 1 << 5)
        static let predicted = Key(rawValue: 1 << 6), verdict = Key(rawValue: 1 << 7)
        /// The keys each kind may carry (any other goes to the general reader).
        static let touchEvent: Key = [.kind, .time, .touch, .phase, .tool, .samples, .predicted]
        static let answer: Key = [.kind, .time, .touch, .verdict]
    }

    private enum Kind { case touch, answer }

    private static let phases = TouchPhase.allCases.map { (Array($0.rawValue.utf8), $0) }
    private static let toolKinds = ToolKind.allCases.map { (Array($0.rawValue.utf8), $0) }
    private static let verdicts = HitTestVerdict.allCases.map { (Array($0.rawValue.utf8), $0) }

    private mutating func event(tools: borrowing HeldTools) -> SessionEvent? {
        skipWhitespace()
        guard take(UInt8(ascii: "{")) else { return nil }
        var seen: Key = []
        var kind: Kind?
        var time = 0.0, touch: UInt64 = 0
        var phase: TouchPhase?, tool: ToolKind?, verdict: HitTestVerdict?
        var samples: [TouchSample] = [], predicted: [TouchSample] = []
        repeat {
            skipWhitespace()
            guard let key = topLevelKey(), !seen.contains(key) else { return nil }
            seen.insert(key)
            skipWhitespace()
            guard take(UInt8(ascii: ":")) else { return nil }
            skipWhitespace()
            switch key {
            case .kind:
                if literal(#""touch""#) { kind = .touch } else if literal(#""answer""#) { kind = .answer } else { return nil }
            case .time: guard let value = number() else { return nil }; time = value
            case .touch: guard let id = wholeNumber() else { return nil }; touch = id
            case .phase:
                // The common phase first, without the table.
                if literal(#""moved""#) { phase = .moved } else {
                    guard let range = plainString(), let value = choice(range, Self.phases) else { return nil }
                    phase = value
                }
            case .tool: guard let range = plainString(), let value = choice(range, Self.toolKinds) else { return nil }; tool = value
            case .verdict: guard let range = plainString(), let value = choice(range, Self.verdicts) else { return nil }; verdict = value
            case .samples: guard sampleArray(into: &samples) else { return nil }
            case .predicted: guard sampleArray(into: &predicted) else { return nil }
            default: return nil
            }
            skipWhitespace()
        } while take(UInt8(ascii: ","))
        guard take(UInt8(ascii: "}")) else { return nil }
        skipWhitespace()
        guard index == bytes.count, let kind, seen.contains([.kind, .time, .touch]) else { return nil }
        switch kind {
        case .answer:
            guard Key.answer.isSuperset(of: seen), let verdict else { return nil }
            return .answer(touch: PlatformTouchID(touch), verdict: verdict, time: time)
        case .touch:
            guard Key.touchEvent.isSuperset(of: seen), let phase else { return nil }
            return Self.touchEvent(touch, phase, tool, time: time, samples: &samples, predicted: &predicted, tools: tools)
        }
    }

    /// A decoded touch line made an event, with the general reader's checks (`nil` when one
    /// fails: the general reader names the fault).
    private static func touchEvent(_ touch: UInt64, _ phase: TouchPhase, _ tool: ToolKind?, time: Double,
                                   samples: inout [TouchSample], predicted: inout [TouchSample],
                                   tools: borrowing HeldTools) -> SessionEvent? {
        if phase == .began, samples.isEmpty { return nil }
        let id = PlatformTouchID(touch)
        let tool = tool ?? tools.tool(of: id) ?? .finger
        for i in samples.indices {
            // The general reader's checks, in its terms (it names the fault).
            guard samples[i].timestamp <= time + 1e-9 else { return nil }
            samples[i].tool = tool
        }
        for i in predicted.indices { predicted[i].tool = tool }
        return .touch(TouchEvent(touch: id, phase: phase, samples: samples, predicted: predicted), time: time)
    }

    /// The line the writer writes for almost every sample, in its own key order: a `moved`
    /// touch with no tool and no predictions, each sample `t`, `x`, `y` and an optional
    /// `force`, no whitespace. The keys are matched as whole byte runs (eight at a time);
    /// any difference, and `nil` sends the line through ``event(tools:)``, which reads any
    /// order (the cursor is then reset by the caller). What it accepts, it reads exactly as
    /// ``event(tools:)`` would.
    private mutating func writerOrderedTouch(tools: borrowing HeldTools) -> SessionEvent? {
        guard literal(#"{"kind":"touch","t":"#), let time = number(), literal(#","touch":"#),
              let touch = wholeNumber(), literal(#","phase":"moved","samples":["#) else { return nil }
        var samples: [TouchSample] = []
        repeat {
            guard literal(#"{"t":"#), let t = number(), literal(#","x":"#), let x = number(), literal(#","y":"#),
                  let y = number() else { return nil }
            var sample = TouchSample(x: 0, y: 0, timestamp: 0)
            sample.timestamp = t
            sample.x = x
            sample.y = y
            if literal(#","force":"#) {
                guard let force = number(), (0...1).contains(force) else { return nil }
                sample.force = force
            }
            guard take(UInt8(ascii: "}")) else { return nil }
            samples.append(sample)
        } while take(UInt8(ascii: ","))
        guard literal("]}"), index == bytes.count else { return nil }
        var predicted: [TouchSample] = []
        return Self.touchEvent(touch, .moved, nil, time: time, samples: &samples, predicted: &predicted, tools: tools)
    }

    /// An id or index written as digits (what ``JSONFieldReader/unsigned(_:)`` accepts), or
    /// `nil`: a text with a fraction or an exponent goes to the general reader, which takes
    /// it only when it is exactly a whole number (issue 40: `4503599627370496.5` rounds to a
    /// whole `Double`).
    private mutating func wholeNumber() -> UInt64? {
        let start = index
        guard let value = number() else { return nil }
        for i in start..<index where !Self.isDigit(bytes[i]) && bytes[i] != UInt8(ascii: "-") { return nil }
        return Self.unsigned(value)
    }

    /// A whole number a log may use as an id or index (what ``JSONFieldReader/unsigned(_:)``
    /// accepts), or `nil`.
    private static func unsigned(_ number: Double) -> UInt64? {
        guard number >= 0, number == number.rounded(), number <= 9_007_199_254_740_991 else { return nil }
        return UInt64(number)
    }

    /// `[` sample objects `]`, appended to `samples`; `false` at anything else.
    private mutating func sampleArray(into samples: inout [TouchSample]) -> Bool {
        guard take(UInt8(ascii: "[")) else { return false }
        skipWhitespace()
        if take(UInt8(ascii: "]")) { return true }
        repeat {
            skipWhitespace()
            guard let sample = sample() else { return false }
            samples.append(sample)
            skipWhitespace()
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "]"))
    }

    /// One sample object (its tool is set by the caller), or `nil`.
    private mutating func sample() -> TouchSample? {
        guard take(UInt8(ascii: "{")) else { return nil }
        var seen: UInt8 = 0
        var sample = TouchSample(x: 0, y: 0, timestamp: 0)
        repeat {
            skipWhitespace()
            guard let key = sampleKey(), seen & key == 0 else { return nil }
            seen |= key
            skipWhitespace()
            guard take(UInt8(ascii: ":")) else { return nil }
            skipWhitespace()
            if key == 64 {
                guard let index = wholeNumber() else { return nil }
                sample.estimationUpdateIndex = index
                skipWhitespace()
                continue
            }
            guard let value = number() else { return nil }
            switch key {
            case 1: sample.timestamp = value
            case 2: sample.x = value
            case 4: sample.y = value
            case 8:
                guard (0...1).contains(value) else { return nil }
                sample.force = value
            case 16: sample.altitude = value
            case 32: sample.azimuth = value
            default:
                guard value >= 0 else { return nil }
                sample.majorRadius = value
            }
            skipWhitespace()
        } while take(UInt8(ascii: ","))
        guard take(UInt8(ascii: "}")), seen & 7 == 7 else { return nil }
        return sample
    }

    // MARK: Bytes

    @inline(__always) private mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    @inline(__always) private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    /// The bytes of a plain string (ASCII, no escape, no control character), the cursor after
    /// its closing quote; `nil` for any other string.
    private mutating func plainString() -> Range<Int>? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return start..<(index - 1)
            }
            guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\\") else { return nil }
            index += 1
        }
        return nil
    }

    private func equals(_ range: Range<Int>, _ word: [UInt8]) -> Bool {
        guard range.count == word.count else { return false }
        var i = range.lowerBound
        for byte in word {
            guard bytes[i] == byte else { return false }
            i += 1
        }
        return true
    }

    private func choice<Value>(_ range: Range<Int>, _ table: [([UInt8], Value)]) -> Value? {
        for (word, value) in table where equals(range, word) { return value }
        return nil
    }

    /// Whether the bytes at the cursor are `text` (a key or value with its quotes); if so the
    /// cursor moves past them.
    @inline(__always) private mutating func literal(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard index + count <= bytes.count, let base = bytes.baseAddress else { return false }
        let here = UnsafeRawPointer(base + index), start = UnsafeRawPointer(text.utf8Start)
        var offset = 0
        while offset + 8 <= count {   // eight bytes at a time, then the rest one by one
            guard here.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                    == start.loadUnaligned(fromByteOffset: offset, as: UInt64.self) else { return false }
            offset += 8
        }
        while offset < count {
            guard here.load(fromByteOffset: offset, as: UInt8.self) == start.load(fromByteOffset: offset, as: UInt8.self) else {
                return false
            }
            offset += 1
        }
        index += count
        return true
    }

    /// The key at the cursor, quotes included (any other string, or none, is `nil`).
    private mutating func topLevelKey() -> Key? {
        guard index + 1 < bytes.count else { return nil }
        switch bytes[index + 1] {
        case UInt8(ascii: "t"):
            if literal(#""t""#) { return .time }
            if literal(#""touch""#) { return .touch }
            if literal(#""tool""#) { return .tool }
        case UInt8(ascii: "k"): if literal(#""kind""#) { return .kind }
        case UInt8(ascii: "p"):
            if literal(#""phase""#) { return .phase }
            if literal(#""predicted""#) { return .predicted }
        case UInt8(ascii: "s"): if literal(#""samples""#) { return .samples }
        case UInt8(ascii: "v"): if literal(#""verdict""#) { return .verdict }
        default: break
        }
        return nil
    }

    /// A sample key's bit: t 1, x 2, y 4, force 8, altitude 16, azimuth 32, update_index 64,
    /// radius 128.
    private mutating func sampleKey() -> UInt8? {
        guard index + 1 < bytes.count else { return nil }
        switch bytes[index + 1] {
        case UInt8(ascii: "t"): if literal(#""t""#) { return 1 }
        case UInt8(ascii: "x"): if literal(#""x""#) { return 2 }
        case UInt8(ascii: "y"): if literal(#""y""#) { return 4 }
        case UInt8(ascii: "f"): if literal(#""force""#) { return 8 }
        case UInt8(ascii: "a"):
            if literal(#""altitude""#) { return 16 }
            if literal(#""azimuth""#) { return 32 }
        case UInt8(ascii: "u"): if literal(#""update_index""#) { return 64 }
        case UInt8(ascii: "r"): if literal(#""radius""#) { return 128 }
        default: break
        }
        return nil
    }

    // MARK: Numbers

    /// 10^exponent for 0...22, exactly (10^22 is the largest power of ten a `Double` holds
    /// exactly); literals, so the hot path reads no lazily made table.
    @inline(__always) private static func powerOfTen(_ exponent: Int) -> Double {
        switch exponent {
        case 0: 1e0
        case 1: 1e1
        case 2: 1e2
        case 3: 1e3
        case 4: 1e4
        case 5: 1e5
        case 6: 1e6
        case 7: 1e7
        case 8: 1e8
        case 9: 1e9
        case 10: 1e10
        case 11: 1e11
        case 12: 1e12
        case 13: 1e13
        case 14: 1e14
        case 15: 1e15
        case 16: 1e16
        case 17: 1e17
        case 18: 1e18
        case 19: 1e19
        case 20: 1e20
        case 21: 1e21
        default: 1e22
        }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    /// The longest number text the fast path decides (longer ones go to the text conversion):
    /// far above what a writer of shortest round-trip numbers writes (at most 24 bytes,
    /// `-2.2250738585072014e-308`), far below what could make an accumulator lie.
    static let fastTextLimit = 40

    /// An exponent no fast path takes (`exponent >= -22` fails): what the fast path sets when
    /// it did not read a number exactly, so the text conversion reads it.
    private static let undecided = Int.min / 2

    /// A JSON number (RFC 8259 grammar, as ``JSONParser`` reads it), the same `Double` the
    /// parser's text conversion gives: exactly, by one correctly rounded operation on exact
    /// operands when the digits fit in 53 bits and the power of ten is at most 10^22 (Clinger's
    /// fast path), otherwise through the same text conversion. `nil` on a malformed or
    /// out-of-range number.
    ///
    /// The fast path decides only on what it read exactly: a number whose text is longer than
    /// ``fastTextLimit`` bytes (a long run of zeros, a long fraction, many exponent digits),
    /// or whose exponent did not fit the accumulator (it stops at 6 digits, so
    /// `0.` + 99,999 zeros + `1e1000000` would have read as 1), goes to the text conversion,
    /// which reads every digit (that number is 1e900000: out of range, refused).
    private mutating func number() -> Double? {
        // Locals, not the cursor's stored index, in the loops: they stay in registers.
        let bytes = self.bytes
        let count = bytes.count
        let start = index
        var i = index
        let negative = i < count && bytes[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        guard i < count, Self.isDigit(bytes[i]) else { return nil }
        var mantissa: UInt64 = 0
        var significant = 0   // digits in the mantissa from its first non-zero one
        var exponent = 0
        if bytes[i] == UInt8(ascii: "0") {
            i += 1
        } else {
            while i < count, Self.isDigit(bytes[i]) {
                mantissa = mantissa &* 10 &+ UInt64(bytes[i] &- UInt8(ascii: "0"))
                significant += 1
                i += 1
            }
        }
        if i < count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard i < count, Self.isDigit(bytes[i]) else { return nil }
            let fraction = i
            while i < count, Self.isDigit(bytes[i]) {
                mantissa = mantissa &* 10 &+ UInt64(bytes[i] &- UInt8(ascii: "0"))
                if mantissa != 0 { significant += 1 }
                i += 1
            }
            exponent -= i - fraction
        }
        if i < count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            let negativeExponent = i < count && bytes[i] == UInt8(ascii: "-")
            if negativeExponent || (i < count && bytes[i] == UInt8(ascii: "+")) { i += 1 }
            guard i < count, Self.isDigit(bytes[i]) else { return nil }
            var textExponent = 0, saturated = false
            while i < count, Self.isDigit(bytes[i]) {
                if textExponent < 100_000 {
                    textExponent = textExponent * 10 + Int(bytes[i] &- UInt8(ascii: "0"))
                } else {
                    saturated = true   // the exponent was not read exactly
                }
                i += 1
            }
            exponent += negativeExponent ? -textExponent : textExponent
            if saturated { exponent = Self.undecided }
        }
        index = i
        if i &- start > Self.fastTextLimit { exponent = Self.undecided }   // long texts go to the text conversion
        if significant <= 19, mantissa <= 1 << 53, exponent >= -22, exponent <= 22 {
            let magnitude = Double(mantissa)
            let value = exponent >= 0 ? magnitude * Self.powerOfTen(exponent) : magnitude / Self.powerOfTen(-exponent)
            return negative ? -value : value
        }
        if significant <= 19, exponent < 0, exponent >= -Self.largestQuotientPower {
            // 17 to 19 digits (what float arithmetic leaves in times, like 0.036000000000000004),
            // or a power of ten beyond 10^22.
            let value = Self.quotient(mantissa, byPowerOfTen: -exponent)
            return negative ? -value : value
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else { return nil }
        return value
    }

    /// The largest power of ten ``quotient(_:byPowerOfTen:)`` divides by: 5^27 < 2^63.
    static let largestQuotientPower = 27

    /// `digits / 10^power` correctly rounded (to nearest, ties to even), for 1 <= `digits` < 2^64
    /// and `power` in 1...``largestQuotientPower``, by one exact integer division: with
    /// 10^power = 5^power·2^power, the digits shifted left by `shift` (so that the dividend
    /// has 63 + b bits, b the bits of 5^power) divided by 5^power give a quotient q of 63 or
    /// 64 bits, 2^62 <= q < 2^64, and a remainder r. The exact value is (q + r/5^power)·2^-(shift + power);
    /// q with its lowest bit set when r is not 0 (a sticky bit, at least ten bits below the
    /// 53 a `Double` keeps, so that it never makes or breaks a tie) rounds to the same double
    /// as q + r/5^power does, and the power of two scales it exactly (the value, at least
    /// 10^-27, is normal).
    static func quotient(_ digits: UInt64, byPowerOfTen power: Int) -> Double {
        let divisor = fivePower(power)
        let shift = 63 + (64 - divisor.leadingZeroBitCount) - (64 - digits.leadingZeroBitCount)   // 2...125
        let dividend: (high: UInt64, low: UInt64)
        if shift >= 64 {
            dividend = (digits &<< UInt64(shift - 64), 0)
        } else {
            dividend = (digits &>> UInt64(64 - shift), digits &<< UInt64(shift))   // shift >= 2
        }
        // The high word has b - 1 bits: below the divisor, so the quotient fits in 64 bits.
        let (quotient, remainder) = divisor.dividingFullWidth(dividend)
        let rounded = Double(quotient | (remainder == 0 ? 0 : 1))
        return rounded * Double(bitPattern: UInt64(1023 - shift - power) &<< 52)
    }

    /// 5^power for 0...27 (5^27 < 2^63); literals, as ``powerOfTen(_:)``.
    @inline(__always) private static func fivePower(_ power: Int) -> UInt64 {
        switch power {
        case 0: 1
        case 1: 5
        case 2: 25
        case 3: 125
        case 4: 625
        case 5: 3_125
        case 6: 15_625
        case 7: 78_125
        case 8: 390_625
        case 9: 1_953_125
        case 10: 9_765_625
        case 11: 48_828_125
        case 12: 244_140_625
        case 13: 1_220_703_125
        case 14: 6_103_515_625
        case 15: 30_517_578_125
        case 16: 152_587_890_625
        case 17: 762_939_453_125
        case 18: 3_814_697_265_625
        case 19: 19_073_486_328_125
        case 20: 95_367_431_640_625
        case 21: 476_837_158_203_125
        case 22: 2_384_185_791_015_625
        case 23: 11_920_928_955_078_125
        case 24: 59_604_644_775_390_625
        case 25: 298_023_223_876_953_125
        case 26: 1_490_116_119_384_765_625
        default: 7_450_580_596_923_828_125
        }
    }
}
