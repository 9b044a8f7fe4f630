import Foundation
@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkRecording
@_spi(Tooling) import SessionReplay
@_spi(Tooling) import InkCore

/// `ink-replay bench`: what each decision strategy costs short strokes (the default), what
/// the stroke pipeline costs per sample (`geometry`, and `strokes` on stroke files in the
/// shared ink-quality harness's format), and region lookups (`regions`).
enum BenchCommand: Command {
    static let name = "bench"
    static let synopsis = "[strategies|geometry|strokes|regions] [<file or directory> ...]"
    static let overview = """
        OVERVIEW: Measure:
          strategies  (the default) short strokes (dots, decimal points, dashes: 1-12
                      samples within 60 ms; generated, plus those of the given session
                      logs) replayed in simulated time under four strategies at oracle
                      latencies 0, 8, 16, 30, 100 and 300 ms with seeded jitter: (a) a
                      blocking query that drops input while it waits, (b) an asynchronous
                      query with queueing, (c) plus the region cache, (d) plus speculative
                      ink. Deterministic: the same seed gives the same table.
                      --plot also draws the table as an SVG chart from the same run.
          geometry    the stroke pipeline (filter, settle, Catmull-Rom, widths, stable
                      output) per sample, wall-clock, in this build (-c release): every
                      touch of the given session logs as one stroke (estimated values taken
                      as final), then generated strokes of 10, 100, 1,000 and 10,000 samples
                      (a seeded 240 Hz scribble with jitter), to show how the cost depends
                      on stroke length;
          strokes     the same on stroke files: one stroke per line, a JSON array of
                      [x, y, t_ms] or [x, y, t_ms, pressure] points (the shared ink-quality
                      harness's format), parsed before anything is timed, so the ns per
                      point can be put beside another library's on the same input;
          regions     a region-cache lookup among 1,000, 5,000 and 20,000 page regions.

        geometry and strokes time three passes over the strokes, each --passes times,
        interleaved, and print the medians: append (every sample, then finish; one
        builder, reset between strokes), append plus the outline polygon of each segment as it becomes stable, and the volatile
        tail read once per 60 Hz frame of the samples' own time (its cost per frame, over
        the append pass). Timings are wall-clock and machine-dependent: the numbers are for
        comparison within one run, not for tests. For repeatable counts use valgrind
        --tool=callgrind.
        """
    static let details = """
        ARGUMENTS:
          <file or directory>     Session logs (directories: every *.jsonl below); for
                                  'strokes', stroke files.
        """
    /// Which modes each mode-specific option applies to: refused with the others.
    static let modesOf: [String: Set<String>] = [
        "--strokes": ["strategies"], "--latencies": ["strategies"], "--seed": ["strategies"], "--plot": ["strategies"],
        "--passes": ["geometry", "strokes"], "--min-time": ["regions"],
    ]
    static let options = OptionTable(
        [Option("--strokes", kind: .integer("n", 0...1_000_000), help: "Generated short strokes (strategies)", default: "2000"),
         Option("--latencies", kind: .text("ms,..."), help: "Oracle latencies (strategies), each from 0 to 10000", default: "0,8,16,30,100,300"),
         Option("--seed", kind: .integer("n", 0...9_007_199_254_740_991), help: "Seed of the strokes and the jitter (strategies)", default: "1"),
         Option("--plot", kind: .text("file.svg"),
                help: "Also write the strategies table as a chart (strategies only): first-ink p50 and p95 and samples lost against oracle latency, one colour per strategy, each point's numbers in its tooltip. Same run, same numbers."),
         Option("--passes", kind: .integer("n", 1...1_000), help: "Timed passes per row (geometry, strokes)", default: "7"),
         Option("--min-time", kind: .number("s", 0.001...60), help: "Measure each row for at least this long (regions)", default: "0.3"),
         ReplayOptions.json("One JSON object per row.")],
        JobProgress.options(json: true), rules: [JobProgress.rule])

    static func run(_ arguments: inout ArgumentList) throws -> Int32 {
        let minTime = arguments.number("--min-time") ?? 0.3
        var positional = arguments.positional
        let modes = ["strategies", "geometry", "strokes", "regions"]
        let mode = modes.contains(positional.first ?? "") ? positional.removeFirst() : "strategies"
        if mode != "strategies", arguments.string("--plot") != nil {
            throw UsageError(message: "'--plot' draws the strategies table; 'bench \(mode)' has no plot")
        }
        for (option, modes) in modesOf.sorted(by: { $0.key < $1.key }) where arguments.isGiven(option) && !modes.contains(mode) {
            throw UsageError(message: "'\(option)' does not apply to 'bench \(mode)' (only \(modes.sorted().joined(separator: ", ")))")
        }
        switch mode {
        case "strategies": return try strategies(arguments, inputs: positional)
        case "regions":
            let progress = try JobProgress.standardError(arguments, title: "bench regions", unit: "rows", total: 3)
            defer { progress?.finish() }
            return regions(minTime: minTime, json: arguments.flag("--json"), progress: progress)
        default: break
        }
        let passes = arguments.integer("--passes") ?? 7
        var rows: [(name: String, strokes: [[TouchSample]])] = []
        if mode == "strokes" {
            guard !positional.isEmpty else { throw UsageError(message: "'bench strokes' needs stroke files") }
            for file in positional { rows.append((file, try strokeFile(file))) }
        } else {
            if !positional.isEmpty {
                // Estimated values are taken as final: a sample still waiting for its
                // update holds its segments volatile, and this benchmark replays no updates.
                let strokes = try recordedStrokes(SessionFiles.expand(positional), mode: mode).filter { !$0.isEmpty }
                    .map { $0.map { var final = $0; final.estimationUpdateIndex = nil; return final } }
                rows.append(("recorded: \(positional.joined(separator: " "))", strokes))
            }
            for length in [10, 100, 1_000, 10_000] {
                let count = max(1, 20_000 / length)
                var random = SplitMix64(seed: UInt64(length))
                rows.append(("generated, \(length) samples per stroke", (0..<count).map { _ in scribble(length: length, random: &random) }))
            }
        }
        let json = arguments.flag("--json")
        if !json {
            print("stroke pipeline, ns per sample (median of \(passes) passes; wall clock, this build)")
            print("strokes  samples     append  +outline  tail/frame   frames  set")
        }
        let progress = try JobProgress.standardError(arguments, title: "bench \(mode)", unit: "rows", total: Double(rows.count))
        defer { progress?.finish() }
        for row in rows {
            progress?.set(detail: row.name)
            let result = try StrokeBench(strokes: row.strokes).run(passes: passes)
            progress?.advance()
            progress?.clear()   // the row goes to standard output, which may be the same terminal
            if json {
                func rounded(_ value: Double) -> JSONValue { .number((value * 10).rounded() / 10) }
                let fields: [(String, JSONValue)] = [
                    ("set", .string(row.name)), ("strokes", .number(Double(result.strokes))),
                    ("samples", .number(Double(result.samples))), ("ns_per_sample", rounded(result.appendNanoseconds)),
                    ("ns_per_sample_with_outline", rounded(result.outlineNanoseconds)),
                    ("ns_per_tail_read", rounded(result.tailNanosecondsPerFrame)), ("tail_reads", .number(Double(result.frames))),
                    ("passes", .number(Double(passes))),
                ]
                print(JSONValue.object(JSONObject(fields)).serialized())
            } else {
                print(String(format: "%7d  %7d  %9.1f  %8.1f  %10.1f  %7d  ", result.strokes, result.samples, result.appendNanoseconds,
                             result.outlineNanoseconds, result.tailNanosecondsPerFrame, result.frames) + row.name)
            }
        }
        return 0
    }

    /// The most bytes of session logs `bench strategies` and `bench geometry` read, in all
    /// (64 MiB, ``ReplayOptions/wholeSessionByteLimit``): they hold the strokes of every log
    /// given, and replay or time them all at once.
    static let recordedByteLimit = ReplayOptions.wholeSessionByteLimit

    /// Every touch's samples in `files`, in the order the touches began, file after file (as
    /// `SessionLog.samplesByTouch` gives them), read line by line: the logs are not held,
    /// and a touch of more than `longest` samples is dropped once it passes that.
    /// - Throws: ``CommandFailure`` for a log that does not read whole (its first fault),
    ///   or once the logs read pass ``recordedByteLimit`` in all (counted as read, so a pipe
    ///   stops there too), naming the file.
    static func recordedStrokes(_ files: [String], mode: String, longest: Int? = nil) throws -> [[TouchSample]] {
        func refuse(_ file: String) -> CommandFailure {
            CommandFailure(message: "\(PathText.shown(file)): the session logs given pass \(SessionFiles.ByteCountText.text(recordedByteLimit)) here; "
                + "'bench \(mode)' holds the strokes of every log given and takes at most that in all (give it fewer or smaller logs)")
        }
        // Regular files are refused by their sizes before any is read; a pipe as it is read.
        var sizes = 0
        for file in files {
            let (sum, overflow) = sizes.addingReportingOverflow(SessionFiles.regularFileSize(file) ?? 0)
            guard !overflow, sum <= recordedByteLimit else { throw refuse(file) }
            sizes = sum
        }
        var bytes = 0
        var strokes: [[TouchSample]] = []
        for file in files {
            // The reading stops once the logs pass the limit, even on a pipe of blank lines.
            var events = SessionLogEvents(contentsOf: file, byteLimit: recordedByteLimit - bytes, onRead: { bytes += $0 })
            guard bytes <= recordedByteLimit else { throw refuse(file) }
            guard events.header != nil else { throw CommandFailure(message: events.failure?.description ?? "\(PathText.shown(file)): unreadable") }
            var touches: [[TouchSample]?] = []   // nil: passed `longest`
            var open: [PlatformTouchID: Int] = [:]
            while let (event, _) = events.next() {
                guard bytes <= recordedByteLimit else { throw refuse(file) }
                guard case let .touch(touch, _) = event else { continue }
                if touch.phase == .began {
                    open[touch.touch] = touches.count
                    touches.append([])
                }
                guard let slot = open[touch.touch] else { continue }
                if touches[slot] != nil {
                    touches[slot]!.append(contentsOf: touch.samples)
                    if let longest, touches[slot]!.count > longest { touches[slot] = nil }
                }
                if touch.phase == .ended || touch.phase == .cancelled { open[touch.touch] = nil }
            }
            guard bytes <= recordedByteLimit else { throw refuse(file) }
            if let failure = events.failure { throw CommandFailure(message: failure.description) }
            strokes += touches.compactMap { $0 }
        }
        return strokes
    }

    /// The strokes of a file in the ink-quality harness's format (see the help).
    static func strokeFile(_ file: String) throws -> [[TouchSample]] {
        let data = try SessionFiles.contents(of: file, limit: ReplayOptions.wholeSessionByteLimit,
                                             what: "'bench strokes' holds a whole stroke file in memory and takes at most that")
        var strokes: [[TouchSample]] = []
        var lineNumber = 0
        var builder = StrokeBuilder()
        for line in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }) { continue }
            do {
                let samples = try SmoothCommand.strokeSamples(JSONParser.parse(line))
                for (i, sample) in samples.enumerated() {
                    guard sample.isValid else { throw CommandFailure(message: "point \(i): not a finite position and time") }
                    if i > 0, sample.timestamp < samples[i - 1].timestamp {
                        throw CommandFailure(message: "point \(i): time goes backwards")
                    }
                }
                try StrokeGeometryCheck.check(samples, with: &builder)
                if !samples.isEmpty { strokes.append(samples) }
            } catch {
                throw CommandFailure(message: "\(file):\(lineNumber): \(error)")
            }
        }
        guard !strokes.isEmpty else { throw CommandFailure(message: "\(file): no strokes") }
        return strokes
    }

    static func strategies(_ arguments: ArgumentList, inputs: [String]) throws -> Int32 {
        let strokes = arguments.integer("--strokes") ?? 2_000
        let seed = arguments.integer("--seed").map { UInt64($0) } ?? 1
        var latencies: [Double] = [0, 8, 16, 30, 100, 300]
        if let text = arguments.string("--latencies") {
            // Every item is a number: an empty one (",,", a trailing comma) is an error too.
            latencies = try text.split(separator: ",", omittingEmptySubsequences: false).map { item in
                guard let ms = Double(item), ms >= 0, ms <= 10_000 else {
                    throw UsageError(message: "'--latencies' takes a comma-separated list of milliseconds from 0 to 10000, not '\(text)'")
                }
                return ms
            }
        }
        // Only short strokes are replayed (StrategyBenchmark keeps those of at most 12
        // samples): a longer touch is let go as soon as it passes that.
        let files = inputs.isEmpty ? [] : try SessionFiles.expand(inputs)
        let recorded = try recordedStrokes(files, mode: "strategies", longest: 12)
        let bench = StrategyBenchmark(generated: strokes, recorded: recorded, seed: seed)
        guard !bench.log.samplesByTouch.isEmpty else { throw CommandFailure(message: "no short strokes to replay") }
        let json = arguments.flag("--json")
        var results: [StrategyResult] = []
        if !json {
            print("short strokes: \(bench.log.samplesByTouch.count) (\(bench.recordedStrokes) recorded, "
                  + "\(bench.log.samplesByTouch.count - bench.recordedStrokes) generated), \(bench.log.sampleCount) samples; "
                  + "oracle latency + seeded jitter up to 25 %")
            print("first ink: touch-down to first ink, all ink touches / those starting ≥ 24 pt from any interactive region")
            print("strategy     latency  samples lost  strokes lost  first ink p50 / p95 / p99 (ms)  away p50 / p95  wrong owner  retractions  round trips")
        }
        let progress = try JobProgress.standardError(arguments, title: "bench", unit: "rows",
                                                  total: Double(DecisionStrategy.allCases.count * latencies.count))
        defer { progress?.finish() }
        for strategy in DecisionStrategy.allCases {
            let label = BenchPlot.label(strategy)
            for ms in latencies {
                progress?.set(detail: "\(label) at \(Int(ms)) ms")
                let r = bench.run(strategy, latency: ms / 1000, seed: seed)
                results.append(r)
                progress?.advance()
                progress?.clear()   // the row goes to standard output, which may be the same terminal
                if json {
                    var fields: [(String, JSONValue)] = [
                        ("strategy", .string(strategy.rawValue)), ("latency_ms", .number(ms)),
                        ("touches", .number(Double(r.touches))), ("samples", .number(Double(r.samples))),
                        ("samples_lost", .number(Double(r.samplesLost))), ("strokes_lost", .number(Double(r.strokesLost))),
                    ]
                    fields.append(("first_ink_ms", Summary.latencyJSON(r.firstInk, p99: true)))
                    fields.append(("first_ink_away_ms", Summary.latencyJSON(r.firstInkAway, p99: true)))
                    fields += [("wrong_owner", .number(Double(r.wrongOwner))), ("retractions", .number(Double(r.retractions))),
                               ("round_trips", .number(Double(r.roundTrips)))]
                    print(JSONValue.object(JSONObject(fields)).serialized())
                } else {
                    let ink = r.firstInk.map { "\(Summary.ms($0.p50)) / \(Summary.ms($0.p95)) / \(Summary.ms($0.p99))" } ?? "-"
                    print(label.padded(16, left: true) + "\(Int(ms))".padded(4) + "\(r.samplesLost)".padded(14)
                          + "\(r.strokesLost)".padded(14) + "  " + ink.padded(30, left: true)
                          + (r.firstInkAway.map { "\(Summary.ms($0.p50)) / \(Summary.ms($0.p95))" } ?? "-").padded(16, left: true)
                          + "\(r.wrongOwner)".padded(12) + "\(r.retractions)".padded(13) + "\(r.roundTrips)".padded(13))
                }
            }
        }
        if let plot = arguments.string("--plot") {
            let chart = BenchPlot(results: results, latencies: latencies, strokes: bench.log.samplesByTouch.count,
                                  recordedStrokes: bench.recordedStrokes, samples: bench.log.sampleCount, seed: seed)
            do { try OutputFile.write(chart.svg(), to: plot, inputs: CommandInputs.of(arguments, expanded: files)) } catch { throw CommandFailure(message: error.description) }
        }
        return 0
    }

    /// Lookups in a ``RegionIndex`` of random page regions (buttons, wide bars, a few
    /// panels) at random points of the page.
    static func regions(minTime: Double, json: Bool, progress: JobProgress? = nil) -> Int32 {
        if !json { print("region lookup, ns per lookup (a random point on a 4,000 × 20,000 page)") }
        for count in [1_000, 5_000, 20_000] {
            progress?.set(detail: "\(count) regions")
            defer { progress?.advance() }
            var random = SplitMix64(seed: UInt64(count))
            let regions = (0..<count).map { i in
                PageRegion(x: random.unit() * 4_000, y: random.unit() * 20_000,
                           width: i % 997 == 0 ? 3_000 : (i % 37 == 0 ? 1_500 : 10 + random.unit() * 80),
                           height: i % 997 == 0 ? 8_000 : 10 + random.unit() * 40)
            }
            let index = RegionIndex(regions: regions)
            let points = (0..<4_096).map { _ in PagePoint(x: random.unit() * 4_000, y: random.unit() * 20_000) }
            var hits = 0, lookups = 0
            let clock = ContinuousClock()
            let start = clock.now
            var elapsed = Duration.zero
            repeat {
                for p in points where index.contains(p) { hits += 1 }
                lookups += points.count
                elapsed = clock.now - start
            } while elapsed < .milliseconds(Int(minTime * 1000))
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            let ns = seconds * 1e9 / Double(lookups)
            progress?.clear()   // the row goes to standard output, which may be the same terminal
            if json {
                let fields: [(String, JSONValue)] = [("regions", .number(Double(count))), ("lookups", .number(Double(lookups))),
                                                     ("hit_rate", .number((Double(hits) / Double(lookups) * 1000).rounded() / 1000)),
                                                     ("ns_per_lookup", .number((ns * 10).rounded() / 10))]
                print(JSONValue.object(JSONObject(fields)).serialized())
            } else {
                print(String(format: "%6d regions  %7.1f ns  (%d lookups, %.1f %% inside a region)", count, ns, lookups,
                             Double(hits) / Double(lookups) * 100))
            }
        }
        return 0
    }

    /// A 240 Hz scribble: a pen circling and drifting at handwriting speed, with jitter.
    static func scribble(length: Int, random: inout SplitMix64) -> [TouchSample] {
        var samples: [TouchSample] = []
        samples.reserveCapacity(length)
        let phase = random.unit() * 6.28
        for i in 0..<length {
            let t = Double(i) / 240
            let x = 100 + 40 * t + 20 * cos(phase + 9 * t) + (random.unit() - 0.5)
            let y = 100 + 25 * sin(phase + 13 * t) + (random.unit() - 0.5)
            samples.append(TouchSample(x: x, y: y, timestamp: t, force: 0.3 + 0.4 * random.unit(), tool: .pencil))
        }
        return samples
    }
}
