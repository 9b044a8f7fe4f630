// scratchpad-gtk: the native GTK front end over a WebKitGTK page, and its tools.
//
//   scratchpad-gtk [PAGE.html] [--routing touch-down|hand-over] [--cache on|off] [--replay LOG.jsonl [--speed X]]
//                  [--screenshot OUT.png] [--record SESSION.jsonl]
//   scratchpad-gtk round-trips [PAGE.html] [--count N]
//   scratchpad-gtk latency [--trials N] [--out FILE.md]
//   scratchpad-gtk scroll-frames [PAGE.html] [--strokes 50,200,500] [--frames N]
//   scratchpad-gtk zoom-frames [PAGE.html] [--strokes 500] [--steps N]
//
// The first opens the page with the scratchpad over it, routing as an iPad app must
// (touch-down: the overlay's input shape gives interactive regions to the web view, late
// page verdicts are replayed by the page script) or, with --routing hand-over, as an
// Android WebView allows (the overlay takes every touch and hands the page's to the web
// view after the decision). Ctrl+Alt+Z undoes the last stroke, Ctrl+Alt+C clears the ink. Without --replay it runs until the
// window is closed (draw with a mouse, a pen or a touchscreen), then prints the audit. With
// --replay it plays the log into the window at its recorded pace, prints what happened and
// exits: 0 when every sample was accounted for and the audit found nothing, 1 otherwise.
// With --record it also records the session (what the engine took and decided: every sample,
// the page's answers and regions, each touch's decision) through the engine's recorder to
// SESSION.jsonl (streamed beside it, renamed into place when the window finishes);
// `ink-replay verify SESSION.jsonl` replays it and checks every decision and the ink.
//
// round-trips asks the same questions of the page in WebKitGTK and in headless Chromium,
// interleaved, in one run, and prints each engine's round-trip percentiles.
//
// latency measures, in the real window and from outside it, what a user sees: the real
// pointer pressed through XTest, the real screen read back until ink shows under it (blank
// paper) or the page's own handler has painted (a target), at page answer latencies 0, 30
// and 200 ms, region cache on and off; prints a markdown table (Latency.swift). Run it
// from the repository's root under Xvfb (xvfb-run -a); it needs XTest.
//
// scroll-frames writes 50, 200 and 500 strokes on the first screen of the long worksheet and
// scrolls the page 8 points a frame, down and up; it prints the overlay's draw handler time
// per frame, with the finished ink painted from its tiles' pictures and filled stroke by
// stroke in every frame (ScrollFrames.swift).
//
// zoom-frames writes 500 strokes on the first screen of the long worksheet and zooms the page
// (WebKitGTK's zoom-level) from 1 to 5 in 40 steps, one a frame; it prints the draw handler's
// time per frame, the tiles filled during the zoom and the pixels of tile pictures held, with
// the pictures painted scaled until the zoom rests and filled again at every step
// (ZoomFrames.swift).
@_spi(Tooling) import ChromiumBridge
import CWebKitGTK
import Foundation
@_spi(Tooling) import GTKLogPlayer
@_spi(Tooling) import GTKScratchpad
@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkCore
@_spi(Tooling) import InkRecording
@_spi(Tooling) import SessionReplay
@_spi(Tooling) import WebKitGTKOracle


struct UsageError: Error, CustomStringConvertible {
    var description: String
}

let usage = """
    usage: scratchpad-gtk [PAGE.html] [--routing touch-down|hand-over] [--cache on|off] [--replay LOG.jsonl [--speed X]]
                          [--screenshot OUT.png] [--record SESSION.jsonl]
           scratchpad-gtk round-trips [PAGE.html] [--count N]
           scratchpad-gtk latency [--trials N] [--out FILE.md]
           scratchpad-gtk scroll-frames [PAGE.html] [--strokes 50,200,500] [--frames N]
           scratchpad-gtk zoom-frames [PAGE.html] [--strokes 500] [--steps N]
    PAGE defaults to Fixtures/pages/blocks.html. Needs a display (on a server: xvfb-run -a scratchpad-gtk …).
    """

func milliseconds(_ seconds: Double) -> String { String(format: "%.2f ms", seconds * 1000) }

func pageURL(_ path: String?) throws -> URL {
    let path = path ?? "Fixtures/pages/blocks.html"
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
        throw UsageError(description: "\(path): no such page")
    }
    return URL(fileURLWithPath: path).standardizedFileURL
}

/// Options as `--name value` pairs and positional arguments.
struct Arguments {
    var positional: [String] = []
    var options: [String: String] = [:]

    init(_ arguments: ArraySlice<String>, known: Set<String>) throws {
        var rest = arguments
        while let argument = rest.popFirst() {
            if argument == "--help" || argument == "-h" { throw UsageError(description: usage) }
            if argument.hasPrefix("--") {
                let name = String(argument.dropFirst(2))
                guard known.contains(name) else { throw UsageError(description: "unknown option \(argument)\n\(usage)") }
                guard let value = rest.popFirst() else { throw UsageError(description: "\(argument) needs a value") }
                options[name] = value
            } else {
                positional.append(argument)
            }
        }
        guard positional.count <= 1 else { throw UsageError(description: "one page at most\n\(usage)") }
    }
}

func runWindow(_ arguments: Arguments) throws -> Int32 {
    let url = try pageURL(arguments.positional.first)
    var configuration = InkEngineConfiguration(routing: .decideAtTouchDown)
    switch arguments.options["routing"] ?? "touch-down" {
    case "touch-down": configuration.routing = .decideAtTouchDown
    case "hand-over": configuration.routing = .handOverAfterDecision
    case let other: throw UsageError(description: "--routing takes touch-down or hand-over, not \(other)")
    }
    switch arguments.options["cache"] ?? "on" {
    case "on": configuration.useRegionCache = true
    case "off": configuration.useRegionCache = false
    case let other: throw UsageError(description: "--cache takes on or off, not \(other)")
    }
    var log: SessionLog?
    if let path = arguments.options["replay"] {
        let result = SessionLog.read(contentsOf: path)
        if let failure = result.failure { throw UsageError(description: "\(failure)") }
        log = result.log
    }
    let speed = try arguments.options["speed"].map { text in
        guard let value = Double(text), value > 0, value.isFinite else { throw UsageError(description: "--speed takes a positive number") }
        return value
    } ?? 1

    // The recording never replaces the page or the log it plays (the one output-file policy).
    let recording = try arguments.options["record"].map { path in
        do { return try RecordingFile(path: path, inputs: [url.path] + (arguments.options["replay"].map { [$0] } ?? [])) } catch {
            throw UsageError(description: "--record: \(error)")
        }
    }
    var options = ScratchpadWindow.Options(configuration: configuration, keepsOutcomes: log != nil)
    if let recording {
        options.recorder = SessionRecorder(canvasWidth: Double(options.width), canvasHeight: Double(options.height),
                                           device: "scratchpad-gtk (WebKitGTK)", sink: { recording.offer($0) })
    }
    try GTK.initialize()
    let window = try ScratchpadWindow(options: options)
    try window.show(loading: url)
    if let log {
        var player = LogPlayer(speed: speed)
        let played = player.play(log, into: window)
        print("played \(played.samples) samples as \(played.events) GDK events (\(player.eventsToOverlay) to the overlay, "
            + "\(player.eventsToPage) to the web view through the overlay's input shape); "
            + "fell behind schedule by at most \(milliseconds(played.worstLag))")
        if played.updatesSkipped > 0 { print("  \(played.updatesSkipped) estimated-property updates not played (GDK events cannot carry them)") }
        if played.axesDropped > 0 { print("  \(played.axesDropped) pencil samples played without their pressure or tilt") }
        if played.unplayable > 0 { print("  \(played.unplayable) touch events not played (touch id 2^64-1)") }
        if played.stoppedByClose { print("  the window was closed before the log ended") }
    } else {
        print("scratchpad over \(url.lastPathComponent): draw on it; close the window to finish")
        while !window.closeRequested { g_main_context_iteration(nil, 1) }
    }
    let report = window.finish()
    if let path = arguments.options["screenshot"] {
        guard let png = window.screenshot() else { throw UsageError(description: "could not draw the window") }
        // Never over the page or the log it read.
        try OutputFile.write(bytes: png, to: path, inputs: [url.path] + (arguments.options["replay"].map { [$0] } ?? []))
        print("screenshot: \(path)")
    }
    print(summary(report))
    if let recording {
        do { try recording.commit() } catch { throw UsageError(description: "--record: \(error)") }
        print("recorded: \(recording.path) (\(report.recordedLines) lines"
            + (report.recordingDroppedLines > 0 ? "; \(report.recordingDroppedLines) left out: the sink fell behind)" : ")"))
    }
    return report.isVerified ? 0 : 1
}

func summary(_ report: ScratchpadReport) -> String {
    var lines: [String] = []
    let l = report.ledger
    lines.append("ledger: received \(l.received) = inked \(l.inked) + released \(l.released) + cancelled \(l.cancelled)"
        + " + refused \(l.refused); dropped \(l.dropped)")
    lines.append("released to the page: natively at touch-down \(l.releasedNatively), replayed by the page script \(l.replayed), "
        + "handed over after the decision \(l.handedOver)")
    lines.append("audit: " + (report.problems.isEmpty ? "every sample delivered once, in order, where it was decided to go" : report.problems.joined(separator: "; ")))
    if !report.outcomes.isEmpty {
        let verdicts = report.outcomes.map { "\($0.verdict.map { "\($0)" } ?? "-")/\($0.reason.map { "\($0)" } ?? "-")" }
        lines.append("touches: \(verdicts.joined(separator: ", "))")
    }
    lines.append("strokes: \(report.strokes); events handed to the page: \(report.pageEventsDispatched); replays: \(report.replays) "
        + "(\(report.replayedEvents) events); cache hits: \(report.bridge.cacheHits)")
    if let p = Percentiles(report.roundTrips) {
        lines.append("round trips (\(p.count)): p50 \(milliseconds(p.p50)), p95 \(milliseconds(p.p95)), max \(milliseconds(p.max))")
    }
    if report.refusedInputs > 0 {
        lines.append("refused: \(report.refusedInputs) inputs, \(report.refusedSamples) samples; \(report.refusals.joined(separator: "; "))")
    }
    let page = report.pageRefusals
    if page.total > 0 {
        // What the page said that changed nothing, by reason: a user sees every refusal.
        let reasons = [("late answers", page.lateAnswers), ("duplicate answers", page.duplicateAnswers),
                       ("forged answers", page.unknownAnswers), ("answers for another layout", page.staleAnswers),
                       ("refused snapshots", page.snapshots), ("from a replaced document", page.oldDocument),
                       ("malformed messages", page.malformed)].filter { $0.1 > 0 }.map { "\($0.1) \($0.0)" }
        lines.append("page messages refused: \(page.total) (" + reasons.joined(separator: ", ") + ")")
        let snapshots = report.bridge.snapshotRefusals
        if snapshots.total > 0 {
            lines.append("refused snapshots: \(snapshots.olderGeneration) older generation, \(snapshots.oldDocument) old document, "
                         + "\(snapshots.tooManyRegions) too many regions, \(snapshots.invalid) invalid")
        }
    }
    if report.bridge.newDocuments > 0 { lines.append("page documents: \(report.bridge.documentsSeen) seen, \(report.bridge.newDocuments) new") }
    lines.append(report.isVerified ? "verified: nothing dropped" : "NOT verified: " + report.verificationFailures.joined(separator: "; "))
    return lines.joined(separator: "\n")
}

func compareRoundTrips(_ arguments: Arguments) throws -> Int32 {
    let url = try pageURL(arguments.positional.first)
    let count = try arguments.options["count"].map { text in
        guard let value = Int(text), value > 0, value <= 100_000 else { throw UsageError(description: "--count takes 1...100000") }
        return value
    } ?? 300
    try GTK.initialize()
    let webkit = try WebKitGTKPage()
    let window = webkit.showInWindow()
    defer { gtk_widget_destroy(window) }
    try webkit.load(url)
    guard ChromiumPage.browserPath != nil else { throw UsageError(description: "no Chromium installed (scripts/install-test-tools.sh installs it)") }
    let chromium = try ChromiumPage(url: url)
    defer { chromium.close() }
    var webkitTrips: [Double] = [], chromiumTrips: [Double] = []
    // The same points of a grid, asked of each engine in turn.
    for index in 0..<count {
        let point = PagePoint(x: Double(7 + (index * 32) % 1024), y: Double(7 + ((index * 32) / 1024 * 32) % 768))
        let request = HitTestRequest(token: QueryToken(high: 3, low: UInt64(index)), pagePoint: point, generation: 1)
        webkitTrips.append(try webkit.hitTest(request).seconds)
        chromiumTrips.append(try chromium.hitTest(request).seconds)
    }
    print("\(count) hit tests each on \(url.lastPathComponent), interleaved, one run:")
    for (name, trips) in [("WebKitGTK \(webkit_get_major_version()).\(webkit_get_minor_version()).\(webkit_get_micro_version())", webkitTrips),
                          ("Chromium (DevTools pipe)", chromiumTrips)] {
        guard let p = Percentiles(trips) else { continue }
        print("  \(name): p50 \(milliseconds(p.p50)), p95 \(milliseconds(p.p95)), max \(milliseconds(p.max))")
    }
    return 0
}

let argv = CommandLine.arguments.dropFirst()
do {
    if argv.first == "latency" {
        exit(try runLatency(try Arguments(argv.dropFirst(), known: ["trials", "out"])))
    }
    if argv.first == "scroll-frames" {
        exit(try runScrollFrames(try Arguments(argv.dropFirst(), known: ["strokes", "frames"])))
    }
    if argv.first == "zoom-frames" {
        exit(try runZoomFrames(try Arguments(argv.dropFirst(), known: ["strokes", "steps"])))
    }
    if argv.first == "round-trips" {
        exit(try compareRoundTrips(try Arguments(argv.dropFirst(), known: ["count"])))
    }
    exit(try runWindow(try Arguments(argv, known: ["routing", "cache", "replay", "speed", "screenshot", "record"])))
} catch {
    FileHandle.standardError.write(Data("scratchpad-gtk: \(error)\n".utf8))
    exit(2)
}
