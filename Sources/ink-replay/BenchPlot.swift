@_spi(Tooling) import InkCore
@_spi(Tooling) import InkRecording
@_spi(Tooling) import SessionReplay

/// The strategy benchmark's table as an SVG chart (`ink-replay bench --plot`), drawn from
/// the same ``StrategyResult`` values the table prints.
///
/// Two panels share one x axis, the oracle latencies as evenly spaced categories (0, 8,
/// 16, 30, 100 and 300 ms would crowd together on a linear scale): first-ink p50 (solid
/// line, filled marker) and p95 (dashed line, hollow marker) above, samples lost below.
/// One colour and one marker shape per strategy; each strategy is shifted sideways by a few
/// pixels so that strategies with equal values stay visible side by side. First ink is on a
/// square-root scale (the 8-37 ms values would be a few pixels high on a linear one),
/// samples lost on a linear one; both start a little below zero, so a point at 0 sits on its own labelled grid line
/// above the axis. Every marker has a `<title>` with the row's exact numbers, formatted as
/// the table formats them. Deterministic: the same results give the same bytes.
struct BenchPlot {
    /// The rows in table order (strategy by strategy, each at every latency in order).
    var results: [StrategyResult]
    /// The oracle latencies in milliseconds, in the order the rows hold them.
    var latencies: [Double]
    var strokes: Int
    var recordedStrokes: Int
    var samples: Int
    var seed: UInt64

    /// The table's name of a strategy.
    static func label(_ strategy: DecisionStrategy) -> String {
        switch strategy {
        case .blocking: "(a) blocking"
        case .queued: "(b) queued"
        case .cached: "(c) cache"
        case .speculative: "(d) speculative"
        }
    }

    /// Okabe-Ito colours, distinguishable with the common colour-vision deficiencies.
    static func colour(_ strategy: DecisionStrategy) -> String {
        switch strategy {
        case .blocking: "#d55e00"
        case .queued: "#0072b2"
        case .cached: "#009e73"
        case .speculative: "#cc79a7"
        }
    }

    /// The `<title>` of one row's markers: the table's numbers, formatted as the table does.
    static func pointTitle(_ result: StrategyResult, latencyMs: Double) -> String {
        let ink = result.firstInk.map {
            "first ink p50 \(Summary.ms($0.p50)) ms, p95 \(Summary.ms($0.p95)) ms, p99 \(Summary.ms($0.p99)) ms"
        } ?? "no first ink"
        return "\(label(result.strategy)), oracle latency \(SVGNumber.format(latencyMs, decimals: 3)) ms: \(ink); "
            + "samples lost \(result.samplesLost); strokes lost \(result.strokesLost)"
    }

    // Layout, in SVG user units.
    static let width = 820.0
    static let left = 78.0, right = 800.0
    static let inkTop = 140.0, inkBottom = 400.0
    static let lostTop = 470.0, lostBottom = 630.0
    static let height = 720.0
    /// How far each strategy is shifted from its category's centre, per strategy index step.
    static let dodge = 10.0

    private var strategies: [DecisionStrategy] {
        DecisionStrategy.allCases.filter { strategy in results.contains { $0.strategy == strategy } }
    }

    /// A strategy's rows, one per latency, in order.
    private func rows(_ strategy: DecisionStrategy) -> [StrategyResult] { results.filter { $0.strategy == strategy } }

    func svg() -> String {
        let title = "ink-replay bench: first ink and samples lost by decision strategy and oracle latency"
        let subtitle = "\(strokes) short strokes (\(recordedStrokes) recorded, \(strokes - recordedStrokes) generated), "
            + "\(samples) samples, seed \(seed); oracle latency plus seeded jitter up to 25 %"
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" width="\(n(Self.width))" height="\(n(Self.height))" viewBox="0 0 \(n(Self.width)) \(n(Self.height))" font-family="sans-serif">
            <title>\(escape(title))</title>
            <desc>\(escape(subtitle))</desc>
            <rect x="0" y="0" width="\(n(Self.width))" height="\(n(Self.height))" fill="#ffffff"/>
            <text x="\(n(Self.width / 2))" y="24" text-anchor="middle" font-size="15" font-weight="bold" fill="#212529">\(escape(title))</text>
            <text x="\(n(Self.width / 2))" y="44" text-anchor="middle" font-size="12" fill="#495057">\(escape(subtitle))</text>

            """
        out += legend(y: 70)

        let inkValues = results.flatMap { $0.firstInk.map { [$0.p50 * 1000, $0.p95 * 1000] } ?? [] }
        let inkScale = Scale(top: Self.inkTop, bottom: Self.inkBottom, maximum: inkValues.max() ?? 0, squareRoot: true)
        out += panel(scale: inkScale, name: "ink", label: "first ink (ms, square-root scale)",
                     heading: "First ink: touch-down to first ink, p50 and p95 over touches that became ink")
        // p95 first, as larger rings, so that an equal p50 shows as a dot inside its ring.
        for percentile in ["p95", "p50"] {
            for strategy in strategies {
                out += series(strategy, name: percentile, scale: inkScale, dashed: percentile == "p95", filled: percentile == "p50") { result in
                    result.firstInk.map { percentile == "p50" ? $0.p50 * 1000 : $0.p95 * 1000 }
                }
            }
        }

        let lostScale = Scale(top: Self.lostTop, bottom: Self.lostBottom, maximum: Double(results.map(\.samplesLost).max() ?? 0))
        out += panel(scale: lostScale, name: "lost", label: "samples lost", heading: "Samples lost (never reached their owner)")
        let lossless = strategies.filter { strategy in rows(strategy).allSatisfy { $0.samplesLost == 0 } }
        if !lossless.isEmpty {
            let text = lossless.map(Self.label).joined(separator: ", ") + ": 0 samples lost at every latency"
            out += "<text class=\"zero-note\" x=\"\(n(Self.right - 8))\" y=\"\(n(lostScale.y(0) - 10))\" text-anchor=\"end\" font-size=\"11\" fill=\"#343a40\">\(escape(text))</text>\n"
        }
        for strategy in strategies {
            out += series(strategy, name: "lost", scale: lostScale, dashed: false, filled: true) { Double($0.samplesLost) }
        }

        out += """
            <text x="\(n((Self.left + Self.right) / 2))" y="\(n(Self.lostBottom + 38))" text-anchor="middle" font-size="12" fill="#212529">oracle latency (ms)</text>
            <text class="caption" x="\(n(Self.left))" y="\(n(Self.height - 30))" font-size="11" fill="#495057">x: the oracle latencies as evenly spaced categories, not to scale; each strategy is shifted a few pixels sideways so equal values stay visible.</text>
            <text class="caption" x="\(n(Self.left))" y="\(n(Self.height - 14))" font-size="11" fill="#495057">y: first ink on a square-root scale, samples lost linear; both from a little below 0, so 0 has its own grid line. Hover a marker: its row's numbers.</text>
            </svg>

            """
        return out
    }

    /// A y scale, linear or square-root, from a little below 0 to a round number at or above
    /// `maximum`.
    struct Scale {
        var top: Double, bottom: Double
        var step: Double, maximum: Double
        var squareRoot: Bool

        init(top: Double, bottom: Double, maximum: Double, squareRoot: Bool = false) {
            self.top = top
            self.bottom = bottom
            self.squareRoot = squareRoot
            // A step of 1, 2, 2.5 or 5 times a power of ten giving at most 6 intervals.
            let wanted = Swift.max(maximum, 1) / 6
            var power = 1.0
            while power * 10 <= wanted { power *= 10 }
            while power > wanted { power /= 10 }
            // Never below 1: milliseconds and samples need no fractional ticks.
            step = Swift.max(1, [1, 2, 2.5, 5, 10].map { $0 * power }.first { $0 >= wanted } ?? power * 10)
            self.maximum = (Swift.max(maximum, 1) / step).rounded(.up) * step
        }

        /// 0 sits this fraction of the height above the axis line.
        static let below = 0.06

        func y(_ value: Double) -> Double {
            func f(_ v: Double) -> Double { squareRoot ? v.squareRoot() : v }
            let high = f(maximum), low = -high * Self.below
            return bottom - (f(Swift.max(value, 0)) - low) / (high - low) * (bottom - top)
        }

        /// Multiples of the step; on a square-root scale also 1 and 5 times powers of ten
        /// below the step (down to a fiftieth of the maximum), where the scale spreads values.
        var ticks: [Double] {
            // About 6 by construction (`init`); saturated and capped so no maximum traps here.
            let intervals = Swift.min(Swift.max(0, Int(saturating: maximum / step, rounding: .toNearestOrAwayFromZero)), 60)
            let multiples = (0...intervals).map { Double($0) * step }
            guard squareRoot else { return multiples }
            var small: [Double] = []
            var power = 1.0
            while power < step {
                for factor in [1.0, 5] where factor * power < step && factor * power >= maximum / 50 { small.append(factor * power) }
                power *= 10
            }
            return [0] + small + multiples.dropFirst()
        }
    }

    private func x(category: Int, strategy: DecisionStrategy) -> Double {
        let spacing = (Self.right - Self.left) / Double(Swift.max(latencies.count, 1))
        let index = Double(DecisionStrategy.allCases.firstIndex(of: strategy) ?? 0)
        let centre = Double(DecisionStrategy.allCases.count - 1) / 2
        return Self.left + (Double(category) + 0.5) * spacing + (index - centre) * Self.dodge
    }

    private func categoryX(_ category: Int) -> Double {
        Self.left + (Double(category) + 0.5) * (Self.right - Self.left) / Double(Swift.max(latencies.count, 1))
    }

    private func panel(scale: Scale, name: String, label: String, heading: String) -> String {
        var out = "<g class=\"panel\" data-panel=\"\(name)\" font-size=\"11\" fill=\"#495057\">\n"
        out += "<text x=\"\(n(Self.left))\" y=\"\(n(scale.top - 12))\" font-size=\"13\" font-weight=\"bold\" fill=\"#212529\">\(escape(heading))</text>\n"
        for tick in scale.ticks {
            let y = scale.y(tick)
            out += "<line x1=\"\(n(Self.left))\" y1=\"\(n(y))\" x2=\"\(n(Self.right))\" y2=\"\(n(y))\" stroke=\"\(tick == 0 ? "#adb5bd" : "#e9ecef")\" stroke-width=\"1\"/>\n"
            out += "<text x=\"\(n(Self.left - 6))\" y=\"\(n(y + 4))\" text-anchor=\"end\">\(n(tick))</text>\n"
        }
        out += "<line class=\"axis\" x1=\"\(n(Self.left))\" y1=\"\(n(scale.bottom))\" x2=\"\(n(Self.right))\" y2=\"\(n(scale.bottom))\" stroke=\"#343a40\" stroke-width=\"1\"/>\n"
        out += "<line x1=\"\(n(Self.left))\" y1=\"\(n(scale.top))\" x2=\"\(n(Self.left))\" y2=\"\(n(scale.bottom))\" stroke=\"#343a40\" stroke-width=\"1\"/>\n"
        for (i, ms) in latencies.enumerated() {
            let x = categoryX(i)
            out += "<line x1=\"\(n(x))\" y1=\"\(n(scale.bottom))\" x2=\"\(n(x))\" y2=\"\(n(scale.bottom + 5))\" stroke=\"#343a40\" stroke-width=\"1\"/>\n"
            out += "<text x=\"\(n(x))\" y=\"\(n(scale.bottom + 18))\" text-anchor=\"middle\">\(n(ms))</text>\n"
        }
        let middle = (scale.top + scale.bottom) / 2
        out += "<text x=\"\(n(Self.left - 52))\" y=\"\(n(middle))\" text-anchor=\"middle\" transform=\"rotate(-90 \(n(Self.left - 52)) \(n(middle)))\" font-size=\"12\" fill=\"#212529\">\(escape(label))</text>\n"
        out += "</g>\n"
        return out
    }

    /// One strategy's line and markers in a panel; a row without a value breaks the line.
    private func series(_ strategy: DecisionStrategy, name: String, scale: Scale, dashed: Bool, filled: Bool,
                        value: (StrategyResult) -> Double?) -> String {
        let colour = Self.colour(strategy)
        var out = "<g class=\"series\" data-strategy=\"\(strategy.rawValue)\" data-series=\"\(name)\">\n"
        var runs: [[String]] = [[]]
        var markers = ""
        for (i, result) in rows(strategy).enumerated() {
            guard let v = value(result) else {
                runs.append([])
                continue
            }
            let x = x(category: i, strategy: strategy), y = scale.y(v)
            runs[runs.count - 1].append("\(n(x)),\(n(y))")
            let latency = i < latencies.count ? latencies[i] : result.latency * 1000
            // A hollow marker is larger and transparent inside (still hoverable there).
            markers += "<path class=\"point\" data-latency-ms=\"\(n(latency))\" transform=\"translate(\(n(x)) \(n(y)))\(filled ? "" : " scale(1.6)")\" d=\"\(Self.marker(strategy))\" "
                + (filled ? "fill=\"\(colour)\" stroke=\"\(colour)\" stroke-width=\"1.5\"" : "fill=\"#ffffff\" fill-opacity=\"0\" stroke=\"\(colour)\" stroke-width=\"0.9\"")
                + "><title>\(escape(Self.pointTitle(result, latencyMs: latency)))</title></path>\n"
        }
        for run in runs where run.count > 1 {
            out += "<polyline points=\"\(run.joined(separator: " "))\" fill=\"none\" stroke=\"\(colour)\" stroke-width=\"\(dashed ? "1.5" : "2")\""
                + (dashed ? " stroke-dasharray=\"6 4\"" : "") + "/>\n"
        }
        out += markers + "</g>\n"
        return out
    }

    /// A marker centred on 0,0: circle, square, triangle, diamond.
    static func marker(_ strategy: DecisionStrategy) -> String {
        switch strategy {
        case .blocking: "M-4 0A4 4 0 1 0 4 0A4 4 0 1 0 -4 0Z"
        case .queued: "M-3.5 -3.5H3.5V3.5H-3.5Z"
        case .cached: "M0 -4.5L4.5 3.5H-4.5Z"
        case .speculative: "M0 -5L5 0L0 5L-5 0Z"
        }
    }

    private func legend(y: Double) -> String {
        var out = "<g class=\"legend\" font-size=\"12\" fill=\"#212529\">\n"
        var x = Self.left
        for strategy in strategies {
            let colour = Self.colour(strategy)
            out += "<line x1=\"\(n(x))\" y1=\"\(n(y))\" x2=\"\(n(x + 24))\" y2=\"\(n(y))\" stroke=\"\(colour)\" stroke-width=\"2\"/>"
                + "<path transform=\"translate(\(n(x + 12)) \(n(y)))\" d=\"\(Self.marker(strategy))\" fill=\"\(colour)\" stroke=\"\(colour)\" stroke-width=\"1.5\"/>"
                + "<text x=\"\(n(x + 30))\" y=\"\(n(y + 4))\">\(escape(Self.label(strategy)))</text>\n"
            x += 150
        }
        let key = y + 22
        out += "<line x1=\"\(n(Self.left))\" y1=\"\(n(key))\" x2=\"\(n(Self.left + 24))\" y2=\"\(n(key))\" stroke=\"#495057\" stroke-width=\"2\"/>"
            + "<circle cx=\"\(n(Self.left + 12))\" cy=\"\(n(key))\" r=\"4\" fill=\"#495057\"/>"
            + "<text x=\"\(n(Self.left + 30))\" y=\"\(n(key + 4))\">p50: solid line, filled marker</text>\n"
        out += "<line x1=\"\(n(Self.left + 250))\" y1=\"\(n(key))\" x2=\"\(n(Self.left + 274))\" y2=\"\(n(key))\" stroke=\"#495057\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"/>"
            + "<circle cx=\"\(n(Self.left + 262))\" cy=\"\(n(key))\" r=\"6.4\" fill=\"#ffffff\" stroke=\"#495057\" stroke-width=\"1.5\"/>"
            + "<text x=\"\(n(Self.left + 280))\" y=\"\(n(key + 4))\">p95: dashed line, ring (a dot inside its ring: p50 = p95)</text>\n"
        out += "</g>\n"
        return out
    }

    private func n(_ value: Double) -> String { SVGNumber.format(value, decimals: 2) }

    private func escape(_ text: String) -> String { XMLText.escaped(text) }
}
