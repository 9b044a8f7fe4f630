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
        var object = JSONObject()
        object.append("format", .string(SessionHeader.formatName))
        object.append("version", .number(Double(header.version)))
        object.append("canvas", .object(JSONObject([("width", .number(header.canvas.width)),
                                                    ("height", .number(header.canvas.height))])))
        if let t = header.pageTransform {
            object.append("page_transform", .object(JSONObject([
                ("scale", .number(t.scale)), ("offset_x", .number(t.offsetX)), ("offset_y", .number(t.offsetY)),
            ])))
        }
        object.append("exercise", ifPresent: header.exercise.map(JSONValue.string))
        object.append("device", ifPresent: header.device.map(JSONValue.string))
        object.append("source", ifPresent: header.source.map(JSONValue.string))
        if let timing = header.synthesizedTiming {
            object.append("synthesized_timing", .object(JSONObject([
                ("sample_rate", .number(timing.sampleRate)), ("stroke_gap", .number(timing.strokeGap)),
            ])))
        }
        return .object(object)
    }

    /// One event as a JSON object. `tools` remembers each touch's tool so that only a
    /// `began` event (or a change) spells it out; a touch it no longer remembers (beyond
    /// ``HeldTools/limit`` touches) gets its tool spelled out again.
    static func eventObject(_ event: SessionEvent, tools: inout HeldTools) -> JSONValue {
        var object = JSONObject()
        switch event {
        case let .touch(touch, time):
            object.append("kind", .string("touch"))
            object.append("t", .number(time))
            object.append("touch", .number(Double(touch.touch.rawValue)))
            object.append("phase", .string(touch.phase.rawValue))
            let known = tools.tool(of: touch.touch)
            let tool = touch.samples.first?.tool ?? known ?? .finger
            if touch.phase == .began || tool != (known ?? .finger) || (known == nil && tools.hasForgotten) {
                object.append("tool", .string(tool.rawValue))
            }
            tools.remember(touch.touch, tool: tool)
            object.append("samples", .array(touch.samples.map(sampleObject)))
            if !touch.predicted.isEmpty {
                object.append("predicted", .array(touch.predicted.map(sampleObject)))
            }
        case let .update(update, time):
            object.append("kind", .string("update"))
            object.append("t", .number(time))
            object.append("touch", .number(Double(update.touch.rawValue)))
            object.append("update_index", .number(Double(update.updateIndex)))
            object.append("force", ifPresent: update.force.map(JSONValue.number))
            object.append("altitude", ifPresent: update.altitude.map(JSONValue.number))
            object.append("azimuth", ifPresent: update.azimuth.map(JSONValue.number))
            if !update.isFinal { object.append("final", .bool(false)) }
        case let .answer(touch, verdict, time):
            object.append("kind", .string("answer"))
            object.append("t", .number(time))
            object.append("touch", .number(Double(touch.rawValue)))
            object.append("verdict", .string(verdict.rawValue))
        case let .regions(snapshot, time):
            object.append("kind", .string("regions"))
            object.append("t", .number(time))
            object.append("generation", .number(Double(snapshot.generation)))
            object.append("max_age", ifPresent: snapshot.maxAge.map(JSONValue.number))
            object.append("regions", .array(snapshot.regions.map { region in
                var r = JSONObject([("x", .number(region.x)), ("y", .number(region.y)),
                                    ("width", .number(region.width)), ("height", .number(region.height))])
                r.append("element", ifPresent: region.element.map(JSONValue.string))
                return .object(r)
            }))
        }
        return .object(object)
    }

    /// A sample as the session log writes it (the host protocol uses the same form).
    package static func sampleObject(_ sample: TouchSample) -> JSONValue {
        var object = JSONObject([("t", .number(sample.timestamp)), ("x", .number(sample.x)), ("y", .number(sample.y))])
        object.append("force", ifPresent: sample.force.map(JSONValue.number))
        object.append("altitude", ifPresent: sample.altitude.map(JSONValue.number))
        object.append("azimuth", ifPresent: sample.azimuth.map(JSONValue.number))
        object.append("update_index", ifPresent: sample.estimationUpdateIndex.map { .number(Double($0)) })
        return .object(object)
    }
}
