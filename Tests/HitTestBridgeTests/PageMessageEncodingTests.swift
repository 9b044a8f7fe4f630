import Foundation
@_spi(Tooling) import InkCore
import Testing
@_spi(Tooling) @testable import HitTestBridge

/// Random page messages of the kind `PageMessage.decode` returns.
private struct MessageGenerator {
    var rng: SplitMix64

    init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    /// The largest generation JSON can carry exactly (2^53 − 1).
    static let maxGeneration: UInt64 = 9_007_199_254_740_991

    /// Characters that need escaping, or that an escaper could mangle.
    static let scalars: [Unicode.Scalar] = [
        "a", "Z", "0", "-", "_", " ", "/", "<", "\"", "\\", "\n", "\r", "\t", "\u{0}", "\u{8}", "\u{C}",
        "\u{1F}", "\u{7F}", "é", "\u{301}", "\u{2028}", "\u{FEFF}", "\u{FFFD}", "😀", "𝄞", "中",
    ]

    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }

    mutating func generation() -> UInt64 {
        switch int(0...3) {
        case 0: UInt64(int(0...10))
        case 1: Self.maxGeneration - UInt64(int(0...10))
        default: UInt64.random(in: 0...Self.maxGeneration, using: &rng)
        }
    }

    /// A finite double: what a page posts (hundredths), whole numbers, or any bit pattern.
    mutating func double() -> Double {
        switch int(0...4) {
        case 0: return Double(int(-1_000_000...1_000_000)) / 100
        case 1: return Double(int(-5000...5000))
        case 2: return [0, -0.0, .leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, 0.1 + 0.2][int(0...6)]
        default:
            while true {
                let value = Double(bitPattern: rng.next())
                if value.isFinite { return value }
            }
        }
    }

    mutating func element() -> String? {
        guard int(0...3) > 0 else { return nil }
        var text = String.UnicodeScalarView()
        for _ in 0..<int(0...12) { text.append(Self.scalars[int(0...(Self.scalars.count - 1))]) }
        return String(text)
    }

    mutating func message() -> PageMessage {
        if int(0...2) == 0 {
            return .answer(PageAnswer(token: QueryToken(high: rng.next(), low: rng.next()),
                                      verdict: int(0...1) == 0 ? .ink : .page, generation: generation()))
        }
        // maxAge as the decoder makes it: milliseconds (at least 0) divided by 1000.
        let maxAge: Double? = int(0...4) == 0 ? nil : abs(double()) / 1000
        let regions = (0..<int(0...8)).map { _ in
            PageRegion(x: double(), y: double(), width: abs(double()), height: abs(double()), element: element())
        }
        return .regions(RegionSnapshot(generation: generation(), maxAge: maxAge, regions: regions))
    }
}

/// The messages among `count` random ones (drawn from `seed`) that `encode` does not write
/// as text reading back as the same message.
private func counterexamples(count: Int, seed: UInt64, encode: (PageMessage) -> String) -> [(PageMessage, String)] {
    var generator = MessageGenerator(seed: seed)
    var failures: [(PageMessage, String)] = []
    for _ in 0..<count {
        let message = generator.message()
        let text = encode(message)
        if (try? PageMessage.decode(text)) != message { failures.append((message, text)) }
    }
    return failures
}

@Suite("Page message encoding")
struct PageMessageEncodingTests {
    static let token = QueryToken(high: 0x0123_4567_89ab_cdef, low: 0x0000_0000_0000_00ff)

    @Test("answers are written as the page script posts them and read back", arguments: [HitTestVerdict.ink, .page])
    func answers(verdict: HitTestVerdict) throws {
        let answer = PageAnswer(token: Self.token, verdict: verdict, generation: 42)
        let message = PageMessage.answer(answer)
        let interactive = verdict == .page ? 1 : 0
        #expect(message.json == #"{"type":"answer","id":"0123456789abcdef00000000000000ff","interactive":\#(interactive),"generation":42}"#)
        #expect(answer.json == message.json)
        #expect(try PageMessage.decode(message.json) == message)
    }

    @Test("snapshots are written as the page script posts them, element left out when absent")
    func snapshots() throws {
        let snapshot = RegionSnapshot(generation: 3, maxAge: 1, regions: [
            PageRegion(x: 110, y: 530.5, width: 20, height: 12.34, element: "submit"),
            PageRegion(x: -4, y: 0, width: 0, height: 1),
        ])
        let message = PageMessage.regions(snapshot)
        #expect(message.json == #"{"type":"regions","generation":3,"maxAge":1000,"regions":[{"x":110,"y":530.5,"width":20,"height":12.34,"element":"submit"},{"x":-4,"y":0,"width":0,"height":1}]}"#)
        #expect(snapshot.json == message.json)
        #expect(try PageMessage.decode(message.json) == message)
    }

    @Test("an empty snapshot, and one without maxAge (the field is left out)")
    func emptySnapshots() throws {
        let bounded = PageMessage.regions(RegionSnapshot(generation: 1, maxAge: 0.5, regions: []))
        #expect(bounded.json == #"{"type":"regions","generation":1,"maxAge":500,"regions":[]}"#)
        #expect(try PageMessage.decode(bounded.json) == bounded)
        let unbounded = PageMessage.regions(RegionSnapshot(generation: 0, maxAge: nil, regions: []))
        #expect(unbounded.json == #"{"type":"regions","generation":0,"regions":[]}"#)
        #expect(try PageMessage.decode(unbounded.json) == unbounded)
    }

    @Test("element ids are escaped and read back", arguments: [
        #"say "hi""#, #"back\slash"#, "line\nbreak\r\ttab", "nul\u{0}bell\u{7}esc\u{1B}us\u{1F}del\u{7F}",
        "é vs e\u{301}", "中文 😀 𝄞", "\u{2028}\u{2029}\u{FEFF}", "", #"\"\\"#, "}],\"x\":1,{",
    ])
    func elementIds(element: String) throws {
        let message = PageMessage.regions(RegionSnapshot(generation: 7, maxAge: 1, regions: [
            PageRegion(x: 1, y: 2, width: 3, height: 4, element: element),
        ]))
        let decoded = try PageMessage.decode(message.json)
        #expect(decoded == message)
        // Not just equal as Swift strings (canonically equivalent): the same scalars.
        guard case let .regions(snapshot) = decoded else { Issue.record("not a snapshot"); return }
        #expect(snapshot.regions.first?.element.map { Array($0.unicodeScalars) } == Array(element.unicodeScalars))
        // No raw control character reaches the text.
        #expect(!message.json.unicodeScalars.contains { $0.value < 0x20 })
    }

    @Test("the escapes are JSON's")
    func escapes() {
        let message = PageMessage.regions(RegionSnapshot(generation: 1, regions: [
            PageRegion(x: 0, y: 0, width: 1, height: 1, element: "a\"b\\c\nd\u{1}e/é"),
        ]))
        #expect(message.json == #"{"type":"regions","generation":1,"regions":[{"x":0,"y":0,"width":1,"height":1,"element":"a\"b\\c\nd\u0001e/é"}]}"#)
    }

    @Test("generations up to 2^53 − 1 read back exactly, written as integers")
    func largeGenerations() throws {
        let largest = MessageGenerator.maxGeneration
        let answer = PageMessage.answer(PageAnswer(token: Self.token, verdict: .page, generation: largest))
        #expect(answer.json.hasSuffix(#","generation":9007199254740991}"#))
        #expect(try PageMessage.decode(answer.json) == answer)
        let snapshot = PageMessage.regions(RegionSnapshot(generation: largest, maxAge: 2, regions: []))
        #expect(snapshot.json.hasPrefix(#"{"type":"regions","generation":9007199254740991,"#))
        #expect(try PageMessage.decode(snapshot.json) == snapshot)
    }

    @Test("a generation above 2^53 − 1 is written exactly and refused, never read as another one",
          arguments: [UInt64.max, 9_007_199_254_740_992, 9_007_199_254_740_993])
    func generationsTooLargeForJSON(generation: UInt64) {
        let answer = PageMessage.answer(PageAnswer(token: Self.token, verdict: .ink, generation: generation))
        let snapshot = PageMessage.regions(RegionSnapshot(generation: generation, maxAge: 1, regions: []))
        for message in [answer, snapshot] {
            #expect(message.json.contains(#""generation":\#(generation)"#))
            let error = #expect(throws: WireMessageError.self) { try PageMessage.decode(message.json) }
            guard case let .shape(field, _) = error else { Issue.record("not refused as a shape error: \(String(describing: error))"); continue }
            #expect(field == "generation")
        }
    }

    @Test("fractional and extreme coordinates read back as the same Double", arguments: [
        0.1 + 0.2, 12.34, -123.456, 1e-7, 1.5e300, -2.5e-300, 1e15, 1e15 + 0.5, 9_007_199_254_740_994,
        .leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, 1.0 / 3.0,
    ] as [Double])
    func coordinates(value: Double) throws {
        let neighbour = value.magnitude.nextUp.isFinite ? value.magnitude.nextUp : value.magnitude.nextDown
        let message = PageMessage.regions(RegionSnapshot(generation: 2, maxAge: value.magnitude / 1000, regions: [
            PageRegion(x: value, y: -value, width: value.magnitude, height: neighbour, element: "n"),
        ]))
        let decoded = try PageMessage.decode(message.json)
        #expect(decoded == message)
        guard case let .regions(snapshot) = decoded, let region = snapshot.regions.first else {
            Issue.record("no region"); return
        }
        // Bit for bit, not just ==.
        #expect(region.x.bitPattern == value.bitPattern)
        #expect(region.height.bitPattern == neighbour.bitPattern)
    }

    @Test("whole numbers are written without a fraction (negative zero as -0, keeping its sign); others in full")
    func numberText() {
        let message = PageMessage.regions(RegionSnapshot(generation: 1, maxAge: 0.0001, regions: [
            PageRegion(x: 20.0, y: -0.0, width: 0.30000000000000004, height: 1e-7),
        ]))
        #expect(message.json == #"{"type":"regions","generation":1,"maxAge":0.1,"regions":[{"x":20,"y":-0,"width":0.30000000000000004,"height":1e-07}]}"#)
    }

    @Test("maxAge: every value the decoder makes reads back exactly; other seconds within one ulp")
    func maxAgeMilliseconds() throws {
        var rng = SplitMix64(seed: 0x5EED_0001)
        var unequal: [Double] = [], farther: [Double] = []
        for i in 0..<5000 {
            let bits = Double(bitPattern: rng.next() >> 1)  // positive; maybe infinite or NaN
            guard bits.isFinite else { continue }
            // As decoded: milliseconds / 1000.
            let decodedSeconds = (i % 2 == 0 ? bits : Double(i) / 100) / 1000
            let message = PageMessage.regions(RegionSnapshot(generation: 1, maxAge: decodedSeconds, regions: []))
            if (try? PageMessage.decode(message.json)) != message { unequal.append(decodedSeconds) }
            // Any seconds: the millisecond wire cannot express them all.
            guard bits <= .greatestFiniteMagnitude / 1000 else { continue }
            let back = RegionSnapshot.wireMilliseconds(seconds: bits) / 1000
            if back != bits, back != bits.nextUp, back != bits.nextDown { farther.append(bits) }
        }
        #expect(unequal.isEmpty, "\(unequal.count) maxAge values did not read back, first: \(unequal.prefix(3))")
        #expect(farther.isEmpty, "\(farther.count) seconds values read back more than one ulp away, first: \(farther.prefix(3))")
        // The largest the decoder makes, and beyond (where seconds * 1000 overflows).
        let largest = PageMessage.regions(RegionSnapshot(generation: 1, maxAge: .greatestFiniteMagnitude / 1000, regions: []))
        #expect(try PageMessage.decode(largest.json) == largest)
        #expect(RegionSnapshot.wireMilliseconds(seconds: .greatestFiniteMagnitude) == .greatestFiniteMagnitude)
    }

    @Test("hundreds of random messages read back as themselves, and write the same text again")
    func property() throws {
        let failures = counterexamples(count: 600, seed: 0x1A2B_3C4D_5E6F_7081) { $0.json }
        #expect(failures.isEmpty, "\(failures.count) messages did not read back, first: \(failures.first.map { "\($0.1)" } ?? "")")
        var generator = MessageGenerator(seed: 0x1A2B_3C4D_5E6F_7081)
        for _ in 0..<600 {
            let text = generator.message().json
            #expect(try PageMessage.decode(text).json == text)
        }
    }

    @Test("a wrongly written message does not read back equal: the checks can fail")
    func wrongEncodingsAreCaught() throws {
        // Each broken encoder writes almost the right message; the property check must
        // find counterexamples for every one.
        func mapRegions(_ message: PageMessage, _ change: (RegionSnapshot) -> RegionSnapshot) -> String {
            guard case let .regions(snapshot) = message else { return message.json }
            return PageMessage.regions(change(snapshot)).json
        }
        let broken: [(String, (PageMessage) -> String)] = [
            ("verdict flipped", { message in
                guard case var .answer(answer) = message else { return message.json }
                answer.verdict = answer.verdict == .page ? .ink : .page
                return PageMessage.answer(answer).json
            }),
            ("maxAge written in seconds", { message in
                mapRegions(message) { var s = $0; s.maxAge = s.maxAge.map { $0 / 1000 }; return s }
            }),
            ("coordinates at Float precision", { message in
                mapRegions(message) { var s = $0; for i in s.regions.indices { s.regions[i].x = Double(Float(s.regions[i].x)) }; return s }
            }),
            ("element ids dropped", { message in
                mapRegions(message) { var s = $0; for i in s.regions.indices { s.regions[i].element = nil }; return s }
            }),
            ("generation off by one", { message in
                switch message {
                case var .answer(answer): answer.generation ^= 1; return PageMessage.answer(answer).json
                case var .regions(snapshot): snapshot.generation ^= 1; return PageMessage.regions(snapshot).json
                }
            }),
        ]
        for (name, encode) in broken {
            #expect(!counterexamples(count: 200, seed: 7, encode: encode).isEmpty, "no counterexample for \(name)")
        }

        // And hand-made corruptions of correct text.
        let message = PageMessage.regions(RegionSnapshot(generation: 5, maxAge: 1, regions: [
            PageRegion(x: 0.1 + 0.2, y: 1, width: 2, height: 3, element: "a\"b"),
        ]))
        let text = message.json
        for wrong in [
            text.replacingOccurrences(of: "0.30000000000000004", with: "0.3"),
            text.replacingOccurrences(of: #""maxAge":1000"#, with: #""maxAge":1"#),
            text.replacingOccurrences(of: #""a\"b""#, with: #""a\\b""#),
            text.replacingOccurrences(of: #","element":"a\"b""#, with: ""),
        ] {
            #expect(wrong != text)
            #expect((try? PageMessage.decode(wrong)) != message, "\(wrong)")
        }
    }

    @Test("for what a page posts, the text is what JSON.stringify writes",
          .enabled(if: nodeExecutable != nil, "node is not installed, so this JavaScript check is SKIPPED (scripts/install-test-tools.sh installs it)"))
    func sameTextAsJavaScript() throws {
        // Page-like messages: hundredths, as the script rounds them; ids without \b or \f
        // (which JSON.stringify writes as \b and \f, the module's writer as \u0008, \u000c).
        var rng = SplitMix64(seed: 99)
        var texts: [String] = [
            PageMessage.answer(PageAnswer(token: Self.token, verdict: .page, generation: 1)).json,
            PageMessage.answer(PageAnswer(token: Self.token, verdict: .ink, generation: MessageGenerator.maxGeneration)).json,
            PageMessage.regions(RegionSnapshot(generation: 1, maxAge: 1, regions: [])).json,
        ]
        for _ in 0..<50 {
            func hundredths() -> Double { Double(Int.random(in: -500_000...500_000, using: &rng)) / 100 }
            let regions = (0..<Int.random(in: 0...5, using: &rng)).map { i in
                PageRegion(x: hundredths(), y: hundredths(), width: abs(hundredths()), height: abs(hundredths()),
                           element: i % 2 == 0 ? nil : "id-\(i) \"q\" \\ \n\t\u{1}é😀")
            }
            let maxAge = Double(Int.random(in: 0...60_000, using: &rng)) / 1000
            texts.append(PageMessage.regions(RegionSnapshot(generation: UInt64.random(in: 1...1_000_000, using: &rng),
                                                            maxAge: maxAge, regions: regions)).json)
        }
        let check = """
            const texts = JSON.parse(process.argv[1]);
            const differ = texts.filter((t) => JSON.stringify(JSON.parse(t)) !== t);
            console.log(JSON.stringify(differ));
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(nodeExecutable))
        process.arguments = ["-e", check, JSONValue.array(texts.map(JSONValue.string)).serialized()]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(output == "[]\n")
    }
}
