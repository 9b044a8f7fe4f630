/// SplitMix64 (Steele, Lea & Flood 2014): a tiny, fast, seeded generator, so generated
/// sessions, replays with jitter, benchmarks and property tests repeat exactly from their
/// seed. Not for secrets: the bridge's query ids use the system generator unless a test or
/// a replay injects this one.
package struct SplitMix64: RandomNumberGenerator, Sendable, Hashable {
    /// The current state.
    package private(set) var state: UInt64

    /// Creates a generator from a seed.
    package init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in 0..<1.
    package mutating func unit() -> Double { Double(next() >> 11) / Double(UInt64(1) << 53) }
}
