import Testing
@_spi(Tooling) @testable import InkCore
@_spi(Tooling) import HitTestBridge
@_spi(Tooling) @testable import InkRecording

@Suite("Strict UTF-8 decoding on every deployment target")
struct StrictUTF8Tests {
    /// Byte sequences at every edge of well-formedness (Unicode 15, table 3-7).
    static let edges: [(bytes: [UInt8], valid: Bool)] = [
        ([], true), ([0x41], true), ([0x7F], true), ([0xC2, 0x80], true), ([0xDF, 0xBF], true),
        ([0xE0, 0xA0, 0x80], true), ([0xED, 0x9F, 0xBF], true), ([0xEE, 0x80, 0x80], true),
        ([0xF0, 0x90, 0x80, 0x80], true), ([0xF4, 0x8F, 0xBF, 0xBF], true), ([0xEF, 0xBB, 0xBF], true),
        ([0x80], false), ([0xBF], false), ([0xC0, 0x80], false), ([0xC1, 0xBF], false),   // stray, overlong
        ([0xE0, 0x80, 0x80], false), ([0xE0, 0x9F, 0xBF], false),                          // overlong
        ([0xED, 0xA0, 0x80], false), ([0xED, 0xBF, 0xBF], false),                          // surrogates
        ([0xF0, 0x80, 0x80, 0x80], false), ([0xF4, 0x90, 0x80, 0x80], false),              // overlong, > U+10FFFF
        ([0xF5, 0x80, 0x80, 0x80], false), ([0xFF], false), ([0xFE], false),
        ([0xC2], false), ([0xE2, 0x82], false), ([0xF0, 0x9F, 0x98], false),               // truncated
        ([0x41, 0xC2, 0x41], false), ([0xE2, 0x41, 0x82], false),
    ]

    @Test("accepts exactly the well-formed sequences, and decodes them unchanged")
    func edgesOfWellFormedness() {
        for (bytes, valid) in Self.edges {
            let decoded = strictUTF8String(bytes)
            #expect((decoded != nil) == valid, "\(bytes.map { String($0, radix: 16) })")
            if let decoded { #expect(Array(decoded.utf8) == bytes) }
        }
    }

    @Test("agrees with the standard library's String(validating:as:) on 20,000 random byte strings")
    func agreesWithTheStandardLibrary() throws {
        guard #available(macOS 15, iOS 18, watchOS 11, tvOS 18, visionOS 2, *) else {
            // Older Apple systems have no reference to compare with; the edge cases above still ran.
            return
        }
        var random = SplitMix64(seed: 7)
        let alphabet: [UInt8] = [0x00, 0x41, 0x7F, 0x80, 0x8F, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2, 0xDF, 0xE0, 0xED,
                                 0xEF, 0xF0, 0xF4, 0xF5, 0xFF]
        var disagreements = 0
        for _ in 0..<20_000 {
            let count = Int(random.next() % 9)
            let bytes = (0..<count).map { _ in
                random.next() % 2 == 0 ? alphabet[Int(random.next() % UInt64(alphabet.count))] : UInt8(truncatingIfNeeded: random.next())
            }
            if strictUTF8String(bytes) != String(validating: bytes, as: UTF8.self) { disagreements += 1 }
        }
        #expect(disagreements == 0)
    }
}
