import Foundation
@_spi(Tooling) import InkCore
@_spi(Tooling) import HitTestBridge
@_spi(Tooling) @testable import InkRecording
import Testing

/// The reader's byte-level fast path (`SessionLineDecoder`) must read every line exactly as
/// the general reader (the JSON tree and the field checks) does, and name every fault the
/// same way: each line here is read both ways and the results compared.
@Suite("session-log fast path: the same events and faults as the general reader")
struct SessionLineDecoderTests {
    static let header = Array(#"{"format":"scratchpad-ink-session","version":1,"canvas":{"width":1024,"height":768}}"#.utf8)

    /// Reads `line` as line 2 through the reader (fast path first) and through the general
    /// reader only; both with `tools` remembered from `prelude` lines.
    static func compare(_ line: [UInt8], prelude: [[UInt8]] = [], sourceLocation: SourceLocation = #_sourceLocation) {
        var reader = SessionLogLineReader(file: "x.jsonl")
        var reference = SessionLogLineReader(file: "x.jsonl")
        _ = reader.take(line: header, number: 1)
        for (i, earlier) in prelude.enumerated() {
            _ = reader.take(line: earlier, number: i + 2)
            _ = try? reference.decodeEvent(earlier, number: i + 2)
        }
        let number = prelude.count + 2
        let expected: Result<SessionEvent, SessionLogError>
        do throws(SessionLogError) { expected = .success(try reference.decodeEvent(line, number: number)) } catch { expected = .failure(error) }
        switch reader.take(line: line, number: number) {
        case let .event(event):
            #expect(expected == .success(event), "\(String(decoding: line, as: UTF8.self))", sourceLocation: sourceLocation)
        case .failed:
            #expect(expected == .failure(reader.firstFailure!), "\(String(decoding: line, as: UTF8.self))", sourceLocation: sourceLocation)
        case .blank, .header:
            break   // not an event line either way (a blank line is skipped before decoding)
        }
    }

    static let lines: [String] = [
        #"{"kind":"touch","t":0,"touch":1,"phase":"began","tool":"pencil","samples":[{"t":0,"x":100,"y":100,"force":0.5}]}"#,
        #"{"kind":"touch","t":0.004,"touch":1,"phase":"moved","samples":[{"t":0.004,"x":98,"y":99,"force":0.31}]}"#,
        #"{"kind":"touch","t":0.03,"touch":1,"phase":"ended","samples":[]}"#,
        #"{"kind":"answer","t":1.0115,"touch":2,"verdict":"ink"}"#,
        #"{ "t" : 12.5 , "touch" : 3 , "kind" : "touch" , "phase" : "cancelled" , "samples" : [ ] , "tool" : "finger" }"#,
        #"{"kind":"touch","t":1234.5678901234567,"touch":9007199254740991,"phase":"began","tool":"pencil","samples":[{"t":1234.5678901234567,"x":-0.0,"y":1e-7,"force":1,"altitude":1.5707963267948966,"azimuth":-3.14,"update_index":7}],"predicted":[{"t":1234.6,"x":1E2,"y":2.5e+1}]}"#,
        #"{"kind":"touch","t":5,"touch":4,"phase":"moved","samples":[{"t":4.9,"x":0.1,"y":0.2},{"t":5,"x":0.30000000000000004,"y":123456789012345678901234}]}"#,
        #"{"kind":"update","t":2,"touch":1,"update_index":7,"force":0.5,"final":true}"#,
        #"{"kind":"regions","t":-0.25,"generation":1,"max_age":1,"regions":[{"x":0,"y":0,"width":10,"height":10,"element":"a"}]}"#,
    ]

    @Test("typical lines: read by the fast path, and equal to the general reader's events")
    func typicalLines() throws {
        for line in Self.lines { Self.compare(Array(line.utf8)) }
        // The fast path does take the common lines (the throughput rests on it).
        for line in Self.lines.prefix(7) {
            let event = Array(line.utf8).withUnsafeBufferPointer { SessionLineDecoder.decode($0, tools: HeldTools()) }
            #expect(event != nil, "\(line)")
        }
    }

    @Test("a touch's remembered tool, and faults the fast path leaves to the general reader, named the same")
    func faultsAndTools() {
        let began = Array(#"{"kind":"touch","t":0,"touch":1,"phase":"began","tool":"pencil","samples":[{"t":0,"x":1,"y":1}]}"#.utf8)
        Self.compare(Array(#"{"kind":"touch","t":0.1,"touch":1,"phase":"moved","samples":[{"t":0.1,"x":2,"y":2}]}"#.utf8), prelude: [began])
        for bad in [
            #"{"kind":"touch","t":0,"touch":1,"phase":"began","samples":[]}"#,
            #"{"kind":"touch","t":0,"touch":1,"phase":"moved","samples":[{"t":0.5,"x":1,"y":1}]}"#,
            #"{"kind":"touch","t":0,"touch":1,"phase":"moved","samples":[{"t":0,"x":1,"y":1,"force":1.5}]}"#,
            #"{"kind":"touch","t":0,"touch":-1,"phase":"moved"}"#,
            #"{"kind":"touch","t":0,"touch":1.5,"phase":"moved"}"#,
            #"{"kind":"touch","t":0,"touch":9007199254740992,"phase":"moved"}"#,
            #"{"kind":"touch","t":0,"touch":1,"phase":"hover"}"#,
            #"{"kind":"touch","t":0,"touch":1,"phase":"moved","tool":"brush"}"#,
            #"{"kind":"touch","t":0,"touch":1,"touch":2,"phase":"moved"}"#,
            #"{"kind":"touch","t":0,"touch":1,"phase":"moved","samples":[{"t":0,"x":1}]}"#,
            #"{"kind":"touch","t":0,"touch":1,"phase":"moved","samples":[{"t":0,"x":1,"y":1,"t":0}]}"#,
            #"{"kind":"touch","t":0,"touch":1,"phase":"moved","samples":{}}"#,
            #"{"kind":"touch","t":0,"touch":1,"phase":"moved","samples":[]} x"#,
            #"{"kind":"touch","t":01,"touch":1,"phase":"moved"}"#,
            #"{"kind":"touch","t":1.,"touch":1,"phase":"moved"}"#,
            #"{"kind":"touch","t":1e999,"touch":1,"phase":"moved"}"#,
            #"{"kind":"touch","t":null,"touch":1,"phase":"moved"}"#,
            #"{"kind":"touch","t":0,"touch":1,"phase":"moved","tool":null}"#,
            #"{"kind":"t\u006fuch","t":0,"touch":1,"phase":"moved"}"#,
            #"{"kind":"touch","t":0,"touch":1,"phase":"moved","extra":[1,{"a":null}]}"#,
            #"{"kind":"answer","t":0,"touch":1,"verdict":"maybe"}"#,
            #"{"kind":"answer","t":0,"touch":1}"#,
            #"{"kind":"answer","t":0,"touch":1,"verdict":"ink","phase":"moved"}"#,
            #"{"kind":"touch","t":0,"touch":1,"phase":"moved","verdict":"ink"}"#,
            #"{"kind":"nothing","t":0}"#,
            #"{"t":0,"touch":1,"phase":"moved"}"#,
            #"[1,2]"#,
            #"{"kind":"touch","t":0,"touch":1,"phase":"moved","samples":[{"t":0,"x":1,"y":1},]}"#,
        ] {
            Self.compare(Array(bad.utf8))
        }
    }

    @Test("every line of the fixtures reads the same both ways")
    func fixtures() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Fixtures").standardized
        let files = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".jsonl") } ?? []
        #expect(files.count > 10)
        var lines = 0
        for file in files {
            let data = try Data(contentsOf: root.appendingPathComponent(file))
            for line in data.split(separator: 0x0A, omittingEmptySubsequences: true).dropFirst() {
                Self.compare(Array(line))
                lines += 1
            }
        }
        #expect(lines > 100)
    }

    @Test("mutated lines (a byte changed, inserted or removed, numbers of every form): the same event or the same fault")
    func mutations() {
        var random = SplitMix(state: 30)
        let alphabet = Array(#"{}[]:,"\ -+.eE0123456789tnfxy"#.utf8) + [0x09, 0x0D, 0x00, 0x7F, 0xC3, 0xA9, 0xFF]
        for base in Self.lines {
            let bytes = Array(base.utf8)
            for _ in 0..<400 {
                var line = bytes
                for _ in 0...(random.next() % 2) {
                    let at = Int(random.next() % UInt64(line.count))
                    switch random.next() % 3 {
                    case 0: line[at] = alphabet[Int(random.next() % UInt64(alphabet.count))]
                    case 1: line.insert(alphabet[Int(random.next() % UInt64(alphabet.count))], at: at)
                    default: if line.count > 1 { line.remove(at: at) }
                    }
                }
                Self.compare(line)
            }
        }
        // Numbers: the fast path's conversion must give the bits the text conversion gives.
        for _ in 0..<20_000 {
            let text: String
            switch random.next() % 3 {
            case 0: text = "\(Double(bitPattern: random.next() >> 2))"
            case 1: text = "\(random.next() % 100_000_000).\(random.next() % 1_000_000_000_000)"
            default: text = "\(random.next() % 10_000_000_000_000_000_000)e-\(random.next() % 40)"
            }
            Self.compare(Array(#"{"kind":"touch","t":1e300,"touch":1,"phase":"moved","samples":[{"t":\#(text),"x":\#(text),"y":-\#(text)}]}"#.utf8))
        }
    }

    /// Number texts the fast path must decide exactly or leave to the text conversion:
    /// long zero runs with exponents that compensate them, exponents of more digits than the
    /// accumulator keeps, 19 and more significant digits, subnormals, both zeros, the edges
    /// of the range.
    static func trickyNumbers() -> [String] {
        var random = SplitMix(state: 40)
        var texts = ["0", "-0", "0.0", "-0.0", "0e0", "-0e-0", "0e1000000", "-0.0e-99999999", "0." + String(repeating: "0", count: 5_000) + "e1000000",
                     "1e22", "1e23", "9007199254740993", "9007199254740992.5", "123456789012345678", "1234567890123456789",
                     "12345678901234567890", "1234567890123456789012345", "0.1234567890123456789", "0.12345678901234567890123",
                     "4.9406564584124654e-324", "2.4703282292062327e-324", "2.4703282292062328e-324", "2.2250738585072011e-308",
                     "2.2250738585072014e-308", "1e-400", "-1e-400", "1.7976931348623157e308", "-1.7976931348623157e308",
                     "1.7976931348623158e308", "1.7976931348623159e308", "1.8e308", "1e309", "17976931348623157" + String(repeating: "0", count: 292),
                     "17976931348623159" + String(repeating: "0", count: 292), "1e0000000000000000000000000000022", "1e-0000000000000000000000000022",
                     "1e100000", "1e999999", "1e1000000", "1e-1000000", "1e99999999999999999999", "1e-99999999999999999999"]
        // The issue's line: 0. + 99,999 zeros + 1e1000000 is 1e900000 (out of range), and its
        // neighbours, with the exponent's digits beyond the accumulator's six.
        for zeros in [9, 19, 20, 21, 22, 39, 99, 999, 99_999, 300_000] {
            let run = "0." + String(repeating: "0", count: zeros)
            for exponent in ["\(zeros + 1)", "\(zeros)", "\(zeros + 2)", "1000000", "\(zeros + 1_000_000)", "+\(zeros + 1)", "0\(zeros + 1)", "\(zeros + 309)", "\(zeros + 310)"] {
                texts.append(run + "1e" + exponent)
                texts.append(run + "17976931348623157e" + exponent)
            }
            texts.append("1" + String(repeating: "0", count: zeros) + "e-" + "\(zeros)")
            texts.append("1" + String(repeating: "0", count: zeros) + "e-1000000")
            texts.append("1." + String(repeating: "0", count: zeros) + "1")
        }
        for _ in 0..<3_000 {
            let digits = (0..<(1 + Int(random.next() % 30))).map { _ in String(random.next() % 10) }.joined()
            let mantissa = digits.first == "0" ? "1" + digits : digits
            let point = Int(random.next() % UInt64(mantissa.count))
            let body = point == 0 ? mantissa : String(mantissa.prefix(point)) + "." + String(mantissa.dropFirst(point))
            let exponent = Int(random.next() % 700) - 350
            texts.append(body + "e\(exponent)")
            // Subnormals and the edges, written shortest and at full length.
            let bits = random.next()
            let value = Double(bitPattern: random.next() % 2 == 0 ? bits >> 12 : (0x7FE0_0000_0000_0000 | bits >> 12))
            texts.append("\(value)")
            texts.append(String(format: "%.25e", value))
        }
        return texts
    }

    @Test("tricky numbers: the fast path reads each exactly as the text conversion does, or leaves it to it (issue 40)")
    func trickyNumberDifferential() throws {
        for text in Self.trickyNumbers() {
            for signed in [text, "-" + text] where !signed.hasPrefix("--") {
                let line = #"{"kind":"touch","t":1e300,"touch":1,"phase":"moved","samples":[{"t":0,"x":\#(signed),"y":1}]}"#
                // The fast path alone: nil (not decided) or the text conversion's bits.
                let fast = Array(line.utf8).withUnsafeBufferPointer { SessionLineDecoder.decode($0, tools: HeldTools()) }
                let exact = Double(signed).flatMap { $0.isFinite ? $0 : nil }
                if case let .touch(event, _)? = fast {
                    let x = try #require(event.samples.first?.x)
                    #expect(exact?.bitPattern == x.bitPattern, "\(signed.prefix(80)) (\(signed.utf8.count) bytes): fast \(x), exact \(exact.map { "\($0)" } ?? "out of range")")
                }
                // The whole reader (fast path first) against the general reader.
                Self.compare(Array(line.utf8))
            }
        }
    }

    @Test("17 to 19 digits over a power of ten: one integer division, the text conversion's bits for every input, ties and near-ties included")
    func quotientAgainstTextConversion() throws {
        var random = SplitMix(state: 42)
        var cases: [(digits: UInt64, power: Int)] = []
        for power in 1...SessionLineDecoder.largestQuotientPower {
            for _ in 0..<4_000 {
                // Every length of digits from 1 to 19 (and the full 64-bit range), more often the long ones.
                let length = 1 + Int(random.next() % 19)
                var digits = random.next() % Self.powerOfTen(length)
                if random.next() % 8 == 0 { digits = random.next() }
                cases.append((max(digits, 1), power))
            }
            for digits: UInt64 in [1, 9, 10, 1 << 53, (1 << 53) + 1, 1 << 63, UInt64.max, UInt64.max - 1, 9_999_999_999_999_999_999,
                                   10_000_000_000_000_000_000, 4_503_599_627_370_497, 36_000_000_000_000_004] {
                cases.append((digits, power))
            }
        }
        var halfways = 0
        // Exact halfway points between two doubles (odd 54-bit t times 2^j, times 10^p, an
        // integer below 2^64), and one either side: the ties go to even.
        for _ in 0..<20_000 {
            let t = (random.next() >> 10) | (1 << 53) | 1
            let power = 1 + Int(random.next() % 3)
            let j = -power + Int(random.next() % UInt64(power + 4))
            // t·2^j·10^p = t·5^p·2^(j+p), j + p >= 0
            let (product, overflow) = t.multipliedReportingOverflow(by: Self.powerOfTen(power) >> power)
            guard !overflow, (product.leadingZeroBitCount > j + power) else { continue }
            let digits = product << (j + power)
            for near in [digits - 1, digits, digits + 1] { cases.append((near, power)) }
            halfways += 1
        }
        #expect(halfways > 10_000)
        for (digits, power) in cases {
            let text = "\(digits)e-\(power)"
            let exact = try #require(Double(text))
            let fast = SessionLineDecoder.quotient(digits, byPowerOfTen: power)
            #expect(fast.bitPattern == exact.bitPattern, "\(text): \(fast), the text conversion \(exact)")
        }
        #expect(cases.count > 100_000)
        // The 17-digit times float arithmetic leaves, read through a whole line.
        for _ in 0..<5_000 {
            let time = Double(random.next() % 10_000_000) * 0.004
            let line = #"{"kind":"touch","t":\#(time),"touch":1,"phase":"moved","samples":[{"t":\#(time),"x":\#(time),"y":1}]}"#
            guard case let .touch(event, at)? = Array(line.utf8).withUnsafeBufferPointer({ SessionLineDecoder.decode($0, tools: HeldTools()) })
            else { Issue.record("\(line) was not read by the fast path"); continue }
            #expect(at.bitPattern == time.bitPattern && event.samples.first?.x.bitPattern == time.bitPattern, "\(time)")
        }
    }

    static func powerOfTen(_ power: Int) -> UInt64 { (0..<power).reduce(1) { value, _ in value &* 10 } }

    @Test("the issue's number, 0. + 99,999 zeros + 1e1000000, is refused as out of range by the whole reader (issue 40)")
    func clampedExponentRefused() {
        let number = "0." + String(repeating: "0", count: 99_999) + "1e1000000"
        let log = String(decoding: Self.header, as: UTF8.self) + "\n"
            + #"{"kind":"touch","t":0,"touch":1,"phase":"began","samples":[{"t":0,"x":\#(number),"y":1}]}"# + "\n"
        let result = SessionLog.parse(log)
        #expect(result.failure?.line == 2)
        #expect(result.failure.map { "\($0)" }?.contains("out of range") == true, "\(result.failure.map { "\($0)" } ?? "no failure")")
    }

    struct SplitMix {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}
