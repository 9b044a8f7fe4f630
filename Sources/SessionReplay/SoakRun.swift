@_spi(Tooling) import InkCore
@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkRecording

/// Settings of a soak run (``SoakRun``).
package struct SoakConfiguration: Sendable {
    /// Simulated seconds to run.
    package var duration: Double
    /// Seeds the generated student and page.
    package var seed: UInt64
    /// Simulated seconds between checkpoints.
    package var checkpointInterval: Double
    /// Simulated seconds per exercise: the canvas clears between exercises.
    package var exerciseLength: Double

    package init(duration: Double, seed: UInt64 = 1, checkpointInterval: Double = 3_600, exerciseLength: Double = 600) {
        self.duration = duration
        self.seed = seed
        self.checkpointInterval = checkpointInterval
        self.exerciseLength = exerciseLength
    }
}

/// The state of a soak run at one moment.
package struct SoakCheckpoint: Sendable {
    /// Simulated seconds since the start.
    package var time: Double
    /// The engine's ledger so far.
    package var ledger: SampleLedger
    /// Touches begun so far.
    package var touches: Int
    /// What the run holds that could grow: open touches in the audit, mapped platform
    /// touches, queries the host tracks and round trips the bridge waits for, pending page
    /// messages, strokes on the canvas. All must stay small over any length of run.
    package var heldState: Int
    /// Resident memory from the probe, bytes (`nil` without a probe).
    package var residentBytes: Int?
}

/// What a soak run saw.
package struct SoakReport: Sendable {
    /// The engine's ledger after the final flush.
    package var ledger: SampleLedger
    /// The engine's counters.
    package var counters: RouterCounters
    /// The bridge's counters.
    package var bridge: BridgeMetrics
    /// Problems the sample-flow audit found (at most ``DeliveryAudit/problemLimit``).
    package var problems: [String]
    /// Every problem found.
    package var problemCount: Int
    /// Touches that finished and were audited.
    package var touchesChecked: Int
    /// Touches begun.
    package var touches: Int
    /// What the generated page did: answers sent on time, late, never; malformed,
    /// duplicated, stale and forged messages.
    package var pageBehaviour: [String: Int]
    /// One per checkpoint interval, and one at the end.
    package var checkpoints: [SoakCheckpoint]

    /// Nothing dropped, nothing pending, no audit problem.
    package var passed: Bool { ledger.isBalanced && problemCount == 0 }
}

/// A long generated session through the engine (`InkEngine`, driven by ``ReplayDriver``) in
/// simulated time: a student writing, dotting, tapping and scrolling with reused platform
/// touch ids, and a page that answers on time, late, never, with garbage, twice, for an old
/// layout, or forges answers; it pushes region snapshots, stalls, and scrolls. Every touch
/// is audited as it finishes (`DeliveryAudit`), so the run holds only what is live and its
/// memory must stay flat. `ink-replay soak` runs it and reports resident memory.
package struct SoakRun {
    private let configuration: SoakConfiguration
    private let memoryProbe: (@Sendable () -> Int?)?
    private var random: SplitMix64
    /// The engine and the bridge, the student's and the page's scheduled inputs, the audit.
    private var driver: ReplayDriver
    private var canvas = InkLayer()
    private var output: [EngineEvent] = []
    private var behaviour: [String: Int] = [:]
    private var touches = 0
    private var generation: UInt64 = 0
    private var scroll = 0.0
    private var stalledUntil = -1.0
    /// Whether the page pushes region snapshots this exercise (when not, every query is a
    /// round trip); it alternates, so every run of two exercises or more meets both pages.
    private var pushesRegions = true
    private var nextSnapshot = 0.0
    private var nextScroll = 120.0
    private var nextUpdateIndex: UInt64 = 1
    private var checkpoints: [SoakCheckpoint] = []

    /// Where the canvas lands on the page now: scrolled down by `scroll`.
    private var view: PageTransform { PageTransform(scale: 1, offsetX: 0, offsetY: scroll) }
    /// The page's interactive regions, in page coordinates (buttons and blocks).
    private static let regions: [PageRegion] = [
        PageRegion(x: 40, y: 40, width: 120, height: 48), PageRegion(x: 200, y: 40, width: 120, height: 48),
        PageRegion(x: 700, y: 600, width: 160, height: 56), PageRegion(x: 60, y: 700, width: 90, height: 90),
        PageRegion(x: 170, y: 700, width: 90, height: 90), PageRegion(x: 280, y: 700, width: 90, height: 90),
    ]

    /// - Parameter memoryProbe: Reads resident memory at each checkpoint (the CLI passes
    ///   one; tests need not).
    package init(configuration: SoakConfiguration, memoryProbe: (@Sendable () -> Int?)? = nil) {
        self.configuration = configuration
        self.memoryProbe = memoryProbe
        random = SplitMix64(seed: configuration.seed)
        var engineConfiguration = InkEngineConfiguration(decisionTimeout: 0.25, fallback: .ink, speculativeInk: true)
        engineConfiguration.limits = .init(roundTripsInFlight: 8)
        driver = ReplayDriver(
            engine: InkEngine(configuration: engineConfiguration, pageGeneration: 0, seed: configuration.seed),
            keepsOutcomes: false)
    }

    /// Runs the whole session and reports.
    ///
    /// - Parameter progress: Called with the simulated seconds done after each episode of
    ///   writing and the pause after it (a few simulated seconds apart), synchronously, on the
    ///   caller's thread; what `ink-replay soak` shows as progress. `nil` (the default) calls
    ///   nothing.
    package mutating func run(progress: ((_ simulatedSeconds: Double) -> Void)? = nil) -> SoakReport {
        var clock = 0.0
        var nextCheckpoint = configuration.checkpointInterval
        var nextExercise = configuration.exerciseLength
        while clock < configuration.duration {
            let episodeEnd = generateEpisode(at: clock)
            process(until: episodeEnd)
            clock = episodeEnd + pause()
            process(until: clock)
            if clock >= nextExercise, driver.openTouches == 0 {
                canvas = InkLayer()
                pushesRegions.toggle()   // every other exercise, a page that pushes no snapshots
                nextExercise += configuration.exerciseLength
            }
            while clock >= nextCheckpoint {
                checkpoints.append(checkpoint(at: nextCheckpoint))
                nextCheckpoint += configuration.checkpointInterval
            }
            progress?(min(clock, configuration.duration))
        }
        driver.finish(into: &output)
        drain()
        checkpoints.append(checkpoint(at: clock))
        let engine = driver.engine
        return SoakReport(
            ledger: engine.ledger, counters: engine.counters, bridge: engine.bridgeMetrics, problems: driver.problems.first,
            problemCount: driver.problems.count, touchesChecked: driver.touchesChecked, touches: touches,
            pageBehaviour: behaviour, checkpoints: checkpoints)
    }

    private func checkpoint(at time: Double) -> SoakCheckpoint {
        SoakCheckpoint(
            time: time, ledger: driver.engine.ledger, touches: touches,
            heldState: driver.openTouches + driver.engine.trackedTouches + driver.engine.trackedQueries + driver.engine.waitingQuestions
                + driver.scheduledCount + canvas.strokes.count,
            residentBytes: memoryProbe?())
    }

    // MARK: - The student

    private mutating func pause() -> Double {
        random.unit() < 0.03 ? 10 + random.unit() * 50 : 0.05 + random.unit() * 1.5
    }

    /// Schedules one episode (a stroke, a dot, a tap or drag on the page, a two-finger
    /// scroll) starting at `start`; returns when its last event happens.
    private mutating func generateEpisode(at start: Double) -> Double {
        let kind = random.unit()
        if kind < 0.003 {
            // A palm, or a platform gone wrong: 40 touches at once, past the active-touch bound.
            var end = start
            for i in 0..<40 {
                end = max(end, scheduleTouch(platform: UInt64(2 + i), tool: .finger, at: start + Double(i) * 0.001, rate: 60,
                                             duration: 0.05, point: point(onInk: true)))
            }
            return end
        } else if kind < 0.6 {
            return scheduleTouch(platform: 0, tool: .pencil, at: start, rate: 240, duration: 0.1 + random.unit() * 1.4,
                                 point: point(onInk: true))
        } else if kind < 0.75 {
            return scheduleTouch(platform: 0, tool: .pencil, at: start, rate: 120, duration: 0.01 + random.unit() * 0.03,
                                 point: point(onInk: true))
        } else if kind < 0.92 {
            return scheduleTouch(platform: 0, tool: .finger, at: start, rate: 60, duration: 0.05 + random.unit() * 0.8,
                                 point: point(onInk: random.unit() < 0.3))
        } else {
            let duration = 0.3 + random.unit() * 0.7
            let first = scheduleTouch(platform: 0, tool: .finger, at: start, rate: 60, duration: duration, point: point(onInk: true))
            let second = scheduleTouch(platform: 1, tool: .finger, at: start + 0.03, rate: 60, duration: duration,
                                       point: point(onInk: true))
            return max(first, second)
        }
    }

    private mutating func point(onInk: Bool) -> CanvasPoint {
        if onInk { return CanvasPoint(x: 400 + random.unit() * 500, y: 150 + random.unit() * 400) }
        let region = Self.regions[Int(random.next() % UInt64(Self.regions.count))]
        let target = PagePoint(x: region.x + random.unit() * region.width, y: region.y + random.unit() * region.height)
        return view.canvasPoint(for: target)
    }

    private mutating func scheduleTouch(platform: UInt64, tool: ToolKind, at start: Double, rate: Double, duration: Double,
                                        point: CanvasPoint) -> Double {
        touches += 1
        let count = max(2, Int(duration * rate))
        let cancelAt = random.unit() < 0.03 ? Int(random.next() % UInt64(count)) : nil
        var samples: [TouchSample] = []
        var x = point.x, y = point.y
        for i in 0..<count {
            let t = start + Double(i) / rate
            var index: UInt64?
            if tool == .pencil, random.unit() < 0.1 {
                index = nextUpdateIndex
                nextUpdateIndex += 1
                let update = EstimatedPropertyUpdate(touch: PlatformTouchID(platform), updateIndex: index!, force: random.unit())
                let delay = random.unit() < 0.9 ? 0.03 + random.unit() * 0.07 : 2.0  // some after lift
                driver.schedule(.update(update), at: t + delay)
            }
            samples.append(TouchSample(x: x, y: y, timestamp: t, force: tool == .pencil ? random.unit() : nil,
                                       tool: tool, estimationUpdateIndex: index))
            x += random.unit() * 4 - 1
            y += random.unit() * 4 - 2
            if let cancelAt, i == cancelAt { break }
        }
        let phases: [TouchPhase] = [.began] + Array(repeating: .moved, count: samples.count - 1)
        for (sample, phase) in zip(samples, phases) {
            driver.schedule(.touch(TouchEvent(touch: PlatformTouchID(platform), phase: phase, samples: [sample])), at: sample.timestamp)
        }
        let last = samples[samples.count - 1].timestamp
        let end = TouchEvent(touch: PlatformTouchID(platform), phase: cancelAt == nil ? .ended : .cancelled, samples: [])
        driver.schedule(.touch(end), at: last)
        return last
    }

    // MARK: - Time

    /// Runs everything due by `time`, in time order: the page acts at its own times; the
    /// student's and the page's scheduled inputs go through the driver.
    private mutating func process(until time: Double) {
        while true {
            let page = min(nextSnapshot, nextScroll)
            let limit = min(page, time)
            while let step = driver.step(until: limit, into: &output) {
                if let refusal = step.refusal {
                    switch (step.input, refusal) {
                    case (.touch, .touchNotDown):
                        behaviour["events refused: touch evicted", default: 0] += 1  // expected only at the active-touch bound
                    case (.update, _):
                        behaviour["refused updates", default: 0] += 1
                    default:
                        behaviour["events refused: \(refusal)", default: 0] += 1
                    }
                }
                drain()
            }
            drain()
            guard page <= time else { break }
            pageActs(at: page)
        }
    }

    // MARK: - The page

    private mutating func pageActs(at time: Double) {
        if nextScroll <= time {
            nextScroll = time + 60 + random.unit() * 120
            scroll = scroll == 0 ? 120 : 0
            generation += 1
            let step = driver.deliver(.layout(view, generation: generation),
                                      at: time, into: &output)
            if let refusal = step.refusal { fatalError("\(refusal)") }
            drain()
            nextSnapshot = time
        }
        if nextSnapshot <= time {
            nextSnapshot = time + 0.5
            if time >= stalledUntil, random.unit() < 0.002 { stalledUntil = time + 10 }  // the page's script stalls
            guard time >= stalledUntil, pushesRegions else { return }
            let regions = Self.regions.map { #"{"x":\#($0.x),"y":\#($0.y),"width":\#($0.width),"height":\#($0.height)}"# }
            send(#"{"type":"regions","generation":\#(generation),"maxAge":1000,"regions":[\#(regions.joined(separator: ","))]}"#,
                 at: time, counting: "snapshots")
        }
    }

    /// The page's reaction to a request: the true answer, with random timing and faults.
    private mutating func respond(to request: HitTestRequest, at time: Double) {
        let interactive = Self.regions.contains { $0.contains(request.pagePoint) }
        func answer(_ generation: UInt64) -> String {
            #"{"type":"answer","id":"\#(request.token)","interactive":\#(interactive),"generation":\#(generation)}"#
        }
        let fate = random.unit()
        if time < stalledUntil || fate < 0.07 {
            behaviour["never answered", default: 0] += 1
        } else if fate < 0.15 {
            send(answer(request.generation), at: time + 0.3 + random.unit() * 0.6, counting: "late answers")
        } else if fate < 0.19 {
            send(#"{"type":"answer","id":"\#(request.token)","interactive":"#, at: time + 0.02, counting: "malformed messages")
        } else if fate < 0.22 {
            send(answer(request.generation &- 1), at: time + 0.02, counting: "answers for an old layout")
        } else {
            let delay = 0.005 + random.unit() * 0.06
            send(answer(request.generation), at: time + delay, counting: "answers on time")
            if fate > 0.97 { send(answer(request.generation), at: time + delay + 0.01, counting: "duplicate answers") }
        }
        if random.unit() < 0.01 {
            let forged = QueryToken(high: random.next(), low: random.next())
            send(#"{"type":"answer","id":"\#(forged)","interactive":true,"generation":\#(generation)}"#, at: time + 0.01,
                 counting: "forged answers")
        }
    }

    private mutating func send(_ text: String, at time: Double, counting label: String) {
        behaviour[label, default: 0] += 1
        driver.schedule(.pageMessage(Array(text.utf8)), at: time)
    }

    private mutating func drain() {
        let now = driver.engine.now
        for event in output {
            switch event.kind {
            case let .action(action):
                _ = canvas.apply(action)
            case let .send(request, _):
                respond(to: request, at: now)
            default:
                break
            }
        }
        output.removeAll(keepingCapacity: true)
    }
}
