import InkCore
import HitTestBridge
extension SessionLog {
    /// The log as JSON Lines text: the header line, then one line per event, each ending
    /// with a newline. Reading the text back gives an equal log (apart from ``eventLines``).
    public func jsonLines() -> String {
        var out = ""
        SessionLog.headerObject(header).write(to: &out)
        out += "\n"
        var tools = HeldTools()
        for event in events {
            SessionLog.eventObject(event, tools: &tools).write(to: &out)
            out += "\n"
        }
        return out
    }

    static func headerObject(_ header: SessionHeader) -> JSONValue {
        var recorder: JSONObject?
        if let configuration = header.engineConfiguration {
            var object = JSONObject()
            object.append("engine", ifPresent: header.engineVersion.map(JSONValue.string))
            object.append("configuration", SessionLogLines.configuration(configuration))
            object.append("page_generation", ifPresent: header.pageGeneration.map { .number(Double($0)) })
            object.append("element_ids", .bool(header.elementIDs))
            recorder = object
        }
        return SessionLogLines.header(
            version: recorder == nil ? header.version : max(header.version, SessionLogLines.recordingVersion),
            canvasWidth: header.canvas.width, canvasHeight: header.canvas.height, transform: header.pageTransform,
            exercise: header.exercise, device: header.device, source: header.source,
            synthesizedTiming: header.synthesizedTiming.map { ($0.sampleRate, $0.strokeGap) }, recorder: recorder)
    }

    /// One event as a JSON object, through HitTestBridge's one encoder of session-log lines.
    /// `tools` remembers each touch's tool so that only a `began` event (or a change) spells
    /// it out.
    static func eventObject(_ event: SessionEvent, tools: inout HeldTools) -> JSONValue {
        switch event {
        case let .touch(touch, time): return SessionLogLines.touch(touch, time: time, tools: &tools)
        case let .update(update, time): return SessionLogLines.update(update, time: time)
        case let .answer(touch, verdict, time): return SessionLogLines.answer(touch: touch, verdict: verdict, time: time)
        case let .regions(snapshot, time): return SessionLogLines.regions(snapshot, time: time)
        case let .recorded(recorded, time):
            switch recorded {
            case let .nativePageTouch(touch): return SessionLogLines.touch(touch, time: time, nativePage: true, tools: &tools)
            case let .pageAnswer(roundTrip, verdict, generation):
                return SessionLogLines.pageAnswer(roundTrip: roundTrip, verdict: verdict, generation: generation, time: time)
            case let .layout(transform, generation): return SessionLogLines.layout(transform, generation: generation, time: time)
            case let .sendFailed(roundTrip): return SessionLogLines.sendFailed(roundTrip: roundTrip, time: time)
            case .finish: return SessionLogLines.finish(time: time)
            case let .decided(touch, owner, reason, at):
                return SessionLogLines.decided(touch: touch, owner: owner, reason: reason, at: at, time: time)
            case let .finished(touch, ledger, ink, at):
                return SessionLogLines.finished(touch: touch, ledger: ledger, ink: ink, at: at, time: time)
            case let .dropped(lines, samples, from, to):
                return SessionLogLines.dropped(lines: lines, samples: samples, from: from, to: to, time: time)
            }
        }
    }

    /// A sample as the session log writes it (the host protocol uses the same form).
    package static func sampleObject(_ sample: TouchSample) -> JSONValue { SessionLogLines.sample(sample) }
}
