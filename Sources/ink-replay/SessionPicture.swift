@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkRecording
@_spi(Tooling) import SessionReplay
@_spi(Tooling) import InkCore

/// An SVG picture of a replayed session: what the student saw, at a glance.
///
/// Ink is filled with the stroke pipeline's outline; touches that went to the page are
/// thin dashed polylines in another colour with a ring at touch-down; cancelled touches
/// are dotted grey; the page's interactive regions are outlined and labelled; a legend and
/// the ledger sit at the bottom.
struct SessionPicture {
    var log: SessionLog
    var report: ReplayReport
    var style = StrokeStyle()
    var title: String

    static let inkColour = "#1b1f3b"
    static let pageColour = "#e8590c"
    static let cancelColour = "#868e96"
    static let regionColour = "#1c7ed6"

    func svg() -> String {
        let width = log.header.canvas.width
        let legendHeight = 64.0
        let height = log.header.canvas.height + legendHeight
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" width="\(n(width))" height="\(n(height))" viewBox="0 0 \(n(width)) \(n(height))">
            <title>\(escape(title))</title>
            <rect x="0" y="0" width="\(n(width))" height="\(n(log.header.canvas.height))" fill="#ffffff" stroke="#dee2e6"/>

            """
        out += regions()
        // A cancelled touch is drawn from the log (it may never have been shown at all).
        let logged = log.samplesByTouch
        for (n, touch) in report.touches.enumerated() {
            if touch.cancelled {
                let samples = logged.count == report.touches.count ? logged[n].samples : touch.inked + touch.released
                out += polyline(samples, kind: "cancelled", colour: Self.cancelColour, dash: "1 3", touch: touch)
            } else if !touch.released.isEmpty {
                out += polyline(touch.released, kind: "page", colour: Self.pageColour, dash: "4 3", touch: touch)
            }
        }
        var stroke = StrokeBuilder(style: style)
        for touch in report.touches where !touch.cancelled && !touch.inked.isEmpty {
            stroke.reset()
            for sample in touch.inked { _ = try? stroke.append(sample) }
            _ = stroke.finish()
            _ = stroke.settleEstimates()
            out += "<path class=\"ink\" data-touch=\"\(touch.touch.rawValue)\" fill=\"\(Self.inkColour)\" fill-rule=\"nonzero\" d=\"\(StrokeOutline.svgPathData(stroke.stableSegments))\"/>\n"
        }
        out += legend(top: log.header.canvas.height, width: width)
        out += "</svg>\n"
        return out
    }

    private func regions() -> String {
        // The page's layout as last pushed (page coordinates mapped back onto the canvas).
        guard let snapshot = log.events.reversed().lazy.compactMap({ event -> RegionSnapshot? in
            if case let .regions(snapshot, _) = event { return snapshot }
            return nil
        }).first else { return "" }
        let t = log.header.pageTransform ?? .identity
        var out = ""
        for region in snapshot.regions {
            let shown = t.canvasRect(for: region.rect), x = shown.minX, y = shown.minY, w = shown.width, h = shown.height
            out += "<rect class=\"region\" x=\"\(n(x))\" y=\"\(n(y))\" width=\"\(n(w))\" height=\"\(n(h))\" rx=\"4\" fill=\"\(Self.regionColour)\" fill-opacity=\"0.06\" stroke=\"\(Self.regionColour)\" stroke-width=\"1\"/>\n"
            if let element = region.element {
                out += "<text x=\"\(n(x + 4))\" y=\"\(n(y + 12))\" font-family=\"sans-serif\" font-size=\"10\" fill=\"\(Self.regionColour)\">\(escape(element))</text>\n"
            }
        }
        return out
    }

    private func polyline(_ samples: [TouchSample], kind: String, colour: String, dash: String, touch: TouchOutcome) -> String {
        guard let first = samples.first else { return "" }
        let points = samples.map { "\(n($0.x)),\(n($0.y))" }.joined(separator: " ")
        return "<polyline class=\"\(kind)\" data-touch=\"\(touch.touch.rawValue)\" points=\"\(points)\" fill=\"none\" stroke=\"\(colour)\" stroke-width=\"1.2\" stroke-dasharray=\"\(dash)\"/>\n"
            + "<circle cx=\"\(n(first.x))\" cy=\"\(n(first.y))\" r=\"3\" fill=\"none\" stroke=\"\(colour)\" stroke-width=\"1.2\"/>\n"
    }

    private func legend(top: Double, width: Double) -> String {
        let y = top + 20
        let a = report.audit
        let ledger = "samples \(report.samples): inked \(a.inked), to the page \(a.released), cancelled \(a.cancelled), dropped \(report.dropped)"
        return """
            <g class="legend" font-family="sans-serif" font-size="12" fill="#343a40">
            <rect x="10" y="\(n(y - 9))" width="22" height="6" rx="3" fill="\(Self.inkColour)"/><text x="38" y="\(n(y - 1))">ink</text>
            <line x1="80" y1="\(n(y - 6))" x2="102" y2="\(n(y - 6))" stroke="\(Self.pageColour)" stroke-width="1.2" stroke-dasharray="4 3"/><text x="108" y="\(n(y - 1))">to the page</text>
            <line x1="190" y1="\(n(y - 6))" x2="212" y2="\(n(y - 6))" stroke="\(Self.cancelColour)" stroke-width="1.2" stroke-dasharray="1 3"/><text x="218" y="\(n(y - 1))">cancelled</text>
            <rect x="290" y="\(n(y - 11))" width="22" height="10" rx="2" fill="\(Self.regionColour)" fill-opacity="0.06" stroke="\(Self.regionColour)"/><text x="318" y="\(n(y - 1))">interactive region</text>
            <text x="10" y="\(n(y + 22))">\(escape(title)): \(escape(ledger))</text>
            </g>

            """
    }

    private func n(_ value: Double) -> String { SVGNumber.format(value, decimals: 2) }

    private func escape(_ text: String) -> String { XMLText.escaped(text) }
}
