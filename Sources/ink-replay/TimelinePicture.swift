@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkCore
@_spi(Tooling) import InkRecording
@_spi(Tooling) import SessionReplay

/// A picture of a ``DecisionTimeline``: one lane per touch on a shared time axis, and a lane
/// for the page above them. What an engineer chasing a lost tap looks at first: when each
/// touch came down, how long it was queued, the question's round trip (or the cache hit that
/// answered it), the verdict and its reason, where the samples went (ink, speculative ink,
/// the page), retractions and cancellations; and what the page pushed meanwhile.
///
/// Every mark carries a `<title>` with its exact numbers (a browser shows it on hover).
/// Stretches of time when nothing happens (no touch down, no page event) are cut out of the
/// axis and drawn as a break labelled with the time skipped, so short touches in a long
/// session stay readable. The same timeline gives the same bytes every time.
struct TimelinePicture {
    var timeline: DecisionTimeline
    /// The picture's title (the session's file name).
    var title: String
    /// The replay's settings, in words.
    var settings: String
    /// The ledger and first-ink line.
    var summary: String

    static let inkColour = "#1b1f3b"
    static let pageColour = "#e8590c"
    static let queueColour = "#fab005"
    static let tripColour = "#1c7ed6"
    static let closedTripColour = "#a5d8ff"
    static let cancelColour = "#868e96"
    static let retractColour = "#e03131"
    static let layoutColour = "#7048e8"

    static let labelWidth = 190.0
    static let headerHeight = 70.0
    static let axisHeight = 24.0
    static let pageLaneHeight = 34.0
    static let laneHeight = 28.0
    static let legendHeight = 78.0
    static let rightMargin = 120.0

    /// The SVG document.
    func svg() -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + svgElement()
    }

    /// One HTML file a browser opens: the SVG inline, hover for the numbers.
    func html() -> String {
        """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><title>\(escape(title)): decision timeline</title>
        <style>
        body { margin: 16px; font: 14px system-ui, sans-serif; color: #212529; }
        svg .lane:hover > rect.row { fill: #e7f5ff; fill-opacity: 0.6; }
        </style></head>
        <body>
        <p>Hover a mark for its exact times and numbers. Grey breaks on the axis skip time when nothing happened.</p>
        \(svgElement())</body></html>

        """
    }

    private func svgElement() -> String {
        let axis = TimeAxis(timeline: timeline, left: Self.labelWidth)
        let width = Self.labelWidth + axis.width + Self.rightMargin
        let lanesTop = Self.headerHeight + Self.axisHeight
        let touchesTop = lanesTop + Self.pageLaneHeight
        let height = touchesTop + Double(timeline.touches.count) * Self.laneHeight + Self.legendHeight
        var out = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(n(width))" height="\(n(height))" viewBox="0 0 \(n(width)) \(n(height))" font-family="sans-serif" font-size="11">
            <title>\(escape(title)): decision timeline</title>
            <rect x="0" y="0" width="\(n(width))" height="\(n(height))" fill="#ffffff"/>
            <g class="header" fill="#212529">
            <text x="10" y="22" font-size="16" font-weight="bold">\(escape(title)): decision timeline</text>
            <text x="10" y="42">\(escape(settings))</text>
            <text x="10" y="60">\(escape(summary + omissions))</text>
            </g>

            """
        out += axis.svg(top: Self.headerHeight, bottom: touchesTop + Double(timeline.touches.count) * Self.laneHeight)
        out += pageLane(axis, top: lanesTop)
        for (k, touch) in timeline.touches.enumerated() {
            out += lane(touch, axis, top: touchesTop + Double(k) * Self.laneHeight, width: width)
        }
        out += legend(top: touchesTop + Double(timeline.touches.count) * Self.laneHeight + 16)
        out += "</svg>\n"
        return out
    }

    private var omissions: String {
        var parts: [String] = []
        if timeline.omittedTouches > 0 { parts.append("\(timeline.omittedTouches) later touches not drawn") }
        if timeline.omittedPageEvents > 0 { parts.append("\(timeline.omittedPageEvents) later page events not drawn") }
        return parts.isEmpty ? "" : " (" + parts.joined(separator: ", ") + ")"
    }

    // MARK: - The page

    private func pageLane(_ axis: TimeAxis, top: Double) -> String {
        var out = "<g class=\"page-lane\">\n"
        out += "<rect class=\"row\" x=\"0\" y=\"\(n(top))\" width=\"\(n(Self.labelWidth + axis.width + Self.rightMargin))\" height=\"\(n(Self.pageLaneHeight))\" fill=\"#f1f3f5\" fill-opacity=\"0.6\"/>\n"
        out += "<text x=\"10\" y=\"\(n(top + 21))\" font-weight=\"bold\" fill=\"#495057\">page</text>\n"
        let mid = top + Self.pageLaneHeight / 2
        var lastLabel = -Double.infinity
        for event in timeline.page {
            let x = axis.x(event.time)
            let at = "at \(seconds(event.time))"
            switch event.kind {
            case let .regionsAccepted(generation, regions):
                var text = "region snapshot"
                if let generation { text += ", generation \(generation)" }
                if let regions { text += ", \(regions) region\(regions == 1 ? "" : "s")" }
                out += "<line class=\"page-event regions\" x1=\"\(n(x))\" y1=\"\(n(mid - 2))\" x2=\"\(n(x))\" y2=\"\(n(mid + 10))\" stroke=\"\(Self.tripColour)\" stroke-width=\"2\"><title>\(escape("\(text) \(at)"))</title></line>\n"
                if let generation, x - lastLabel >= 26 {
                    out += "<text x=\"\(n(x))\" y=\"\(n(mid - 5))\" text-anchor=\"middle\" font-size=\"9\" fill=\"\(Self.tripColour)\">g\(generation)</text>\n"
                    lastLabel = x
                }
            case let .regionsRefused(reason):
                out += "<line class=\"page-event regions-refused\" x1=\"\(n(x))\" y1=\"\(n(mid - 2))\" x2=\"\(n(x))\" y2=\"\(n(mid + 10))\" stroke=\"\(Self.retractColour)\" stroke-width=\"2\"><title>\(escape("region snapshot refused \(at): \(reason)"))</title></line>\n"
            case let .layout(generation):
                let text = "layout changed" + (generation.map { " (generation \($0))" } ?? "") + " \(at): questions in flight are asked again"
                out += "<path class=\"page-event layout\" d=\"M\(n(x - 5)) \(n(mid + 9)) L\(n(x + 5)) \(n(mid + 9)) L\(n(x)) \(n(mid - 1)) Z\" fill=\"\(Self.layoutColour)\"><title>\(escape(text))</title></path>\n"
            case .newDocument:
                let text = "new page document \(at): questions in flight got the fallback, the region snapshot was dropped"
                out += "<path class=\"page-event new-document\" d=\"M\(n(x - 5)) \(n(mid - 1)) L\(n(x + 5)) \(n(mid - 1)) L\(n(x)) \(n(mid + 9)) Z\" fill=\"\(Self.layoutColour)\"><title>\(escape(text))</title></path>\n"
            case .viewResized:
                let text = "the view was resized \(at): the page reflows, the region snapshot was dropped until it pushes again"
                out += "<path class=\"page-event resize\" d=\"M\(n(x - 5)) \(n(mid + 4)) L\(n(x)) \(n(mid - 1)) L\(n(x + 5)) \(n(mid + 4)) L\(n(x)) \(n(mid + 9)) Z\" fill=\"\(Self.layoutColour)\"><title>\(escape(text))</title></path>\n"
            case let .answerNotTaken(outcome, token):
                let word = DecisionTimeline.describe(outcome)
                let colour = outcome == .staleGeneration ? Self.retractColour : (outcome == .late ? Self.pageColour : Self.cancelColour)
                var text = "\(word) answer \(at)"
                if let token { text += " (round trip \(short(token)))" }
                switch outcome {
                case .staleGeneration: text += ": computed for another layout, the question was sent again"
                case .late: text += ": its round trip had already timed out or been decided"
                case .duplicate: text += ": its round trip was already answered"
                case .unknownQuery: text += ": no round trip has that id"
                case let .oldDocument(document): text += ": from page document \(document), which was replaced"
                default: break
                }
                out += "<circle class=\"page-event answer-\(word)\" cx=\"\(n(x))\" cy=\"\(n(mid + 4))\" r=\"3.5\" fill=\"\(colour)\"><title>\(escape(text))</title></circle>\n"
            case let .refused(reason):
                out += cross(x: x, y: mid + 4, colour: Self.retractColour, kind: "page-event refused", title: "message refused \(at): \(reason)")
            }
        }
        return out + "</g>\n"
    }

    // MARK: - A touch

    private func lane(_ touch: DecisionTimeline.Touch, _ axis: TimeAxis, top: Double, width: Double) -> String {
        let verdict = touch.finalDecision.map { "\($0.verdict)" } ?? "undecided"
        var out = "<g class=\"lane\" data-touch=\"\(touch.platformID.rawValue)\" data-engine-touch=\"\(touch.id.rawValue)\" data-verdict=\"\(verdict)\" data-reason=\"\(touch.finalDecision.map { Self.reasonWord($0.reason) } ?? "none")\">\n"
        out += "<title>\(escape(laneTitle(touch)))</title>\n"
        out += "<rect class=\"row\" x=\"0\" y=\"\(n(top))\" width=\"\(n(width))\" height=\"\(n(Self.laneHeight))\" fill=\"#ffffff\" fill-opacity=\"0\"/>\n"
        out += "<line x1=\"0\" y1=\"\(n(top + Self.laneHeight))\" x2=\"\(n(width))\" y2=\"\(n(top + Self.laneHeight))\" stroke=\"#f1f3f5\"/>\n"
        out += "<text x=\"10\" y=\"\(n(top + 13))\" fill=\"#212529\">touch \(touch.platformID.rawValue) · \(touch.tool)</text>\n"
        out += "<text x=\"10\" y=\"\(n(top + 24))\" font-size=\"9\" fill=\"#868e96\">engine #\(touch.id.rawValue) · \(touch.samples) sample\(touch.samples == 1 ? "" : "s")</text>\n"
        let mid = top + Self.laneHeight / 2
        let down = axis.x(touch.down)
        out += "<line x1=\"\(n(down))\" y1=\"\(n(mid))\" x2=\"\(n(max(axis.x(touch.end), down + 1)))\" y2=\"\(n(mid))\" stroke=\"#adb5bd\" stroke-width=\"1\"/>\n"
        // Queued: from touch-down until the decision (or the cancellation that ended the wait).
        if let until = touch.decision?.time ?? touch.cancelled?.time ?? touch.finished?.time, until > touch.down || touch.decision != nil {
            let text = touch.decision == nil
                ? "queued from touch-down \(seconds(touch.down)) until \(seconds(until)) (\(ms(until - touch.down))), never decided"
                : "queued \(ms(until - touch.down)): from touch-down \(seconds(touch.down)) until the decision at \(seconds(until))"
            out += rect(kind: "queued", from: down, to: axis.x(until), y: top + 5, height: 18, fill: Self.queueColour, opacity: 0.35, title: text)
        }
        for question in touch.questions { out += self.question(question, touch, axis, top: top) }
        if touch.omittedQuestions > 0 {
            out += "<text x=\"\(n(axis.x(touch.end) + 4))\" y=\"\(n(top + 9))\" font-size=\"9\" fill=\"\(Self.tripColour)\">+\(touch.omittedQuestions) questions</text>\n"
        }
        if let span = touch.speculative {
            var text = "speculative ink: \(samples(span.samples)) drawn from \(seconds(span.first)) to \(seconds(span.last)) before the decision"
            if let retracted = touch.retracted { text += "; retracted at \(seconds(retracted))" } else if touch.decision?.verdict == .ink {
                text += "; confirmed by the decision"
            }
            out += rect(kind: "speculative", from: axis.x(span.first), to: axis.x(touch.retracted ?? touch.decision?.time ?? span.last),
                        y: mid - 5, height: 10, fill: Self.inkColour, opacity: 0.3, title: text, dash: true)
        }
        if let span = touch.ink {
            let first = touch.speculative?.first ?? span.first
            var text = "ink: \(samples(span.samples)) from \(seconds(span.first)) to \(seconds(span.last)); first ink \(ms(first - touch.down)) after touch-down"
            if touch.speculative == nil, let retracted = touch.retracted { text += "; taken back at \(seconds(retracted))" }
            out += rect(kind: "ink", from: axis.x(span.first), to: axis.x(span.last), y: mid - 5, height: 10, fill: Self.inkColour, opacity: 1, title: text)
        }
        if let span = touch.released {
            let text = "to the page: \(samples(span.samples)) from \(seconds(span.first)) to \(seconds(span.last)), with their original timestamps"
            out += rect(kind: "released", from: axis.x(span.first), to: axis.x(span.last), y: mid - 5, height: 10, fill: Self.pageColour, opacity: 1, title: text)
        }
        out += "<circle class=\"touch-down\" cx=\"\(n(down))\" cy=\"\(n(mid))\" r=\"3\" fill=\"#495057\"><title>\(escape("touch-down at \(seconds(touch.down))"))</title></circle>\n"
        if let lift = touch.lift {
            out += "<circle class=\"lift\" cx=\"\(n(axis.x(lift)))\" cy=\"\(n(mid))\" r=\"3\" fill=\"#ffffff\" stroke=\"#495057\"><title>\(escape("lift at \(seconds(lift)), \(ms(lift - touch.down)) after touch-down"))</title></circle>\n"
        }
        for (k, decision) in touch.decisions.enumerated() {
            let x = axis.x(decision.time)
            let colour = decision.verdict == .ink ? Self.inkColour : Self.pageColour
            let text = (k == 0 ? "decided " : "changed to ") + "\(decision.verdict == .ink ? "ink" : "page") (\(Self.reasonSentence(decision.reason))) at \(seconds(decision.time)), \(ms(decision.time - touch.down)) after touch-down"
            out += "<g class=\"verdict\" data-verdict=\"\(decision.verdict)\" data-reason=\"\(Self.reasonWord(decision.reason))\"><title>\(escape(text))</title>"
            out += "<line x1=\"\(n(x))\" y1=\"\(n(top + 2))\" x2=\"\(n(x))\" y2=\"\(n(top + Self.laneHeight - 2))\" stroke=\"\(colour)\" stroke-width=\"2\"/>"
            out += "<text x=\"\(n(x + 4))\" y=\"\(n(top + (k == 0 ? 10 : 26)))\" font-size=\"9\" fill=\"\(colour)\">\(decision.verdict == .ink ? "ink" : "page") · \(Self.reasonWord(decision.reason))</text></g>\n"
        }
        if let retracted = touch.retracted {
            let why = touch.decisions.count > 1 ? "a gesture took the touch to the page" : "the page claimed the touch"
            out += cross(x: axis.x(retracted), y: mid, colour: Self.retractColour, kind: "retraction",
                         title: "ink retracted at \(seconds(retracted)): \(why); its samples went to the page")
        }
        if let cancelled = touch.cancelled {
            let shown: String
            switch cancelled.previously {
            case .undecided: shown = "nothing had been shown"
            case .ink: shown = "its stroke was discarded"
            case .page: shown = "the page was sent a touch-cancel"
            case .nativePage: shown = "the platform cancelled it in the page"
            case .palm: shown = "it was held as a palm: nothing was shown, the page got nothing"
            }
            out += cross(x: axis.x(cancelled.time), y: mid, colour: Self.cancelColour, kind: "cancel",
                         title: "cancelled by the platform at \(seconds(cancelled.time)): \(shown)")
        }
        for note in touch.notes {
            out += "<circle class=\"note\" cx=\"\(n(axis.x(note.time)))\" cy=\"\(n(top + Self.laneHeight - 4))\" r=\"2.5\" fill=\"\(Self.retractColour)\"><title>\(escape("\(note.text) at \(seconds(note.time))"))</title></circle>\n"
        }
        return out + "</g>\n"
    }

    private func question(_ question: DecisionTimeline.Question, _ touch: DecisionTimeline.Touch, _ axis: TimeAxis, top: Double) -> String {
        if let sent = question.sent {
            let end = question.answered ?? question.closed ?? touch.end
            var text = "round trip"
            if let token = question.token { text += " \(short(token))" }
            if let point = question.pagePoint { text += " for page point (\(SVGNumber.format(point.x, decimals: 1)), \(SVGNumber.format(point.y, decimals: 1)))" }
            text += ": sent at \(seconds(sent))"
            if let answered = question.answered {
                text += ", answered at \(seconds(answered)) (\(ms(answered - sent)))"
                if let queries = question.answeredQueries, queries > 1 { text += ", one answer for \(queries) touches (a shared round trip)" }
            } else if let closed = question.closed {
                text += "; no answer before the touch was decided (\(seconds(closed)), \(ms(closed - sent)) after sending)"
            } else {
                text += "; never answered"
            }
            let colour = question.answered != nil ? Self.tripColour : Self.closedTripColour
            return rect(kind: question.answered != nil ? "round-trip" : "round-trip-unanswered", from: axis.x(sent), to: axis.x(end),
                        y: top + 2, height: 4, fill: colour, opacity: 1, title: text)
        }
        if touch.decision?.reason == .regionCache, let time = touch.decision?.time {
            let x = axis.x(time), y = top + 4
            return "<path class=\"cache-hit\" d=\"M\(n(x)) \(n(y - 4)) L\(n(x + 4)) \(n(y)) L\(n(x)) \(n(y + 4)) L\(n(x - 4)) \(n(y)) Z\" fill=\"\(Self.tripColour)\"><title>\(escape("the region cache answered at \(seconds(time)), \(ms(time - touch.down)) after touch-down: no round trip"))</title></path>\n"
        }
        if let answered = question.answered {
            return rect(kind: "round-trip", from: axis.x(question.asked), to: axis.x(answered), y: top + 2, height: 4, fill: Self.tripColour, opacity: 1,
                        title: "asked at \(seconds(question.asked)), joined a round trip already in flight; answered at \(seconds(answered)) (\(ms(answered - question.asked)))")
        }
        return ""
    }

    private func laneTitle(_ touch: DecisionTimeline.Touch) -> String {
        var text = "touch \(touch.platformID.rawValue) (engine #\(touch.id.rawValue), \(touch.tool)): \(samples(touch.samples)), down at \(seconds(touch.down))"
        for (k, decision) in touch.decisions.enumerated() {
            text += (k == 0 ? ", decided " : ", then ") + "\(decision.verdict) (\(Self.reasonWord(decision.reason)))"
        }
        if let finished = touch.finished {
            let l = finished.ledger
            text += "; inked \(l.inked), to the page \(l.released), cancelled \(l.cancelled)"
        }
        if touch.omittedNotes > 0 { text += "; \(touch.omittedNotes) more notes" }
        return text
    }

    // MARK: - Legend

    private func legend(top: Double) -> String {
        let y = top + 10
        var out = "<g class=\"legend\" fill=\"#343a40\">\n"
        var x = 10.0
        func item(_ symbol: String, _ label: String, width: Double) {
            out += symbol + "<text x=\"\(n(x + 26))\" y=\"\(n(y + 4))\">\(escape(label))</text>\n"
            x += width
        }
        item("<rect x=\"\(n(x))\" y=\"\(n(y - 5))\" width=\"20\" height=\"12\" fill=\"\(Self.queueColour)\" fill-opacity=\"0.35\"/>", "queued", width: 80)
        item("<rect x=\"\(n(x))\" y=\"\(n(y - 1))\" width=\"20\" height=\"4\" fill=\"\(Self.tripColour)\"/>", "round trip", width: 100)
        item("<rect x=\"\(n(x))\" y=\"\(n(y - 1))\" width=\"20\" height=\"4\" fill=\"\(Self.closedTripColour)\"/>", "unanswered", width: 104)
        item("<path d=\"M\(n(x + 10)) \(n(y - 3)) L\(n(x + 14)) \(n(y + 1)) L\(n(x + 10)) \(n(y + 5)) L\(n(x + 6)) \(n(y + 1)) Z\" fill=\"\(Self.tripColour)\"/>", "cache hit", width: 92)
        item("<rect x=\"\(n(x))\" y=\"\(n(y - 4))\" width=\"20\" height=\"10\" fill=\"\(Self.inkColour)\"/>", "ink", width: 60)
        item("<rect x=\"\(n(x))\" y=\"\(n(y - 4))\" width=\"20\" height=\"10\" fill=\"\(Self.inkColour)\" fill-opacity=\"0.3\" stroke=\"\(Self.inkColour)\" stroke-dasharray=\"2 2\"/>", "speculative ink", width: 130)
        item("<rect x=\"\(n(x))\" y=\"\(n(y - 4))\" width=\"20\" height=\"10\" fill=\"\(Self.pageColour)\"/>", "to the page", width: 106)
        // The small dot a lane draws under a touch for each of its notes (`touch.notes`).
        item("<circle cx=\"\(n(x + 10))\" cy=\"\(n(y + 1))\" r=\"2.5\" fill=\"\(Self.retractColour)\"/>", "note: a late or duplicate answer, a refused event", width: 320)
        out += "</g>\n<g class=\"legend\" fill=\"#343a40\">\n"
        let y2 = y + 24
        x = 10
        func item2(_ symbol: String, _ label: String, width: Double) {
            out += symbol + "<text x=\"\(n(x + 26))\" y=\"\(n(y2 + 4))\">\(escape(label))</text>\n"
            x += width
        }
        item2("<line x1=\"\(n(x + 10))\" y1=\"\(n(y2 - 7))\" x2=\"\(n(x + 10))\" y2=\"\(n(y2 + 7))\" stroke=\"\(Self.inkColour)\" stroke-width=\"2\"/>", "verdict · reason", width: 136)
        item2("<circle cx=\"\(n(x + 6))\" cy=\"\(n(y2))\" r=\"3\" fill=\"#495057\"/><circle cx=\"\(n(x + 16))\" cy=\"\(n(y2))\" r=\"3\" fill=\"#ffffff\" stroke=\"#495057\"/>", "down, lift", width: 96)
        item2(cross(x: x + 10, y: y2, colour: Self.retractColour, kind: "legend-mark", title: "retraction"), "retracted", width: 92)
        item2(cross(x: x + 10, y: y2, colour: Self.cancelColour, kind: "legend-mark", title: "cancellation"), "cancelled", width: 92)
        item2("<line x1=\"\(n(x + 10))\" y1=\"\(n(y2 - 6))\" x2=\"\(n(x + 10))\" y2=\"\(n(y2 + 6))\" stroke=\"\(Self.tripColour)\" stroke-width=\"2\"/>", "region snapshot (g: generation)", width: 214)
        item2("<path d=\"M\(n(x + 5)) \(n(y2 + 5)) L\(n(x + 15)) \(n(y2 + 5)) L\(n(x + 10)) \(n(y2 - 5)) Z\" fill=\"\(Self.layoutColour)\"/>", "layout change", width: 116)
        item2("<circle cx=\"\(n(x + 10))\" cy=\"\(n(y2))\" r=\"3.5\" fill=\"\(Self.retractColour)\"/>", "stale answer (late: orange, duplicate or unknown: grey)", width: 300)
        return out + "</g>\n"
    }

    // MARK: - Pieces

    private func rect(kind: String, from x0: Double, to x1: Double, y: Double, height: Double, fill: String, opacity: Double, title: String,
                      dash: Bool = false) -> String {
        let width = max(x1 - x0, 2)
        let stroke = dash ? " stroke=\"\(fill)\" stroke-dasharray=\"2 2\"" : ""
        return "<rect class=\"\(kind)\" x=\"\(n(x0))\" y=\"\(n(y))\" width=\"\(n(width))\" height=\"\(n(height))\" fill=\"\(fill)\" fill-opacity=\"\(n(opacity))\"\(stroke)><title>\(escape(title))</title></rect>\n"
    }

    private func cross(x: Double, y: Double, colour: String, kind: String, title: String) -> String {
        "<path class=\"\(kind)\" d=\"M\(n(x - 4)) \(n(y - 4)) L\(n(x + 4)) \(n(y + 4)) M\(n(x - 4)) \(n(y + 4)) L\(n(x + 4)) \(n(y - 4))\" stroke=\"\(colour)\" stroke-width=\"2\"><title>\(escape(title))</title></path>\n"
    }

    static func reasonWord(_ reason: DecisionReason) -> String {
        switch reason {
        case .answered: return "answered"
        case .regionCache: return "cache"
        case .unreachable: return "unreachable"
        case .deadline: return "deadline"
        case .multiTouchGesture: return "gesture"
        case .toolPolicy: return "tool"
        case .queueBound: return "queue bound"
        case .touchBound: return "touch bound"
        case .flushed: return "flushed"
        case .routedAtTouchDown: return "touch-down"
        case .newDocument: return "new document"
        }
    }

    static func reasonSentence(_ reason: DecisionReason) -> String {
        switch reason {
        case .answered: return "the page answered"
        case .regionCache: return "a fresh region snapshot answered"
        case .unreachable: return "the page could not be asked; the fallback decided"
        case .deadline: return "no answer before the deadline; the fallback decided"
        case .multiTouchGesture: return "a second touch made a gesture"
        case .toolPolicy: return "the tool decided (pencil only)"
        case .queueBound: return "the queue bound was reached; the bound fallback decided"
        case .touchBound: return "too many touches at once; the bound fallback decided"
        case .flushed: return "the session ended first"
        case .routedAtTouchDown: return "routed to the page natively at touch-down"
        case .newDocument: return "the page's document was replaced while it waited; the fallback decided"
        }
    }

    private func n(_ value: Double) -> String { SVGNumber.format(value, decimals: 2) }
    private func seconds(_ time: Double) -> String { SVGNumber.format(time, decimals: 4) + " s" }
    private func ms(_ duration: Double) -> String { SVGNumber.format(duration * 1000, decimals: 1) + " ms" }
    private func samples(_ count: Int) -> String { "\(count) sample\(count == 1 ? "" : "s")" }
    private func short(_ token: QueryToken) -> String { String(token.description.suffix(8)) }
    private func escape(_ text: String) -> String { XMLText.escaped(text) }
}

/// The timeline's time axis: the stretches when something happens, each at one scale, with
/// the quiet time between them cut out.
struct TimeAxis {
    /// Stretches of time drawn, in order, and where each starts on the axis (from `left`).
    private(set) var stretches: [(start: Double, end: Double, x: Double)] = []
    /// Pixels per second.
    let scale: Double
    let left: Double
    /// The axis's width in pixels.
    private(set) var width = 0.0

    /// Quiet time longer than this is cut out (seconds).
    static let cutAfter = 0.15
    /// Time kept around each event (seconds).
    static let pad = 0.01
    /// The width of a cut, pixels (less when there are very many cuts).
    static let cutWidth = 44.0
    /// The widest the axis gets, pixels, whatever the session: a session of days, or of
    /// thousands of pauses, is drawn smaller rather than without bound.
    static let maxWidth = 30_000.0
    /// The width of each cut in this axis.
    let cut: Double
    /// The width the axis aims for, and the scale's bounds (pixels per second).
    static let targetWidth = 1_000.0
    static let scaleRange = 200.0...3_000.0

    init(timeline: DecisionTimeline, left: Double) {
        self.left = left
        var spans: [(Double, Double)] = timeline.touches.map { ($0.down - Self.pad, $0.end + Self.pad) }
        spans += timeline.page.map { ($0.time - Self.pad, $0.time + Self.pad) }
        spans.sort { $0.0 < $1.0 || ($0.0 == $1.0 && $0.1 < $1.1) }
        var merged: [(Double, Double)] = []
        for span in spans {
            if let last = merged.last, span.0 - last.1 <= Self.cutAfter {
                merged[merged.count - 1].1 = max(last.1, span.1)
            } else {
                merged.append(span)
            }
        }
        if merged.isEmpty { merged = [(0, 0.1)] }
        let active = merged.reduce(0) { $0 + ($1.1 - $1.0) }
        let cuts = Double(merged.count - 1)
        cut = cuts == 0 ? Self.cutWidth : min(Self.cutWidth, Self.maxWidth / 2 / cuts)
        let available = Self.targetWidth - cuts * cut
        var scale = min(max(available / max(active, 1e-6), Self.scaleRange.lowerBound), Self.scaleRange.upperBound)
        scale = min(scale, max(Self.maxWidth - cuts * cut, Self.maxWidth / 2) / max(active, 1e-6))
        self.scale = scale.isFinite && scale > 0 ? scale : Self.scaleRange.lowerBound
        var x = 0.0
        for (start, end) in merged {
            stretches.append((start, end, x))
            x += (end - start) * self.scale + cut
        }
        width = x - cut
    }

    /// Where `time` is drawn (clamped into the nearest stretch).
    func x(_ time: Double) -> Double {
        var low = 0, high = stretches.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if stretches[mid].start <= time { low = mid } else { high = mid - 1 }
        }
        let s = stretches[low]
        return left + s.x + (min(max(time, s.start), s.end) - s.start) * scale
    }

    /// Ticks, grid lines and the cuts.
    func svg(top: Double, bottom: Double) -> String {
        var steps = [0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500]
        while let last = steps.last, last * scale < 64, last < 1e300 { steps.append(last * 10) }
        let step = steps.first { $0 * scale >= 64 } ?? steps[steps.count - 1]
        let decimals = step >= 1 ? 0 : (step >= 0.1 ? 1 : (step >= 0.01 ? 2 : 3))
        var out = "<g class=\"axis\" font-size=\"9\" fill=\"#868e96\">\n"
        for (k, s) in stretches.enumerated() {
            let first = left + s.x, last = left + s.x + (s.end - s.start) * scale
            // Ticks by index (a running sum would stall where a step is below the times'
            // precision); at most one per 64 px.
            let low = (s.start / step).rounded(.up), high = (s.end / step).rounded(.down)
            let count = high - low
            for index in stride(from: 0.0, through: count.isFinite && count >= 0 && count <= (last - first) / 64 + 1 ? count : -1, by: 1) {
                let tick = (low + index) * step
                let x = self.x(tick)
                // No label where a cut's label goes.
                guard (k == 0 || x - first >= 28) && (k + 1 == stretches.count || last - x >= 28) else { continue }
                out += "<line x1=\"\(f(x))\" y1=\"\(f(top + 14))\" x2=\"\(f(x))\" y2=\"\(f(bottom))\" stroke=\"#e9ecef\"/>"
                out += "<text x=\"\(f(x))\" y=\"\(f(top + 11))\" text-anchor=\"middle\">\(SVGNumber.format(tick, decimals: decimals)) s</text>\n"
            }
            if k + 1 < stretches.count {
                let next = stretches[k + 1]
                let x0 = left + s.x + (s.end - s.start) * scale, x1 = left + next.x
                guard x1 - x0 >= 16 else { continue }  // too narrow to label: the grey gap says it
                let skipped = next.start - s.end
                out += "<g class=\"cut\"><title>\(XMLText.escaped("nothing happened for \(SVGNumber.format(skipped, decimals: 3)) s (\(SVGNumber.format(s.end, decimals: 3)) to \(SVGNumber.format(next.start, decimals: 3)) s): cut out"))</title>"
                out += "<rect x=\"\(f(x0 + 6))\" y=\"\(f(top + 14))\" width=\"\(f(x1 - x0 - 12))\" height=\"\(f(bottom - top - 14))\" fill=\"#f1f3f5\"/>"
                out += "<text x=\"\(f((x0 + x1) / 2))\" y=\"\(f(top + 11))\" text-anchor=\"middle\" fill=\"#495057\">+\(SVGNumber.format(skipped, decimals: skipped >= 10 ? 0 : 2)) s</text></g>\n"
            }
        }
        return out + "</g>\n"
    }

    private func f(_ value: Double) -> String { SVGNumber.format(value, decimals: 2) }
}
