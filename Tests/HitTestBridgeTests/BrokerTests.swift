import Foundation
import Testing
@_spi(Tooling) import InkCore
@_spi(Tooling) @testable import HitTestBridge

/// Repeatable query ids for tests.
typealias SeededTokens = SplitMix64

@Suite("HitTestBroker")
struct BrokerTests {
    static func broker(_ configuration: BridgeConfiguration = BridgeConfiguration(), transform: PageTransform = .identity,
                       generation: UInt64 = 1) -> HitTestBroker {
        HitTestBroker(configuration: configuration, transform: transform, generation: generation, tokens: SeededTokens(seed: 5))
    }

    static func answer(_ request: HitTestRequest, interactive: String = "1", generation: UInt64? = nil) -> String {
        #"{"type":"answer","id":"\#(request.token)","interactive":\#(interactive),"generation":\#(generation ?? request.generation)}"#
    }

    static func sent(_ actions: [BridgeAction]) -> [HitTestRequest] {
        actions.compactMap { if case let .send(request) = $0 { request } else { nil } }
    }

    let q1 = QueryID(rawValue: 1), q2 = QueryID(rawValue: 2), q3 = QueryID(rawValue: 3)

    @Test("an answer before the timeout decides the query; the same answer again is a duplicate")
    func answerBeforeTimeout() throws {
        var broker = Self.broker()
        var actions: [BridgeAction] = []
        broker.ask(q1, at: CanvasPoint(x: 10, y: 20), now: 1, into: &actions)
        let request = try #require(Self.sent(actions).first)
        #expect(request.pagePoint == PagePoint(x: 10, y: 20) && request.generation == 1)
        #expect(broker.nextDeadline == 1.25)
        actions.removeAll()
        #expect(broker.receive(Array(Self.answer(request).utf8), now: 1.03, into: &actions) == .answered(queries: 1))
        #expect(actions == [.verdict(q1, .page, .page)])
        #expect(broker.nextDeadline == nil)
        actions.removeAll()
        #expect(broker.receive(Array(Self.answer(request).utf8), now: 1.04, into: &actions) == .duplicate)
        broker.deadlinePassed(now: 5, into: &actions)
        #expect(actions.isEmpty)
        #expect(broker.metrics.duplicateAnswers == 1 && broker.metrics.roundTrips == 1 && broker.metrics.timeouts == 0)
    }

    @Test("never answered: the timeout decides by the fallback; an answer after it is late", arguments: [HitTestVerdict.ink, .page])
    func timeout(fallback: HitTestVerdict) throws {
        var broker = Self.broker(BridgeConfiguration(timeout: 0.1, fallback: fallback))
        var actions: [BridgeAction] = []
        broker.ask(q1, at: CanvasPoint(x: 10, y: 20), now: 1, into: &actions)
        let request = try #require(Self.sent(actions).first)
        actions.removeAll()
        broker.deadlinePassed(now: 1.099, into: &actions)
        #expect(actions.isEmpty)
        broker.deadlinePassed(now: 1.1, into: &actions)
        #expect(actions == [.verdict(q1, fallback, .timeout)])
        actions.removeAll()
        #expect(broker.receive(Array(Self.answer(request).utf8), now: 1.2, into: &actions) == .late)
        #expect(actions.isEmpty)
        #expect(broker.metrics.timeouts == 1 && broker.metrics.lateAnswers == 1)
    }

    @Test("answers out of order each decide their own query")
    func outOfOrder() throws {
        var broker = Self.broker()
        var actions: [BridgeAction] = []
        broker.ask(q1, at: CanvasPoint(x: 10, y: 20), now: 1, into: &actions)
        broker.ask(q2, at: CanvasPoint(x: 300, y: 20), now: 1.01, into: &actions)
        let requests = Self.sent(actions)
        try #require(requests.count == 2)
        #expect(requests[0].token != requests[1].token)
        actions.removeAll()
        broker.receive(Array(Self.answer(requests[1], interactive: "0").utf8), now: 1.02, into: &actions)
        broker.receive(Array(Self.answer(requests[0], interactive: "1").utf8), now: 1.03, into: &actions)
        #expect(actions == [.verdict(q2, .ink, .page), .verdict(q1, .page, .page)])
    }

    @Test("an id never issued, well formed or not, decides nothing")
    func unknownAndForged() throws {
        var broker = Self.broker()
        var actions: [BridgeAction] = []
        broker.ask(q1, at: CanvasPoint(x: 10, y: 20), now: 1, into: &actions)
        let request = try #require(Self.sent(actions).first)
        actions.removeAll()
        // A forged id: the right shape, but not the one issued (a page guessing).
        var forged = request
        forged.token = QueryToken(high: request.token.high, low: request.token.low ^ 1)
        #expect(broker.receive(Array(Self.answer(forged).utf8), now: 1.01, into: &actions) == .unknownQuery)
        // Ids that are not 32 lowercase hex digits are refused as malformed.
        for bad in ["1", "\(request.token)".uppercased(), "\(request.token)0", "../\(request.token)"] {
            let text = #"{"type":"answer","id":"\#(bad)","interactive":1,"generation":1}"#
            #expect(broker.receive(Array(text.utf8), now: 1.01, into: &actions) == .refused(.shape(field: "id", message: "expected 32 lowercase hex digits")))
        }
        #expect(actions.isEmpty)
        #expect(broker.waitingQueries == 1)
        #expect(broker.metrics.unknownAnswers == 1 && broker.metrics.refusedMessages == 4)
    }

    @Test("query ids are 128 random bits and never repeat")
    func tokens() {
        var broker = HitTestBroker()
        var actions: [BridgeAction] = []
        for i in 0..<200 { broker.ask(QueryID(rawValue: UInt64(i)), at: CanvasPoint(x: Double(i) * 10, y: 0), now: 0, into: &actions) }
        let ids = Self.sent(actions).map(\.token)
        #expect(ids.count == 64)  // maxInFlight: the rest got the fallback at once
        #expect(Set(ids).count == ids.count)
        #expect(ids.allSatisfy { QueryToken(hex: $0.description) == $0 && $0.description.count == 32 })
        #expect(broker.metrics.overloaded == 136)
    }

    @Test("a query cancelled while waiting gets no verdict; the round trip's answer is then late")
    func cancelled() throws {
        var broker = Self.broker()
        var actions: [BridgeAction] = []
        broker.ask(q1, at: CanvasPoint(x: 10, y: 20), now: 1, into: &actions)
        let request = try #require(Self.sent(actions).first)
        actions.removeAll()
        broker.cancel(q1)
        broker.cancel(q1)  // twice: nothing more
        #expect(broker.nextDeadline == nil)
        #expect(broker.receive(Array(Self.answer(request).utf8), now: 1.1, into: &actions) == .late)
        broker.deadlinePassed(now: 9, into: &actions)
        #expect(actions.isEmpty)
        #expect(broker.metrics.cancelled == 1)
    }

    @Test("two queries for the same spot share one round trip; a cancelled one leaves the other waiting")
    func shared() throws {
        var broker = Self.broker()
        var actions: [BridgeAction] = []
        broker.ask(q1, at: CanvasPoint(x: 10, y: 20), now: 1, into: &actions)
        broker.ask(q2, at: CanvasPoint(x: 12, y: 22), now: 1.01, into: &actions)
        broker.ask(q3, at: CanvasPoint(x: 30, y: 20), now: 1.02, into: &actions)
        let requests = Self.sent(actions)
        #expect(requests.count == 2)
        #expect(broker.metrics.sharedQueries == 1)
        broker.cancel(q1)
        actions.removeAll()
        broker.receive(Array(Self.answer(requests[0], interactive: "0").utf8), now: 1.05, into: &actions)
        #expect(actions == [.verdict(q2, .ink, .page)])
    }

    @Test("the transform maps canvas points to page points, in requests and cache lookups")
    func transform() throws {
        let transform = PageTransform(scale: 2, offsetX: 100, offsetY: 500)
        var broker = Self.broker(transform: transform)
        var actions: [BridgeAction] = []
        broker.ask(q1, at: CanvasPoint(x: 10, y: 20), now: 1, into: &actions)
        #expect(Self.sent(actions).first?.pagePoint == PagePoint(x: 120, y: 540))
        // A region at page (110...130, 530...550) holds canvas (5...15, 15...25).
        broker.receive(Array(#"{"type":"regions","generation":1,"maxAge":1000,"regions":[{"x":110,"y":530,"width":20,"height":20}]}"#.utf8),
                       now: 1, into: &actions)
        actions.removeAll()
        broker.ask(q2, at: CanvasPoint(x: 14, y: 24), now: 1.1, into: &actions)
        broker.ask(q3, at: CanvasPoint(x: 16, y: 24), now: 1.1, into: &actions)
        #expect(actions == [.verdict(q2, .page, .cache), .verdict(q3, .ink, .cache)])
        // After a scroll the same canvas point is another page point.
        try broker.layoutChanged(transform: PageTransform(scale: 2, offsetX: 100, offsetY: 0), now: 1.2, into: &actions)
        actions.removeAll()
        broker.ask(QueryID(rawValue: 9), at: CanvasPoint(x: 14, y: 24), now: 1.2, into: &actions)
        #expect(actions == [.verdict(QueryID(rawValue: 9), .ink, .cache)])
    }

    @Test("a transform that is not finite, or scales by zero or less, is refused and changes nothing",
          arguments: [PageTransform(scale: .nan, offsetX: 0, offsetY: 0), PageTransform(scale: 0, offsetX: 0, offsetY: 0),
                      PageTransform(scale: -1, offsetX: 0, offsetY: 0), PageTransform(scale: 1, offsetX: .infinity, offsetY: 0),
                      PageTransform(scale: 1, offsetX: 0, offsetY: .nan)])
    func badTransform(transform: PageTransform) {
        var broker = Self.broker(transform: PageTransform(scale: 2, offsetX: 1, offsetY: 1))
        var actions: [BridgeAction] = []
        #expect(throws: InvalidPageTransform.self) {  // by type: NaN never equals itself
            try broker.layoutChanged(transform: transform, generation: 9, now: 0, into: &actions)
        }
        #expect(broker.transform == PageTransform(scale: 2, offsetX: 1, offsetY: 1) && broker.generation == 1)
        #expect(actions.isEmpty)
    }

    @Test("a non-finite point gets the fallback at once, never a cache verdict or a request")
    func nonFinitePoint() {
        var broker = Self.broker(BridgeConfiguration(fallback: .page))
        var actions: [BridgeAction] = []
        broker.receive(Array(#"{"type":"regions","generation":1,"maxAge":1000,"regions":[]}"#.utf8), now: 0, into: &actions)
        broker.ask(q1, at: CanvasPoint(x: .nan, y: 3), now: 0.1, into: &actions)
        broker.ask(q2, at: CanvasPoint(x: 3, y: -.infinity), now: 0.1, into: &actions)
        #expect(actions == [.verdict(q1, .page, .failure), .verdict(q2, .page, .failure)])
        #expect(broker.metrics.cacheHits == 0 && broker.metrics.roundTrips == 0 && broker.metrics.failures == 2)
    }

    @Test("cache: fresh answers at once, stale and missing ask the page, an older generation is refused")
    func cache() throws {
        var broker = Self.broker()
        var actions: [BridgeAction] = []
        let snapshot = #"{"type":"regions","generation":3,"maxAge":500,"regions":[{"x":0,"y":0,"width":50,"height":50,"element":"ok"}]}"#
        broker.ask(q1, at: CanvasPoint(x: 100, y: 100), now: 1, into: &actions)  // missing: round trip
        #expect(Self.sent(actions).count == 1)
        actions.removeAll()
        #expect(broker.receive(Array(snapshot.utf8), now: 2, into: &actions) == .regionsAccepted)
        // The fresh snapshot answers the round trip in flight at once (nothing sent again).
        #expect(actions == [.verdict(q1, .ink, .cache)] && broker.generation == 3)
        actions.removeAll()
        broker.ask(q2, at: CanvasPoint(x: 10, y: 10), now: 2.5, into: &actions)  // fresh (500 ms)
        #expect(actions == [.verdict(q2, .page, .cache)])
        actions.removeAll()
        broker.ask(q3, at: CanvasPoint(x: 10, y: 10), now: 2.51, into: &actions)  // stale
        #expect(Self.sent(actions).count == 1)
        let older = #"{"type":"regions","generation":2,"regions":[]}"#
        #expect(broker.receive(Array(older.utf8), now: 3, into: &actions) == .regionsRefused(.olderGeneration(got: 2, current: 3)))
        // A newer layout generation known from the host makes the snapshot outdated.
        #expect(broker.cache.lookup(PagePoint(x: 10, y: 10), now: 2.1, generation: 3) == .fresh(.page))
        #expect(broker.cache.lookup(PagePoint(x: 10, y: 10), now: 2.1, generation: 4) == .outdated)
        #expect(broker.metrics.cacheHits == 2 && broker.metrics.snapshotsRefused == 1)
    }

    @Test("a snapshot of a newer generation that cannot decide a round trip in flight does not send it again; the page's answer for the request's generation decides; an answer naming a newer one is stale and sent again")
    func newerSnapshotKeepsTheQuestion() throws {
        // With the cache off, no snapshot decides anything: the question stays out.
        var broker = Self.broker(BridgeConfiguration(useCache: false))
        var actions: [BridgeAction] = []
        broker.ask(q1, at: CanvasPoint(x: 100, y: 100), now: 1, into: &actions)
        let request = try #require(Self.sent(actions).first)
        actions.removeAll()
        let snapshot = #"{"type":"regions","generation":5,"maxAge":1000,"regions":[]}"#
        #expect(broker.receive(Array(snapshot.utf8), now: 1.01, into: &actions) == .regionsAccepted)
        #expect(actions.isEmpty && broker.generation == 5)
        // The page answers for the request's generation (its mapping held): taken.
        let answer = PageAnswer(token: request.token, verdict: .page, generation: request.generation).json
        #expect(broker.receive(Array(answer.utf8), now: 1.02, into: &actions) == .answered(queries: 1))
        #expect(actions == [.verdict(q1, .page, .page)])
        // Another question; the page's mapping moved on: its answer names generation 6.
        actions.removeAll()
        broker.ask(q2, at: CanvasPoint(x: 100, y: 100), now: 1.03, into: &actions)
        let second = try #require(Self.sent(actions).first)
        #expect(second.generation == 5)
        actions.removeAll()
        let moved = PageAnswer(token: second.token, verdict: .ink, generation: 6).json
        #expect(broker.receive(Array(moved.utf8), now: 1.04, into: &actions) == .staleGeneration)
        #expect(Self.sent(actions).map(\.generation) == [6])
    }

    @Test("with the cache off every query is a round trip")
    func cacheOff() {
        var broker = Self.broker(BridgeConfiguration(useCache: false))
        var actions: [BridgeAction] = []
        broker.receive(Array(#"{"type":"regions","generation":1,"regions":[]}"#.utf8), now: 0, into: &actions)
        broker.ask(q1, at: CanvasPoint(x: 10, y: 10), now: 0.1, into: &actions)
        #expect(Self.sent(actions).count == 1 && broker.metrics.cacheHits == 0)
    }

    @Test("an answer for another layout generation is stale: the round trip is sent again")
    func staleAnswer() throws {
        var broker = Self.broker()
        var actions: [BridgeAction] = []
        broker.ask(q1, at: CanvasPoint(x: 10, y: 20), now: 1, into: &actions)
        let first = try #require(Self.sent(actions).first)
        actions.removeAll()
        #expect(broker.receive(Array(Self.answer(first, generation: 2).utf8), now: 1.02, into: &actions) == .staleGeneration)
        let second = try #require(Self.sent(actions).first)
        #expect(second.generation == 2 && second.token != first.token)
        actions.removeAll()
        // The old id is settled: a second answer to it is late, not a verdict.
        #expect(broker.receive(Array(Self.answer(first).utf8), now: 1.03, into: &actions) == .late)
        #expect(broker.receive(Array(Self.answer(second, interactive: "false").utf8), now: 1.04, into: &actions) == .answered(queries: 1))
        #expect(actions == [.verdict(q1, .ink, .page)])
        #expect(broker.metrics.staleAnswers == 1 && broker.metrics.roundTrips == 2)
    }

    @Test("the oracle failing decides by the fallback")
    func oracleFails() throws {
        var broker = Self.broker(BridgeConfiguration(fallback: .page))
        var actions: [BridgeAction] = []
        broker.ask(q1, at: CanvasPoint(x: 10, y: 20), now: 1, into: &actions)
        let request = try #require(Self.sent(actions).first)
        actions.removeAll()
        broker.failed(request.token, into: &actions)
        #expect(actions == [.verdict(q1, .page, .failure)])
        #expect(broker.metrics.failures == 1)
    }

    @Test("booleans sent as numbers are accepted", arguments: [("1", HitTestVerdict.page), ("0", .ink), ("true", .page), ("false", .ink)])
    func booleanAsNumber(text: String, verdict: HitTestVerdict) throws {
        var broker = Self.broker()
        var actions: [BridgeAction] = []
        broker.ask(q1, at: CanvasPoint(x: 10, y: 20), now: 1, into: &actions)
        let request = try #require(Self.sent(actions).first)
        actions.removeAll()
        broker.receive(Array(Self.answer(request, interactive: text).utf8), now: 1.01, into: &actions)
        #expect(actions == [.verdict(q1, verdict, .page)])
    }

    @Test("malformed and oversize messages are refused with what was wrong", arguments: [
        (#"{"type":"answer""#, "not JSON: column 17: "),
        (#"[1,2]"#, "field '(message)': expected an object, found an array"),
        (#"{"type":"hello"}"#, #"field 'type': expected "answer" or "regions", found "hello""#),
        (#"{"type":"answer","id":"00000000000000000000000000000001","interactive":2,"generation":1}"#, "field 'interactive': "),
        (#"{"type":"answer","id":"00000000000000000000000000000001","interactive":1}"#, "field 'generation': "),
        (#"{"type":"regions","generation":1,"regions":[{"x":0,"y":0,"width":-1,"height":1}]}"#, "field 'regions[0].width': expected at least 0"),
        (#"{"type":"regions","generation":1,"regions":[{"x":"0","y":0,"width":1,"height":1}]}"#, "field 'regions[0].x': "),
        (#"{"type":"regions","generation":1,"maxAge":-5,"regions":[]}"#, "field 'maxAge': expected milliseconds, at least 0"),
        (String(repeating: "[", count: 100) + String(repeating: "]", count: 100), "not JSON: "),
        ("{\"type\":\"answer\",\"id\":\"\u{FFFD}\"}", "field 'id': "),
    ])
    func malformed(text: String, prefix: String) {
        var broker = Self.broker()
        var actions: [BridgeAction] = []
        guard case let .refused(error) = broker.receive(Array(text.utf8), now: 0, into: &actions) else {
            Issue.record("accepted: \(text)")
            return
        }
        #expect(error.description.hasPrefix(prefix), "\(error)")
        #expect(actions.isEmpty)
    }

    @Test("a message over the size cap is refused before parsing; invalid UTF-8 is refused")
    func oversize() {
        var broker = Self.broker(BridgeConfiguration(maxMessageBytes: 1_000))
        var actions: [BridgeAction] = []
        let big = #"{"type":"regions","generation":1,"regions":["# + String(repeating: #"{"x":0,"y":0,"width":1,"height":1},"#, count: 40) + "]}"
        #expect(broker.receive(Array(big.utf8), now: 0, into: &actions) == .refused(.tooLarge(bytes: big.utf8.count, limit: 1_000)))
        // Even bytes that are not JSON at all are measured first.
        #expect(broker.receive([UInt8](repeating: 0xFF, count: 1_001), now: 0, into: &actions) == .refused(.tooLarge(bytes: 1_001, limit: 1_000)))
        guard case .refused(.syntax) = broker.receive([0x7B, 0xFF, 0x7D], now: 0, into: &actions) else {
            Issue.record("invalid UTF-8 accepted")
            return
        }
        #expect(broker.metrics.refusedMessages == 3)
    }

    @Test("snapshots with too many or invalid regions are refused and the cache keeps what it had")
    func snapshotBounds() {
        var cache = RegionCache(maxRegions: 2)
        let ok = RegionSnapshot(generation: 1, maxAge: 1, regions: [PageRegion(x: 0, y: 0, width: 5, height: 5)])
        #expect(throws: Never.self) { try cache.accept(ok, now: 0, knownGeneration: 0) }
        let many = RegionSnapshot(generation: 2, regions: Array(repeating: PageRegion(x: 0, y: 0, width: 1, height: 1), count: 3))
        #expect(throws: RegionCache.Refusal.tooManyRegions(count: 3, limit: 2)) { try cache.accept(many, now: 0, knownGeneration: 0) }
        let nan = RegionSnapshot(generation: 2, regions: [PageRegion(x: .nan, y: 0, width: 1, height: 1)])
        #expect(throws: RegionCache.Refusal.invalidRegion(index: 0)) { try cache.accept(nan, now: 0, knownGeneration: 0) }
        #expect(cache.entry?.snapshot == ok)
    }

    @Test("negative page coordinates are taken (a region at x = -1 answers); a negative width or height refuses the snapshot")
    func negativeCoordinatesTaken() throws {
        var cache = RegionCache(maxRegions: 10)
        let scrolled = RegionSnapshot(generation: 1, maxAge: 1, regions: [PageRegion(x: -1, y: -20, width: 10, height: 30, element: "b")])
        #expect(throws: Never.self) { try cache.accept(scrolled, now: 0, knownGeneration: 0) }
        #expect(cache.entry?.snapshot == scrolled)
        #expect(cache.entry?.index.region(at: PagePoint(x: -0.5, y: -10))?.element == "b")
        for bad in [PageRegion(x: 0, y: 0, width: -1, height: 1), PageRegion(x: 0, y: 0, width: 1, height: -1)] {
            #expect(throws: RegionCache.Refusal.invalidRegion(index: 0)) {
                try cache.accept(RegionSnapshot(generation: 2, regions: [bad]), now: 0, knownGeneration: 0)
            }
        }
        #expect(cache.entry?.snapshot == scrolled)
    }
}

@Suite("RegionIndex")
struct RegionIndexTests {
    @Test("agrees with a linear scan on 5,000 random regions", arguments: [1 as UInt64, 2, 3])
    func agreesWithScan(seed: UInt64) {
        var random = SeededTokens(seed: seed)
        func unit() -> Double { Double(random.next() >> 11) / Double(UInt64(1) << 53) }
        var regions: [PageRegion] = []
        for i in 0..<5_000 {
            // Mostly small controls, some wide bars, a few huge panels.
            let huge = i % 997 == 0, wide = i % 37 == 0
            regions.append(PageRegion(x: unit() * 4_000, y: unit() * 20_000,
                                      width: huge ? 3_000 : wide ? 1_500 : 10 + unit() * 80,
                                      height: huge ? 8_000 : 10 + unit() * 40))
        }
        let index = RegionIndex(regions: regions)
        for _ in 0..<20_000 {
            let p = PagePoint(x: unit() * 4_400 - 200, y: unit() * 21_000 - 500)
            let expected = regions.first { $0.contains(p) }
            #expect(index.region(at: p) == expected)
        }
        // Edges are inside.
        #expect(index.contains(PagePoint(x: regions[1].x, y: regions[1].y)))
        #expect(index.contains(PagePoint(x: regions[1].x + regions[1].width, y: regions[1].y + regions[1].height)))
    }

    @Test("empty, degenerate and non-finite input")
    func degenerate() {
        #expect(!RegionIndex(regions: []).contains(PagePoint(x: 0, y: 0)))
        let one = RegionIndex(regions: [PageRegion(x: 5, y: 5, width: 0, height: 0)])
        #expect(one.contains(PagePoint(x: 5, y: 5)))
        #expect(!one.contains(PagePoint(x: 5, y: 5.001)))
        #expect(!one.contains(PagePoint(x: .nan, y: 5)))
        let bad = RegionIndex(regions: [PageRegion(x: .infinity, y: 0, width: 1, height: 1), PageRegion(x: 0, y: 0, width: 2, height: 2)])
        #expect(bad.region(at: PagePoint(x: 1, y: 1)) == PageRegion(x: 0, y: 0, width: 2, height: 2))
    }

    /// Issue 29: a snapshot whose finite regions spanned more than the largest Double made the
    /// grid's cell size infinite and a cell index NaN: `Int(NaN)` stopped the process (any
    /// app, `verify`, `run`, `host`) as the snapshot arrived.
    @Test("finite regions spanning more than the largest Double (-1e308 to 1e308, -max to max): built, and every lookup agrees with a scan",
          arguments: [1e308, Double.greatestFiniteMagnitude])
    func spanBeyondTheLargestDouble(far: Double) {
        let regions = [
            PageRegion(x: -far, y: -far, width: 10, height: 10), PageRegion(x: far - 10, y: far - 10, width: 10, height: 10),
            PageRegion(x: 0, y: 0, width: 10, height: 10), PageRegion(x: -far, y: 0, width: far, height: 10),
            PageRegion(x: 20, y: far / 2, width: far / 4, height: 1e300),
        ]
        let index = RegionIndex(regions: regions)
        let points = [PagePoint(x: -far, y: -far), PagePoint(x: far, y: far), PagePoint(x: far - 5, y: far - 5),
                      PagePoint(x: 5, y: 5), PagePoint(x: -far / 2, y: 5), PagePoint(x: 15, y: 15),
                      PagePoint(x: 1e200, y: far / 2 + 1), PagePoint(x: far, y: -far), PagePoint(x: 0, y: far)]
        for p in points {
            #expect(index.region(at: p) == regions.first { $0.contains(p) }, "\(p)")
            for margin in [0, 8, 1e300, Double.greatestFiniteMagnitude] {
                let expected = regions.contains {
                    p.x >= $0.x - margin && p.x <= $0.x + $0.width + margin && p.y >= $0.y - margin && p.y <= $0.y + $0.height + margin
                }
                #expect(index.hasRegion(near: p, margin: margin) == expected, "\(p) ± \(margin)")
            }
        }
    }
}

@Suite("Speculative ink suggestions")
struct SpeculationTests {
    static let q1 = QueryID(rawValue: 1)

    static func broker(snapshot: String?, at time: Double = 0) -> HitTestBroker {
        var broker = HitTestBroker(configuration: BridgeConfiguration(speculativeInk: true, speculationMargin: 20),
                                   generation: 1, tokens: SeededTokens(seed: 2))
        var ignored: [BridgeAction] = []
        if let snapshot { broker.receive(Array(snapshot.utf8), now: time, into: &ignored) }
        return broker
    }

    static let button = #"{"type":"regions","generation":1,"maxAge":100,"regions":[{"x":100,"y":100,"width":50,"height":30}]}"#

    @Test("a stale snapshot clear of the touch suggests tentative ink alongside the round trip")
    func staleAndClear() {
        var broker = Self.broker(snapshot: Self.button)
        var actions: [BridgeAction] = []
        broker.ask(Self.q1, at: CanvasPoint(x: 10, y: 10), now: 5, into: &actions)
        #expect(actions.count == 2 && actions.last == .speculate(Self.q1))
        #expect(broker.metrics.speculations == 1)
    }

    @Test("no suggestion near a region, without a snapshot, or when the cache decides", arguments: [
        (Optional(button), 5.0, CanvasPoint(x: 95, y: 95)),    // within the margin of the button
        (Optional(button), 5.0, CanvasPoint(x: 120, y: 140)),  // 10 below it
        (nil, 5.0, CanvasPoint(x: 10, y: 10)),                  // nothing known
        (Optional(button), 0.05, CanvasPoint(x: 10, y: 10)),   // fresh: the cache decides
    ])
    func noSuggestion(snapshot: String?, now: Double, point: CanvasPoint) {
        var broker = Self.broker(snapshot: snapshot)
        var actions: [BridgeAction] = []
        broker.ask(Self.q1, at: point, now: now, into: &actions)
        #expect(!actions.contains(.speculate(Self.q1)))
    }

    @Test("the margin search agrees with a scan on random regions")
    func nearAgreesWithScan() {
        var random = SeededTokens(seed: 11)
        func unit() -> Double { Double(random.next() >> 11) / Double(UInt64(1) << 53) }
        let regions = (0..<800).map { i in
            PageRegion(x: unit() * 2_000, y: unit() * 2_000, width: i % 100 == 0 ? 1_500 : unit() * 60, height: unit() * 60)
        }
        let index = RegionIndex(regions: regions)
        for _ in 0..<5_000 {
            let p = PagePoint(x: unit() * 2_200 - 100, y: unit() * 2_200 - 100)
            let margin = unit() * 40
            let expected = regions.contains {
                p.x >= $0.x - margin && p.x <= $0.x + $0.width + margin && p.y >= $0.y - margin && p.y <= $0.y + $0.height + margin
            }
            #expect(index.hasRegion(near: p, margin: margin) == expected)
        }
    }
}

@Suite("Wire requests")
struct WireRequestTests {
    @Test("the script invocation is built only from our own numbers and hex digits")
    func invocation() throws {
        let request = HitTestRequest(token: QueryToken(high: 0x0123_4567_89ab_cdef, low: 0xfedc_ba98_7654_3210),
                                     pagePoint: PagePoint(x: 12.5, y: -3), generation: 7)
        #expect(request.json == #"{"type":"hitTest","id":"0123456789abcdeffedcba9876543210","x":12.5,"y":-3,"generation":7}"#)
        #expect(request.scriptInvocation == "(window.scratchpadInk ? (window.scratchpadInk.hitTest(\(request.json)), true) : false);")
        // Non-finite coordinates never reach the script as NaN or Infinity.
        let odd = HitTestRequest(token: request.token, pagePoint: PagePoint(x: .nan, y: .infinity), generation: 0)
        #expect(odd.json.contains(#""x":0,"y":0"#))
        #expect(QueryToken(hex: "0123456789abcdeffedcba9876543210") == request.token)
        #expect(QueryToken(hex: "0123456789ABCDEFfedcba9876543210") == nil)
    }
}

@Suite("A page answering with other generations")
struct StaleFloodTests {
    @Test("is re-asked at most maxResends times; then the deadline decides")
    func boundedResends() throws {
        var broker = HitTestBroker(configuration: BridgeConfiguration(timeout: 0.2), generation: 1, tokens: SeededTokens(seed: 4))
        var actions: [BridgeAction] = []
        broker.ask(QueryID(rawValue: 1), at: CanvasPoint(x: 1, y: 1), now: 0, into: &actions)
        var request = try #require(BrokerTests.sent(actions).last)
        for round in 0..<10 {
            actions.removeAll()
            let text = #"{"type":"answer","id":"\#(request.token)","interactive":1,"generation":0}"#
            let outcome = broker.receive(Array(text.utf8), now: 0.01 * Double(round), into: &actions)
            guard let next = BrokerTests.sent(actions).last else {
                #expect(round == HitTestBroker.maxResends)
                #expect(outcome == .staleGeneration)
                break
            }
            request = next
        }
        #expect(broker.metrics.roundTrips == 1 + HitTestBroker.maxResends)
        actions.removeAll()
        broker.deadlinePassed(now: 0.2, into: &actions)
        #expect(actions == [.verdict(QueryID(rawValue: 1), .ink, .timeout)])
    }
}
