@_spi(Tooling) import ChromiumBridge
import Foundation
@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkRecording
@_spi(Tooling) import SessionReplay
@_spi(Tooling) import InkCore

/// `ink-replay run --oracle chromium:<page.html>`: replays sessions against a real page in
/// headless Chromium (one fresh browser per session) and reports the ledger, the real
/// round-trip latency and first-ink latency; `--picture` writes what the student saw.
enum BrowserRun {
    static func run(_ arguments: ArgumentList, page: String) throws -> Int32 {
        #if canImport(Glibc)
        let (url, cache, fallback) = try options(arguments, page: page)
        let files = try SessionFiles.expand(arguments.positional)
        let picture = arguments.string("--picture")
        if picture != nil, files.count != 1 { throw UsageError(message: "'--picture' takes one session") }
        var failed = false
        var allTrips: [Double] = [], allFirstInk: [Double] = [], shortFirstInk: [Double] = []
        print("page: \(PathText.shown(page)) (region cache \(cache ? "on" : "off"))")
        print("session".padded(26, left: true) + "touches".padded(8) + "samples".padded(9) + "inked".padded(8)
              + "released".padded(10) + "dropped".padded(9) + "round trips".padded(12) + "  RTT p50 / p95 (ms)")
        for file in files {
            let (log, browser, report) = try replay(file, url: url, replay: BrowserReplay(useCache: cache, fallback: fallback))
            defer { browser.close() }
            allTrips += report.roundTrips
            let inked = report.touches.compactMap(\.firstInkLatency)
            allFirstInk += inked
            shortFirstInk += report.touches.filter { $0.samples <= 5 }.compactMap(\.firstInkLatency)
            let trips = Percentiles(report.roundTrips).map { "\(Summary.ms($0.p50)) / \(Summary.ms($0.p95))" } ?? "-"
            let l = report.ledger
            let name = PathText.shown(PathText.lastComponent(file))
            var row: String = name.padded(26, left: true)
            row += "\(report.touches.count)".padded(8) + "\(l.received)".padded(9)
            row += "\(l.inked)".padded(8) + "\(l.released)".padded(10) + "\(l.dropped)".padded(9)
            row += "\(report.roundTrips.count)".padded(12) + "  " + trips
            print(row + (report.isVerified ? "" : "  FAILED"))
            for problem in report.problems { printError("\(file): \(problem)") }
            failed = failed || !report.isVerified
            if let picture {
                let png: Data
                do { png = try browser.screenshot() } catch { throw CommandFailure(message: "screenshot: \(error)") }
                do { try OutputFile.write(html(log: log, report: report, screenshot: png, page: page), to: picture, inputs: CommandInputs.of(arguments, expanded: files)) } catch {
                    throw CommandFailure(message: error.description)
                }
                print("picture: \(PathText.shown(picture))")
            }
        }
        if let p = Percentiles(allTrips) {
            print("real round trips: \(p.count), p50 \(Summary.ms(p.p50)) ms, p95 \(Summary.ms(p.p95)) ms, max \(Summary.ms(p.max)) ms")
        } else {
            print("real round trips: none (every question answered from the region cache)")
        }
        if let p = Percentiles(allFirstInk) {
            print("first-ink latency: p50 \(Summary.ms(p.p50)) ms, p95 \(Summary.ms(p.p95)) ms, max \(Summary.ms(p.max)) ms over \(p.count) inked touches")
        }
        if let p = Percentiles(shortFirstInk) {
            print("first-ink latency of short touches (5 samples or fewer: dots, decimal points): p50 \(Summary.ms(p.p50)) ms, max \(Summary.ms(p.max)) ms over \(p.count)")
        }
        return failed ? 1 : 0
        #else
        throw CommandFailure(message: "the chromium oracle needs Linux (it spawns a headless Chromium)")
        #endif
    }

    #if canImport(Glibc)
    /// The page and the engine options a replay against it takes (`--cache`, default on;
    /// `--fallback`: ``EngineOptions/Defaults/realPage``).
    static func options(_ arguments: ArgumentList, page: String) throws -> (url: URL, cache: Bool, fallback: HitTestVerdict) {
        guard FileManager.default.fileExists(atPath: page) else { throw CommandFailure(message: "no such page: \(page)") }
        let engine = try EngineOptions.Defaults.realPage.configuration(arguments)
        return (URL(fileURLWithPath: page).standardizedFileURL, engine.useRegionCache, engine.fallback)
    }

    /// The largest viewport side DevTools takes (`Emulation.setDeviceMetricsOverride`: width
    /// and height at most 10,000,000).
    static let maxViewportSide = 10_000_000.0

    /// Reads a session and replays it against the page at `url` in a fresh headless Chromium,
    /// sized like the session's canvas; the browser stays open for the caller to close.
    static func replay(_ file: String, url: URL, replay: BrowserReplay) throws -> (SessionLog, ChromiumPage, BrowserReplayReport) {
        let log: SessionLog
        do { log = try SessionLog.read(contentsOf: file).get() } catch { throw CommandFailure(message: "\(file): \(error)") }
        // The viewport is the canvas in whole CSS pixels: refused before any conversion (a
        // canvas of 1e300 made `Int(width)` stop the process), at DevTools' own limit.
        let canvas = log.header.canvas
        guard canvas.width <= maxViewportSide, canvas.height <= maxViewportSide else {
            throw CommandFailure(message: "\(file): line 1: the canvas, \(JSONValue.format(canvas.width)) × \(JSONValue.format(canvas.height)), "
                + "is too large for a browser viewport (at most \(JSONValue.format(maxViewportSide)) pixels a side)")
        }
        let browser: ChromiumPage
        do {
            browser = try ChromiumPage(url: url, width: Int(canvas.width), height: Int(canvas.height))
        } catch {
            throw CommandFailure(message: "\(file): \(error)")
        }
        do {
            return (log, browser, try replay.replay(log, on: browser))
        } catch {
            browser.close()
            throw CommandFailure(message: "\(file): \(error)")
        }
    }

    /// One self-contained HTML file: the page as the browser rendered it after the replay,
    /// and the ink on top, as the student saw it.
    static func html(log: SessionLog, report: BrowserReplayReport, screenshot: Data, page: String) -> String {
        let width = log.header.canvas.width, height = log.header.canvas.height
        var paths = ""
        for stroke in report.strokes {
            paths += "<path fill=\"#1b1f3b\" d=\"\(StrokeOutline.svgPathData(stroke.builder.allSegments))\"/>\n"
        }
        let title = XMLText.escaped("\(PathText.shown(page)): \(report.touches.count) touches, \(report.ledger.inked) samples inked, \(report.ledger.released) to the page, \(report.ledger.dropped) dropped")
        return """
            <!doctype html>
            <html><head><meta charset="utf-8"><title>\(title)</title></head>
            <body style="margin:0;font:14px sans-serif">
            <div style="position:relative;width:\(Int(width))px;height:\(Int(height))px">
            <img alt="the page after the replay" src="data:image/png;base64,\(screenshot.base64EncodedString())" style="position:absolute;left:0;top:0">
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" style="position:absolute;left:0;top:0">
            \(paths)</svg>
            </div>
            <p style="padding:8px">\(title). The page is a screenshot of headless Chromium after the replay; the ink is drawn over it.</p>
            </body></html>

            """
    }
    #endif
}
