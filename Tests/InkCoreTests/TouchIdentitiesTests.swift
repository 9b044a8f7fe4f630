import Testing
@_spi(Tooling) import InkCore

/// `TouchIdentities` answers the touch it named last without hashing (issue 42). Checked
/// against the plain map it must equal, over random interleavings: touches down together,
/// platform ids reused, touches finished before or after the platform ends them, the
/// recent ones forgotten, and the pile of never-ended touches let go.
@Suite("TouchIdentities: the last touch named, without hashing")
struct TouchIdentitiesTests {
    /// The rules of the map, written plainly: every answer looked up.
    struct Plain {
        var current: [PlatformTouchID: TouchID] = [:]
        var platform: [TouchID: PlatformTouchID] = [:]
        var recent: [(platform: PlatformTouchID, engine: TouchID)] = []
        var next: UInt64 = 1
        let recentLimit: Int

        func resolve(_ p: PlatformTouchID, phase: TouchPhase) -> Result<TouchID, TouchIdentityError> {
            if phase == .began { return current[p] == nil ? .success(TouchID(next)) : .failure(.stillDown(p)) }
            return current[p].map { .success($0) } ?? .failure(.notDown(p))
        }

        mutating func engineID(for p: PlatformTouchID, phase: TouchPhase) -> TouchID? {
            if phase == .began {
                let id = TouchID(next)
                next += 1
                current[p] = id
                platform[id] = p
                recent.append((p, id))
                if recent.count > recentLimit { recent.removeFirst() }
                return id
            }
            guard let id = current[p] else { return nil }
            if phase == .ended || phase == .cancelled { current[p] = nil }
            return id
        }

        func platformID(of id: TouchID) -> PlatformTouchID? { platform[id] ?? recent.last { $0.engine == id }?.platform }

        mutating func finished(_ id: TouchID) {
            platform[id] = nil
            if current.count > max(256, 2 * platform.count) { current = current.filter { platform[$0.value] != nil } }
        }
    }

    static func resolve(_ map: TouchIdentities, _ p: PlatformTouchID, _ phase: TouchPhase) -> Result<TouchID, TouchIdentityError> {
        do { return .success(try map.resolve(p, phase: phase)) } catch { return .failure(error) }
    }

    @Test("random interleavings: every answer equals the plain map's", arguments: 0..<8)
    func sameAsPlain(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var map = TouchIdentities(recentLimit: 3), plain = Plain(recentLimit: 3)
        let phases: [TouchPhase] = [.began, .moved, .moved, .moved, .ended, .cancelled]
        var mismatches: [String] = []
        for step in 0..<20_000 {
            // Mostly four platform ids down together; now and then one of many (the pile
            // of touches the platform never ends, which the map lets go past 256).
            let wide = random.next() % 8 == 0
            let p = PlatformTouchID(wide ? 100 + random.next() % 600 : random.next() % 4)
            let phase = wide && random.next() % 2 == 0 ? .began : phases[Int(random.next() % UInt64(phases.count))]
            let resolved = Self.resolve(map, p, phase)
            if resolved != plain.resolve(p, phase: phase) { mismatches.append("\(step): resolve \(p) \(phase)") }
            // A host records what the engine took (mostly what resolved; sometimes not).
            let records: Bool
            if case .success = resolved { records = random.next() % 8 != 0 } else { records = random.next() % 4 == 0 }
            if records, map.engineID(for: p, phase: phase) != plain.engineID(for: p, phase: phase) {
                mismatches.append("\(step): engineID \(p) \(phase)")
            }
            // The engine finishes touches, mostly the one begun last (as when it evicts
            // touches the platform never ends), sometimes any.
            if random.next() % 2 == 0, plain.next > 1 {
                let last = random.next() % 5 != 0
                let id = TouchID(last ? plain.next - 1 : 1 + random.next() % (plain.next - 1))
                map.finished(id)
                plain.finished(id)
            }
            let asked = TouchID(1 + random.next() % plain.next)
            if map.platformID(of: asked) != plain.platformID(of: asked) { mismatches.append("\(step): platformID(of: \(asked))") }
            if map.isTracked(asked) != (plain.platform[asked] != nil) { mismatches.append("\(step): isTracked(\(asked))") }
            if map.count != plain.platform.count { mismatches.append("\(step): count") }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
        #expect(map.downPlatformIDs == plain.current.keys.sorted())
    }
}
