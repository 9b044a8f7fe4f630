// scratchpad-gtk scroll-frames: what one frame of the overlay costs while the page scrolls
// under a page full of ink, with the finished ink painted from its tiles' pictures (the
// default) and filled stroke by stroke in every frame (the old way), in the real window.
import CWebKitGTK
import Foundation
@_spi(Tooling) import GTKLogPlayer
@_spi(Tooling) import GTKScratchpad
@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkCore
@_spi(Tooling) import SessionReplay
@_spi(Tooling) import WebKitGTKOracle

/// One measured configuration.
struct ScrollFramesRow {
    var strokes: Int
    var cached: Bool
    var frames: Int
    /// Seconds in the draw handler per frame, in the order drawn.
    var perFrame: [Double]
    var tilesRendered: Int
}

/// Opens long.html, writes `strokes` strokes on its first screen, then scrolls the page down
/// and up again 8 points a frame, `frames` times, waiting for each scroll to be drawn, and
/// reads the draw handler's time for each frame.
func measureScrollFrames(strokes: Int, cached: Bool, frames: Int, page: URL) throws -> ScrollFramesRow {
    let window = try windowWithInk(strokes: strokes, page: page) { $0.usesInkCache = cached }
    let tilesBefore = window.inkTilesRendered
    var perFrame: [Double] = []
    var offset = window.transform.offsetY
    for frame in 0..<frames {
        let dy = (frame / 15) % 2 == 0 ? 8.0 : -8.0   // down 120 points, up 120, …
        let target = offset + dy * window.transform.scale
        if let cost = frameCost(window, { window.scrollPage(dx: 0, dy: dy) }, landed: { window.transform.offsetY == target }) {
            perFrame.append(cost)
        }
        offset = window.transform.offsetY
    }
    let report = window.finish()
    guard report.isVerified else { throw UsageError(description: "not verified: \(report.verificationFailures)") }
    return ScrollFramesRow(strokes: strokes, cached: cached, frames: perFrame.count, perFrame: perFrame,
                           tilesRendered: window.inkTilesRendered - tilesBefore)
}

func runScrollFrames(_ arguments: Arguments) throws -> Int32 {
    let counts = try strokeCounts(arguments, default: "50,200,500")
    let frames = try positiveOption(arguments, "frames", upTo: 10_000, default: 60)
    let page = try pageURL(arguments.positional.first ?? "Fixtures/pages/long.html")
    try GTK.initialize()
    let ms = frameMilliseconds
    print("| strokes on the page | finished ink | frames | draw handler per frame, p50 | p95 | max | tiles filled while scrolling |")
    print("|---:|---|---:|---:|---:|---:|---:|")
    for count in counts {
        for cached in [false, true] {
            let row = try measureScrollFrames(strokes: count, cached: cached, frames: frames, page: page)
            guard let p = Percentiles(row.perFrame) else { continue }
            print("| \(count) | \(cached ? "tile pictures (new)" : "filled every frame (old)") | \(row.frames) | \(ms(p.p50)) ms | \(ms(p.p95)) ms | \(ms(p.max)) ms | \(cached ? "\(row.tilesRendered)" : "–") |")
        }
    }
    return 0
}

/// A window showing `page` with `strokes` synthetic strokes on its first screen's scratch
/// paper (left of the long worksheet's answer fields, x 560 and right, and its check
/// buttons, below the first question's line), set up by `prepare` before they are written,
/// and settled: what the frame measurements start from.
func windowWithInk(strokes: Int, page: URL, prepare: (ScratchpadWindow) -> Void) throws -> ScratchpadWindow {
    let window = try ScratchpadWindow()
    try window.show(loading: page)
    prepare(window)
    let written = SyntheticInk.write(strokes, into: window, area: CanvasRect(minX: 30, minY: 140, maxX: 540, maxY: 740))
    guard written == strokes else { throw UsageError(description: "only \(written) of \(strokes) strokes became ink") }
    GTK.spin(for: 0.3)
    return window
}

/// The draw handler's seconds per frame for one change of the view: `change` runs, GTK runs
/// until the view has `landed` and a frame was drawn (2 s at most), then 20 ms more, so the
/// frame the change asked for is drawn and nothing else is pending. `nil` when no frame was
/// drawn.
func frameCost(_ window: ScratchpadWindow, _ change: () -> Void, landed: @escaping () -> Bool) -> Double? {
    let framesBefore = window.framesDrawn, secondsBefore = window.drawSeconds
    change()
    _ = GTK.spin(timeout: 2) { landed() && window.framesDrawn > framesBefore }
    GTK.spin(for: 0.02)
    let drawn = window.framesDrawn - framesBefore
    return drawn > 0 ? (window.drawSeconds - secondsBefore) / Double(drawn) : nil
}

/// Seconds as milliseconds with three decimals, for the frame tables.
func frameMilliseconds(_ seconds: Double) -> String { String(format: "%.3f", seconds * 1000) }

/// `--strokes`: stroke counts, comma separated, each 0...20000 (the measuring commands').
func strokeCounts(_ arguments: Arguments, default given: String) throws -> [Int] {
    try (arguments.options["strokes"] ?? given).split(separator: ",").map { text in
        guard let value = Int(text), value >= 0, value <= 20_000 else { throw UsageError(description: "--strokes takes counts 0...20000, comma separated") }
        return value
    }
}

/// A whole-number option `--name` of 1...`limit`, or `given` when absent.
func positiveOption(_ arguments: Arguments, _ name: String, upTo limit: Int, default given: Int) throws -> Int {
    guard let text = arguments.options[name] else { return given }
    guard let value = Int(text), value > 0, value <= limit else { throw UsageError(description: "--\(name) takes 1...\(limit)") }
    return value
}
