@_spi(Tooling) import InkCore
@_spi(Tooling) import HitTestBridge
extension SessionLog {
    /// The log as JSON Lines text: the header line, then one line per event, each ending
    /// with a newline; a chained recording (format version 3) with each line's chain.
    /// Reading the text back gives an equal log (apart from ``eventLines``).
    public func jsonLines() -> String {
        var out = ""
        SessionLog.headerObject(header).write(to: &out)
        out += "\n"
        // A chained recording (version 3) is written chained, as its recorder wrote it.
        var chain: LineChain?
        if header.isRecording, header.version >= SessionLogLines.recordingVersion {
            chain = LineChain()
            chain!.take(line: out.utf8.dropLast())
        }
        var tools = HeldTools()
        var line = ""
        for event in events {
            line.removeAll(keepingCapacity: true)
            SessionLog.writeEvent(event, tools: &tools, to: &line)
            chain?.seal(&line)
            out += line
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
            version: recorder == nil ? header.version : max(header.version, SessionLogLines.firstRecordingVersion),
            canvasWidth: header.canvas.width, canvasHeight: header.canvas.height, transform: header.pageTransform,
            exercise: header.exercise, device: header.device, source: header.source,
            synthesizedTiming: header.synthesizedTiming.map { ($0.sampleRate, $0.strokeGap) }, recorder: recorder)
    }

    /// Writes one event's line (without its newline) through HitTestBridge's one encoder of
    /// session-log lines. `tools` remembers each touch's tool so that only a `began` event
    /// (or a change) spells it out.
    static func writeEvent(_ event: SessionEvent, tools: inout HeldTools, to out: inout String) {
        let value: JSONValue
        switch event {
        case let .touch(touch, time):
            SessionLogLines.writeTouch(touch, time: time, tools: &tools, to: &out)
            return
        case let .update(update, time): value = SessionLogLines.update(update, time: time)
        case let .answer(touch, verdict, time): value = SessionLogLines.answer(touch: touch, verdict: verdict, time: time)
        case let .regions(snapshot, time): value = SessionLogLines.regions(snapshot, time: time)
        case let .recorded(recorded, time):
            switch recorded {
            case let .nativePageTouch(touch):
                SessionLogLines.writeTouch(touch, time: time, nativePage: true, tools: &tools, to: &out)
                return
            case let .pageAnswer(roundTrip, verdict, generation, document):
                value = SessionLogLines.pageAnswer(roundTrip: roundTrip, verdict: verdict, generation: generation, document: document,
                                                   time: time)
            case let .frontEnd(view): value = view.line(time: time)
            case let .sendFailed(roundTrip): value = SessionLogLines.sendFailed(roundTrip: roundTrip, time: time)
            case .finish: value = SessionLogLines.finish(time: time)
            case let .decided(touch, owner, reason, at):
                value = SessionLogLines.decided(touch: touch, owner: owner, reason: reason, at: at, time: time)
            case let .finished(touch, ledger, ink, at):
                value = SessionLogLines.finished(touch: touch, ledger: ledger, ink: ink, at: at, time: time)
            case let .dropped(lines, samples, from, to, tooLong):
                value = SessionLogLines.dropped(lines: lines, samples: samples, from: from, to: to, tooLong: tooLong, time: time)
            case let .end(lines, samples, touches, ledger):
                value = SessionLogLines.end(lines: lines, samples: samples, touches: touches, ledger: ledger, time: time)
            }
        }
        value.write(to: &out)
    }

    /// A sample as the session log writes it (the host protocol uses the same form).
    package static func sampleObject(_ sample: TouchSample) -> JSONValue { SessionLogLines.sample(sample) }
}
