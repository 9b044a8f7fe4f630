// scratchpad-gtk latency: the latency a user sees, measured from outside the real window.
//
// The real pointer is pressed through XTest (the X server and GDK route it, the overlay's
// input shape included) and the real screen is read back from the X server, as fast as
// it can be, while the window's main loop keeps running between reads. Two measures:
//
// - first ink: a press and a small move at a blank point of blocks.html, until a pixel of
//   the ink's colour shows in a 24 x 24 box around the point;
// - the page's handler: a press on latency.html's target, until the page's own pointerdown
//   handler has painted its panel magenta on the screen.
//
// Each at several page answer latencies (the window holds every message from the page,
// `Options.pageMessageDelay`) with the region cache on and off, routing at touch-down.
import CWebKitGTK
import Foundation
@_spi(Tooling) import GTKScratchpad
@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkCore
@_spi(Tooling) import InkRecording
@_spi(Tooling) import SessionReplay
@_spi(Tooling) import WebKitGTKOracle
@_spi(Tooling) import GTKLogPlayer

/// What is timed, from the press (after XTest's flush) to the first read of the screen that
/// shows it.
enum LatencyMeasure: String, Sendable, CaseIterable {
    /// A press and a small move on blank paper, until ink shows under the pointer.
    case firstInk
    /// A press on the page's target, until the page's handler's paint shows.
    case pageHandler

    /// Its name in the table.
    var title: String {
        switch self {
        case .firstInk: "input → first ink pixel (blank paper, `blocks.html`)"
        case .pageHandler: "input → page handler's paint (target, `latency.html`)"
        }
    }
}

/// How the window is set up for a run of trials.
struct LatencyCondition: Sendable, Hashable {
    /// Seconds every message from the page is held (``ScratchpadWindow/Options/pageMessageDelay``).
    var pageDelay: Double
    /// Whether the engine answers from the page's region snapshots (the overlay's input
    /// shape then has holes over interactive regions).
    var regionCache: Bool
}

/// The trials of one measure under one condition.
struct LatencyRow: Sendable {
    var measure: LatencyMeasure
    var condition: LatencyCondition
    /// Trials run.
    var trials: Int
    /// The latencies found, seconds, in trial order (a trial that timed out has none).
    var latencies: [Double]
    /// Screen reads made, over all trials (how finely the screen was sampled).
    var polls: Int
    /// Whether the window's audit verified at the end (nothing dropped, every sample once).
    var verified: Bool
    /// The window's ledger at the end, one line.
    var ledger: String
    /// Samples that became ink (on the page's target: touches the page never got).
    var inkedSamples: Int
    /// The bridge's counters at the end: questions asked of the page (round trips),
    /// questions the decision timeout settled, answers for an older layout (asked again).
    var bridge: BridgeMetrics
    /// The window's round trips (question sent to answer taken, the page latency included), seconds.
    var roundTrips: [Double]
    /// How the touches were decided: "verdict/reason" and how many.
    var decisions: [String: Int]

    /// Trials that saw nothing within the time limit.
    var timeouts: Int { trials - latencies.count }
    /// The mean time between two screen reads, seconds.
    var pollInterval: Double?
}

/// Runs latency trials in the real window. GTK thread only; needs an X display with XTest.
struct LatencyBench {
    /// The frame interval at 60 Hz, seconds.
    static let frame = 1.0 / 60
    /// The side of the screen box read around the point watched, pixels.
    static let box = 24

    /// The directory of the fixture pages (`blocks.html`, `latency.html`).
    var pages: URL
    /// Trials per measure and condition.
    var trials: Int
    /// How long a trial waits for its pixel, seconds.
    var timeout: Double = 2

    enum Failure: Error, CustomStringConvertible {
        case noXTest
        case noScreen
        case pageMissing(String)

        var description: String {
            switch self {
            case .noXTest: "the display has no XTest extension (run under xvfb-run -a)"
            case .noScreen: "could not read the screen back from the X server"
            case let .pageMissing(path): "\(path): no such page"
            }
        }
    }

    /// Blank points of `blocks.html` (canvas points), at least 60 px from any interactive
    /// region, 40 px apart: each trial draws at a fresh one.
    static let blankPoints: [CanvasPoint] = {
        var points: [CanvasPoint] = []
        for row in 0..<5 {
            for column in 0..<17 {
                let x: Double = 120 + Double(column) * 40, y: Double = 470 + Double(row) * 40
                points.append(CanvasPoint(x: x, y: y))
            }
        }
        return points
    }()
    /// The centre of `latency.html`'s target, and of its panel.
    static let target = CanvasPoint(x: 260, y: 380)
    static let panel = CanvasPoint(x: 760, y: 380)

    /// Whether a pixel has the ink's colour (a dark blue over the page).
    static func isInk(_ r: Int, _ g: Int, _ b: Int) -> Bool { b > 110 && r < 90 && g < 110 && b - r > 60 }
    /// Whether a pixel has the panel's magenta, rgb(230, 0, 180).
    static func isPanel(_ r: Int, _ g: Int, _ b: Int) -> Bool { r > 180 && g < 70 && b > 120 && b < 230 }

    /// Runs `trials` trials of `measure` under `condition` in a window of its own.
    func run(_ measure: LatencyMeasure, _ condition: LatencyCondition) throws -> LatencyRow {
        guard scratchpad_xtest_available() != 0 else { throw Failure.noXTest }
        let name = measure == .firstInk ? "blocks.html" : "latency.html"
        let url = pages.appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: url.path) else { throw Failure.pageMissing(url.path) }
        var options = ScratchpadWindow.Options(
            configuration: InkEngineConfiguration(useRegionCache: condition.regionCache, routing: .decideAtTouchDown),
            keepsOutcomes: true)
        options.pageMessageDelay = condition.pageDelay
        let window = try ScratchpadWindow(options: options)
        try window.show(loading: url)
        park()
        GTK.spin(for: 1)  // painted, the snapshot of the loaded layout held (or, cache off, never used)
        var latencies: [Double] = []
        var polls = 0, pollTime = 0.0
        for trial in 0..<trials {
            let found: Double?
            switch measure {
            case .firstInk:
                found = try firstInk(window, at: Self.blankPoints[trial % Self.blankPoints.count], trial: trial,
                                     polls: &polls, pollTime: &pollTime)
            case .pageHandler:
                found = try pageHandler(window, trial: trial, polls: &polls, pollTime: &pollTime)
            }
            if let found { latencies.append(found) }
            // Every trial starts on a settled page: the page's messages about the last one
            // (held by the page latency) taken, no question in flight, so each trial stands
            // alone. (Before the bridge stopped re-sending questions in flight for a newer
            // snapshot, pressing sooner made a slow page miss the deadline: docs/webkit.md.)
            GTK.spin(for: condition.pageDelay + 0.05)
            GTK.spin(timeout: 1) { window.engine.waitingQuestions == 0 }
        }
        GTK.spin(for: condition.pageDelay + 0.1)  // the last answers in
        let report = window.finish()
        let l = report.ledger
        return LatencyRow(measure: measure, condition: condition, trials: trials, latencies: latencies, polls: polls,
                          verified: report.isVerified,
                          ledger: "received \(l.received) = inked \(l.inked) + released \(l.released) (natively \(l.releasedNatively), "
                            + "replayed \(l.replayed)) + cancelled \(l.cancelled) + refused \(l.refused); dropped \(l.dropped)",
                          inkedSamples: l.inked, bridge: report.bridge, roundTrips: report.roundTrips,
                          decisions: report.outcomes.reduce(into: [:]) { counts, outcome in
                              counts["\(outcome.verdict.map { "\($0)" } ?? "-")/\(outcome.reason.map { "\($0)" } ?? "-")", default: 0] += 1
                          },
                          pollInterval: polls > 0 ? pollTime / Double(polls) : nil)
    }

    /// One first-ink trial at `point`: press, a 2-px move, then read the box around the
    /// point until ink shows. Returns the latency, or `nil` after the time limit.
    private func firstInk(_ window: ScratchpadWindow, at point: CanvasPoint, trial: Int,
                          polls: inout Int, pollTime: inout Double) throws -> Double? {
        let (ox, oy) = origin(window)
        let x = ox + Int(point.x), y = oy + Int(point.y)
        let box = (x: x - Self.box / 2, y: y - Self.box / 2)
        scratchpad_xtest_move(gint(x), gint(y))
        settle(trial)
        // The box starts clean (ink left from an earlier trial would be found at once).
        if try shows(box, Self.isInk) {
            window.clearInk()
            GTK.spin(timeout: 1) { (try? shows(box, Self.isInk)) == false }
        }
        scratchpad_xtest_button(1, 1)
        let start = GTK.now
        scratchpad_xtest_move(gint(x + 2), gint(y + 1))
        let found = try poll(box, Self.isInk, since: start, polls: &polls, pollTime: &pollTime)
        scratchpad_xtest_button(1, 0)
        // The touch settles (cache off: the page's answer, held by the page latency), then
        // its ink is erased.
        GTK.spin(timeout: 1) { window.engine.waitingQuestions == 0 }
        GTK.spin(for: 0.03)
        window.clearInk()
        park()
        GTK.spin(for: 0.03)
        return found
    }

    /// One page-handler trial: press on the target, then read a box of the panel until the
    /// handler's magenta shows; release, and wait until the page painted the panel back.
    private func pageHandler(_ window: ScratchpadWindow, trial: Int, polls: inout Int, pollTime: inout Double) throws -> Double? {
        let (ox, oy) = origin(window)
        // A few pixels apart from one trial to the next, inside the target.
        let x = ox + Int(Self.target.x) + (trial % 5) * 4 - 8, y = oy + Int(Self.target.y) + (trial % 3) * 4 - 4
        let box = (x: ox + Int(Self.panel.x) - Self.box / 2, y: oy + Int(Self.panel.y) - Self.box / 2)
        scratchpad_xtest_move(gint(x), gint(y))
        settle(trial)
        if try shows(box, Self.isPanel) {
            GTK.spin(timeout: 2) { (try? shows(box, Self.isPanel)) == false }
        }
        scratchpad_xtest_button(1, 1)
        let start = GTK.now
        let found = try poll(box, Self.isPanel, since: start, polls: &polls, pollTime: &pollTime)
        scratchpad_xtest_button(1, 0)
        // The page paints the panel back at the pointer's up (cache off: once it is replayed).
        GTK.spin(timeout: timeout) { (try? shows(box, Self.isPanel)) == false }
        window.clearInk()
        park()
        GTK.spin(for: 0.03)
        return found
    }

    /// Lets the pointer's arrival settle, for 60 ms plus a part of a frame that changes from
    /// trial to trial (so presses do not keep one phase against the window's frame clock).
    private func settle(_ trial: Int) {
        GTK.spin(for: 0.06 + Double((trial * 7) % 17) / 1000)
    }

    /// Reads the box as fast as the X server answers, running the main context's ready work
    /// between reads (the window must draw), until a pixel matches or the time is up.
    /// Returns the time from `start` to the end of the read that showed it.
    private func poll(_ box: (x: Int, y: Int), _ matches: (Int, Int, Int) -> Bool, since start: Double,
                      polls: inout Int, pollTime: inout Double) throws -> Double? {
        var last = start
        while true {
            var dispatched = 0
            while dispatched < 100, g_main_context_iteration(nil, 0) != 0 { dispatched += 1 }
            let seen = try shows(box, matches)
            let now = GTK.now
            polls += 1
            pollTime += now - last
            last = now
            if seen { return now - start }
            if now - start > timeout { return nil }
        }
    }

    /// Whether a pixel of the `box` × `box` square of the real screen at `box` matches.
    private func shows(_ box: (x: Int, y: Int), _ matches: (Int, Int, Int) -> Bool) throws -> Bool {
        guard let pixbuf = scratchpad_screen(gint(box.x), gint(box.y), gint(Self.box), gint(Self.box)) else { throw Failure.noScreen }
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        let width = Int(gdk_pixbuf_get_width(pixbuf)), height = Int(gdk_pixbuf_get_height(pixbuf))
        let stride = Int(gdk_pixbuf_get_rowstride(pixbuf)), channels = Int(gdk_pixbuf_get_n_channels(pixbuf))
        guard let data = gdk_pixbuf_get_pixels(pixbuf) else { throw Failure.noScreen }
        for row in 0..<height {
            for column in 0..<width {
                let i = row * stride + column * channels
                if matches(Int(data[i]), Int(data[i + 1]), Int(data[i + 2])) { return true }
            }
        }
        return false
    }

    /// Where the overlay's top-left corner is on the screen.
    private func origin(_ window: ScratchpadWindow) -> (Int, Int) {
        var x: gint = 0, y: gint = 0
        if let gdkWindow = gtk_widget_get_window(window.canvas) { gdk_window_get_origin(gdkWindow, &x, &y) }
        return (Int(x), Int(y))
    }

    /// Parks the pointer in the screen's bottom-right corner, off the 1024 × 768 window when
    /// the screen is larger (xvfb-run's is 1280 × 1024), so no hover changes anything.
    private func park() {
        guard let root = gdk_get_default_root_window() else { return }
        scratchpad_xtest_move(gdk_window_get_width(root) - 1, gdk_window_get_height(root) - 1)
    }
}

// MARK: The command

/// The conditions the command runs: each page latency, the cache on, then off.
let latencyConditions: [LatencyCondition] = [0, 0.03, 0.2].flatMap { delay in
    [true, false].map { LatencyCondition(pageDelay: delay, regionCache: $0) }
}

/// The rows as a markdown section: what was run where, the table, and what it says.
func latencyMarkdown(_ rows: [LatencyRow], trials: Int, command: String, seconds: Double) -> String {
    func ms(_ seconds: Double) -> String { String(format: "%.1f", seconds * 1000) }
    let frame = LatencyBench.frame
    var build = "debug"
    #if !DEBUG
    build = "release"
    #endif
    let date = ISO8601DateFormatter.string(from: Date(), timeZone: TimeZone(identifier: "UTC")!, formatOptions: [.withFullDate])
    var lines: [String] = []
    lines.append("`\(command)`, \(build) build, \(date), \(ProcessInfo.processInfo.activeProcessorCount) cores, "
        + "display \(ProcessInfo.processInfo.environment["DISPLAY"] ?? "?"), WebKitGTK "
        + "\(webkit_get_major_version()).\(webkit_get_minor_version()).\(webkit_get_micro_version()), "
        + "\(trials) trials a row, \(String(format: "%.0f", seconds)) s in all. Routing at touch-down. "
        + "Times from the XTest press (after its flush) to the end of the first screen read that shows the pixel; "
        + "each trial starts on a settled page (the page latency passed since the last release, no question out); "
        + "the frame interval at 60 Hz is \(ms(frame)) ms.")
    lines.append("")
    lines.append("| measure | page answer latency | region cache | trials (nothing seen in 2 s) | p50 | p95 | max | within one frame (≤ \(ms(frame)) ms) | screen read every | touches decided | audit |")
    lines.append("|---|---:|---|---:|---:|---:|---:|---:|---:|---|---|")
    for row in rows {
        let p = Percentiles(row.latencies)
        let within = row.latencies.filter { $0 <= frame }.count
        lines.append("| \(row.measure.title) | \(String(format: "%.0f", row.condition.pageDelay * 1000)) ms | \(row.condition.regionCache ? "on" : "off") "
            + "| \(row.trials) (\(row.timeouts)) | \(p.map { ms($0.p50) } ?? "–") ms | \(p.map { ms($0.p95) } ?? "–") ms "
            + "| \(p.map { ms($0.max) } ?? "–") ms | \(within) of \(row.trials) "
            + "| \(row.pollInterval.map { String(format: "%.2f", $0 * 1000) } ?? "–") ms "
            + "| \(row.decisions.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")) "
            + "| \(row.verified ? "verified" : "NOT verified") |")
    }
    lines.append("")
    for row in rows where row.measure == .pageHandler && row.inkedSamples > 0 {
        lines.append("Page handler, \(String(format: "%.0f", row.condition.pageDelay * 1000)) ms, cache "
            + "\(row.condition.regionCache ? "on" : "off"): \(row.inkedSamples) samples on the target became ink, "
            + "the page never got them: \(row.bridge.roundTrips) questions for \(row.trials) presses, "
            + "\(row.bridge.staleAnswers) answers for an older layout (asked again), \(row.bridge.timeouts) settled by the "
            + "engine's decision timeout (250 ms, fallback ink), \(row.bridge.lateAnswers) answers after it.")
    }
    let inkRows = rows.filter { $0.measure == .firstInk }
    if !inkRows.isEmpty {
        let within = inkRows.filter { row in Percentiles(row.latencies).map { $0.p95 <= frame } ?? false && row.timeouts == 0 }
        lines.append("First ink within one frame at p95: \(within.count) of \(inkRows.count) conditions"
            + (within.count == inkRows.count ? "." : " (not: " + inkRows.filter { row in !within.contains { $0.condition == row.condition } }
                .map { "\(String(format: "%.0f", $0.condition.pageDelay * 1000)) ms, cache \($0.condition.regionCache ? "on" : "off")" }.joined(separator: "; ") + ")."))
    }
    return lines.joined(separator: "\n") + "\n"
}

/// `scratchpad-gtk latency [--trials N] [--out FILE.md]`.
func runLatency(_ arguments: Arguments) throws -> Int32 {
    let trials = try arguments.options["trials"].map { text in
        guard let value = Int(text), value > 0, value <= 10_000 else { throw UsageError(description: "--trials takes 1...10000") }
        return value
    } ?? 30
    guard arguments.positional.isEmpty else { throw UsageError(description: "latency takes no page (it opens blocks.html and latency.html)") }
    try GTK.initialize()
    let bench = LatencyBench(pages: URL(fileURLWithPath: "Fixtures/pages").standardizedFileURL, trials: trials)
    let began = GTK.now
    var rows: [LatencyRow] = []
    for measure in LatencyMeasure.allCases {
        for condition in latencyConditions {
            let row = try bench.run(measure, condition)
            let p = Percentiles(row.latencies)
            func ms(_ value: Double?) -> String { value.map { String(format: "%.1f ms", $0 * 1000) } ?? "–" }
            print("\(measure.rawValue), page \(String(format: "%.0f ms", condition.pageDelay * 1000)), cache \(condition.regionCache ? "on" : "off"): "
                + "\(row.trials) trials, \(row.timeouts) timed out, p50 \(ms(p?.p50)), p95 \(ms(p?.p95)); \(row.ledger)"
                + (row.verified ? "" : "; NOT verified"))
            let trips = Percentiles(row.roundTrips)
            print("  bridge: \(row.bridge.roundTrips) round trips (p50 \(ms(trips?.p50)), max \(ms(trips?.max))), "
                + "\(row.bridge.cacheHits) cache hits, \(row.bridge.timeouts) decided by the timeout, "
                + "\(row.bridge.staleAnswers) stale answers, \(row.bridge.lateAnswers) late answers; touches decided "
                + row.decisions.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
            rows.append(row)
        }
    }
    var command = "scratchpad-gtk latency"
    if arguments.options["trials"] != nil { command += " --trials \(trials)" }
    let markdown = latencyMarkdown(rows, trials: trials, command: command, seconds: GTK.now - began)
    print("")
    print(markdown, terminator: "")
    if let path = arguments.options["out"] {
        try OutputFile.write(markdown, to: path, inputs: [])  // it reads no file the user named
        print("written: \(path)")
    }
    return rows.allSatisfy { $0.timeouts == 0 } ? 0 : 1
}
