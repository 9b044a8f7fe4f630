// libFuzzer target: the engine an app embeds (InkEngine), driven by bytes decoded
// into a sequence of steps: touch events (valid or not), the page's answers (right, stale,
// duplicated, forged), region snapshots, raw page messages, estimated-property updates,
// layout changes and the passing of time. After every step the ledger must balance with
// nothing dropped and every sample handed in received (refused ones counted refused), and every touch that finishes must have delivered its accepted samples
// once, in order (DeliveryAudit). Built by scripts/fuzz.sh engine.
@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkCore

@_spi(Tooling) import SessionReplay

@_cdecl("LLVMFuzzerTestOneInput")
public func engineFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var run = EngineFuzzRun(Array(UnsafeBufferPointer(start: data, count: size)))
    run.run()
    return 0
}

/// A failed check stops the run with its message (`precondition` drops messages under -O).
func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
}

struct EngineFuzzRun {
    private var bytes: [UInt8]
    private var at = 0
    /// The engine and the bridge, driven as every replay and host drives them: the platform's
    /// touch ids through the one touch-id rule, every action through the one audit.
    private var driver: ReplayDriver
    private var host: InkEngine { driver.engine }
    private var output: [EngineEvent] = []
    private var now = 0.0
    private var lastSample: [UInt64: Double] = [:]
    private var requests: [HitTestRequest] = []
    private var acceptedSamples = 0
    private var handedSamples = 0
    private var nextUpdate: UInt64 = 1

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        let a = bytes.first ?? 0, b = bytes.count > 1 ? bytes[1] : 0
        at = min(2, bytes.count)
        var configuration = InkEngineConfiguration(
            decisionTimeout: 0.04 + Double(a >> 4) * 0.02, fallback: a & 4 != 0 ? .ink : .page, pencilOnly: a & 1 != 0,
            gestureWindow: a & 2 != 0 ? 0.15 : 0, useRegionCache: b & 64 == 0, speculativeInk: a & 8 != 0)
        configuration.limits = .init(queuedSamplesPerTouch: Int(b & 7) + 1, activeTouches: Int((b >> 4) & 3) + 1,
                                     boundFallback: b & 8 != 0 ? .ink : .page, messageBytes: 4_096, regions: 16,
                                     roundTripsInFlight: Int(a >> 6) + 1)
        driver = ReplayDriver(engine: InkEngine(configuration: configuration, pageGeneration: UInt64(b >> 7), seed: 1),
                              keepsOutcomes: false)
        advance(to: 0)
    }

    private mutating func byte() -> UInt8 {
        guard at < bytes.count else { return 0 }
        defer { at += 1 }
        return bytes[at]
    }

    /// Mostly ordinary numbers, sometimes the values hostile input carries.
    private mutating func coordinate() -> Double {
        let b = byte()
        let special: [Double] = [.nan, .infinity, -.infinity, -1e308, 1e308, -0.0, .leastNonzeroMagnitude, -7, 0, 1e6]
        return b >= 246 ? special[Int(b) - 246] : Double(b) * 3.5
    }

    private mutating func samples(for id: UInt64, count: Int, tool: ToolKind) -> [TouchSample] {
        var t = lastSample[id] ?? now
        var result: [TouchSample] = []
        for _ in 0..<count {
            let step = byte()
            t += step == 255 ? -0.5 : Double(step & 15) * 0.004  // 255: time goes back
            let force: Double? = step & 16 != 0 ? Double(byte()) / 200 : nil  // above 1 sometimes
            let estimated: UInt64? = step & 32 != 0 ? nextUpdate : nil
            if estimated != nil { nextUpdate += 1 }
            result.append(TouchSample(x: coordinate(), y: coordinate(), timestamp: t, force: force, tool: tool,
                                      estimationUpdateIndex: estimated))
        }
        return result
    }

    mutating func run() {
        while at < bytes.count {
            step(byte())
            let ledger = host.ledger
            check(ledger.dropped == 0, "dropped \(ledger.dropped): \(ledger)")
            check(ledger.received == handedSamples && ledger.received - ledger.refused == acceptedSamples,
                  "received \(ledger.received) (refused \(ledger.refused)), handed in \(handedSamples), accepted \(acceptedSamples)")
            check(driver.problems.count == 0, "\(driver.problems.first)")
        }
        driver.finish(runningDeadlines: false, into: &output)
        drain()
        check(host.ledger.pending == 0 && host.ledger.dropped == 0, "after finish: \(host.ledger)")
        check(driver.problems.count == 0, "\(driver.problems.first)")
        check(driver.auditLedger.received == handedSamples && driver.auditLedger.isBalanced
              && driver.auditLedger.refused == host.ledger.refused, "audit: \(driver.auditLedger), engine: \(host.ledger)")
    }

    private mutating func step(_ op: UInt8) {
        switch op % 12 {
        case 0, 1, 2, 3:
            let phases: [TouchPhase] = [.began, .moved, .ended, .cancelled]
            let phase = phases[Int(op % 12)]
            let id = UInt64(byte() % 5) + 1
            let shape = byte()
            let tool = ToolKind.allCases[Int(shape) % ToolKind.allCases.count]
            let count = phase == .began ? Int(shape >> 4) % 4 : Int(shape >> 4) % 6
            let event = TouchEvent(touch: PlatformTouchID(id), phase: phase, samples: samples(for: id, count: count, tool: tool))
            // Deadlines due by the event's time fire first, and are audited first.
            advance(to: max(now, event.samples.map(\.timestamp).filter { $0.isFinite && $0 < 1e9 }.max() ?? now))
            drain()
            handedSamples += event.samples.count
            if driver.deliver(.touch(event), at: now, into: &output).refusal == nil {
                acceptedSamples += event.samples.count
                if let last = event.samples.last { lastSample[id] = last.timestamp }
            }  // refused: nothing changed
        case 4:  // the page answers a request it was sent (maybe stale, maybe twice)
            guard !requests.isEmpty else { return }
            let pick = byte()
            let request = requests[Int(pick) % requests.count]
            if pick & 128 == 0 { requests.remove(at: Int(pick) % requests.count) }
            let generation = pick & 64 != 0 ? request.generation &+ 1 : request.generation
            receive(#"{"type":"answer","id":"\#(request.token)","interactive":\#(pick & 1 == 0),"generation":\#(generation)\#(document())}"#)
        case 5:  // a forged answer
            let hex = (0..<16).map { _ in String(byte(), radix: 16) }.joined().padding(toLength: 32, withPad: "0", startingAt: 0)
            receive(#"{"type":"answer","id":"\#(hex)","interactive":true,"generation":\#(byte())}"#)
        case 6:  // a region snapshot
            let count = Int(byte() % 24)  // above the cap of 16 sometimes
            let regions = (0..<count).map { _ in
                #"{"x":\#(Int(byte()) * 4),"y":\#(Int(byte()) * 4),"width":\#(Int(byte()) - 8),"height":\#(byte())}"#
            }.joined(separator: ",")
            receive(#"{"type":"regions","generation":\#(byte() % 4)\#(document()),"maxAge":\#(Int(byte()) * 4),"regions":[\#(regions)]}"#)
        case 7:  // raw bytes as a page message
            let count = Int(byte() % 64)
            var raw: [UInt8] = []
            for _ in 0..<count { raw.append(byte()) }
            advanceAndReceive(raw)
        case 8:  // time passes
            advance(to: now + Double(byte()) * 0.005)
        case 9:  // time goes back: refused
            let step = driver.deliver(.tick, at: now - 1 - Double(byte()), into: &output)
            check(step.refusal != nil, "time going back was accepted")
        case 10:  // an estimated-property update, for a real or unknown index
            let id = UInt64(byte() % 5) + 1
            let index = nextUpdate > 1 ? UInt64(byte()) % (nextUpdate + 2) : 0
            let force: Double? = byte() & 1 == 0 ? Double(byte()) / 200 : .nan
            driver.deliver(.update(EstimatedPropertyUpdate(touch: PlatformTouchID(id), updateIndex: index, force: force)), at: now,
                           into: &output)
        default:  // the page scrolled or zoomed, or a new page document began (sometimes with an invalid
            // transform), or the pencil hovers or the pencil-only setting was read again
            let kind = byte()
            if kind & 12 == 4 {
                driver.deliver(kind & 16 == 0 ? .pencilHovering(kind & 32 == 0) : .pencilOnly(kind & 32 == 0), at: now, into: &output)
                break
            }
            if kind & 3 == 0 {
                let scale = coordinate() / 100
                driver.deliver(.newDocument(PageTransform(scale: scale, offsetX: coordinate(), offsetY: 0)), at: now, into: &output)
                break
            }
            let scale = coordinate() / 100
            driver.deliver(.layout(PageTransform(scale: scale, offsetX: coordinate(), offsetY: 0),
                                   generation: byte() & 1 == 0 ? nil : UInt64(byte())), at: now, into: &output)
        }
        drain()
    }

    private mutating func receive(_ text: String) { advanceAndReceive(Array(text.utf8)) }

    /// A message's `document` field: none, or one of three page documents (so that a
    /// document is current, replaced, or new while another is current).
    private mutating func document() -> String {
        let b = byte()
        return b & 4 == 0 ? "" : #","document":"page-\#(b % 3)""#
    }

    private mutating func advanceAndReceive(_ message: [UInt8]) {
        let step = driver.deliver(.pageMessage(message), at: now, into: &output)
        check(step.refusal == nil, "a page message at the host's time was refused: \(String(describing: step.refusal))")
    }

    private mutating func advance(to time: Double) {
        let step = driver.deliver(.tick, at: time, into: &output)
        check(step.refusal == nil, "time moving on was refused: \(String(describing: step.refusal))")
        now = time
    }

    private mutating func drain() {
        for event in output {
            // Everything else was audited by the driver as it came out.
            if case let .send(request, _) = event.kind {
                requests.append(request)
                if requests.count > 64 { requests.removeFirst() }
            }
        }
        output.removeAll(keepingCapacity: true)
    }
}
