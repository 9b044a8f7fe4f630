// scratchpad-gtk zoom-frames: what one frame of the overlay costs while WebKitGTK's zoom
// changes under a page full of ink, in the real window: the tile pictures painted scaled and
// filled again once the zoom rests (the default), against filled again at every zoom step
// (settle delay 0), and the pixels of tile pictures held.
import CWebKitGTK
import Foundation
@_spi(Tooling) import GTKLogPlayer
@_spi(Tooling) import GTKScratchpad
@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkCore
@_spi(Tooling) import SessionReplay
@_spi(Tooling) import WebKitGTKOracle

/// One measured configuration.
struct ZoomFramesRow {
    var strokes: Int
    var settles: Bool
    /// Seconds in the draw handler per frame during the zoom, in the order drawn.
    var perFrame: [Double]
    /// Seconds in the draw handler for the frames after the zoom rested at 5.
    var settleSeconds: Double
    var tilesDuring: Int
    var peakPixels: Int
    var largestSide: Int
}

/// Opens long.html, writes `strokes` strokes on its first screen, then zooms from 1 to 5 in
/// `steps` steps (one every frame, waiting for each to be drawn), reads the draw handler's
/// time for each frame, then lets the zoom rest and reads the refill.
func measureZoomFrames(strokes: Int, settles: Bool, steps: Int, page: URL) throws -> ZoomFramesRow {
    let window = try windowWithInk(strokes: strokes, page: page) { $0.zoomSettleDelay = settles ? 0.15 : 0 }
    let tilesBefore = window.inkTilesRendered
    var perFrame: [Double] = []
    for step in 1...steps {
        let level = 1 + 4 * Double(step) / Double(steps)
        if let cost = frameCost(window, { window.page.zoomLevel = level }, landed: { abs(window.transform.scale - 1 / level) < 1e-9 }) {
            perFrame.append(cost)
        }
    }
    let tilesDuring = window.inkTilesRendered - tilesBefore
    let secondsBefore = window.drawSeconds
    GTK.spin(for: 0.5)
    let settleSeconds = window.drawSeconds - secondsBefore
    let report = window.finish()
    guard report.isVerified else { throw UsageError(description: "not verified: \(report.verificationFailures)") }
    return ZoomFramesRow(strokes: strokes, settles: settles, perFrame: perFrame, settleSeconds: settleSeconds,
                         tilesDuring: tilesDuring, peakPixels: window.inkTilePeakPixels, largestSide: window.inkTileLargestSide)
}

/// The process's peak resident memory so far, MiB (Linux: `ru_maxrss` is in KiB).
func peakResidentMiB() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return Double(usage.ru_maxrss) / 1024
}

func runZoomFrames(_ arguments: Arguments) throws -> Int32 {
    let counts = try strokeCounts(arguments, default: "500")
    let steps = try positiveOption(arguments, "steps", upTo: 1_000, default: 40)
    let page = try pageURL(arguments.positional.first ?? "Fixtures/pages/long.html")
    try GTK.initialize()
    let ms = frameMilliseconds
    print("| strokes | tile pictures during the zoom | frames | draw per frame, p50 | p95 | max | tiles filled during the zoom | draw after it rested | peak pixels of pictures (MiB) | largest picture side | peak RSS of the process so far |")
    print("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for count in counts {
        for settles in [false, true] {
            let row = try measureZoomFrames(strokes: count, settles: settles, steps: steps, page: page)
            guard let p = Percentiles(row.perFrame) else { continue }
            let mib = String(format: "%.1f", Double(row.peakPixels * 4) / 1_048_576)
            print("| \(count) | \(settles ? "scaled, filled 150 ms after it rests (new)" : "filled at every step (settle 0)") | \(row.perFrame.count) | \(ms(p.p50)) ms | \(ms(p.p95)) ms | \(ms(p.max)) ms | \(row.tilesDuring) | \(ms(row.settleSeconds)) ms | \(row.peakPixels) (\(mib)) | \(row.largestSide) px | \(String(format: "%.0f", peakResidentMiB())) MiB |")
        }
    }
    return 0
}
