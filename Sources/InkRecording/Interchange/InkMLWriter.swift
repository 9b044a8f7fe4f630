@_spi(Tooling) import InkCore
@_spi(Tooling) import HitTestBridge
/// Writes strokes as a W3C InkML document.
///
/// Each stroke is one `<trace>` with explicit values (no difference encoding, so any
/// reader can read it). Channels: X and Y in canvas points (`units="px"`: CSS pixels),
/// T in milliseconds on the session's clock (in seconds when a time in milliseconds would
/// overflow a Double), and, in traces whose every sample has them,
/// F (0...1), OE (altitude) and OA (azimuth) in radians. One `<context>` is declared per
/// combination of channels used. Numbers are written in their shortest exact decimal form,
/// so reading the document back gives the same positions and times (up to the last bit of
/// the ms-to-seconds division).
public enum InkMLWriter {
    /// The InkML text of `strokes`.
    ///
    /// - Parameters:
    ///   - strokes: The strokes, each a non-empty array of samples in time order (empty
    ///     strokes are left out).
    ///   - annotations: Document-level `<annotation type="…">` elements (title, source…).
    public static func document(strokes: [[TouchSample]], annotations: [(type: String, text: String)] = []) -> String {
        struct Channels: Hashable {
            var force: Bool
            var altitude: Bool
            var azimuth: Bool
            var id: String { "ctx-xyt" + (force ? "f" : "") + (altitude ? "-oe" : "") + (azimuth ? "-oa" : "") }
        }
        let kept = strokes.filter { !$0.isEmpty }
        let channels = kept.map { stroke in
            Channels(force: stroke.allSatisfy { $0.force != nil }, altitude: stroke.allSatisfy { $0.altitude != nil },
                     azimuth: stroke.allSatisfy { $0.azimuth != nil })
        }
        var used: [Channels] = []
        for set in channels where !used.contains(set) { used.append(set) }

        // Milliseconds, unless a time in milliseconds would overflow (times beyond 1.8e305 s):
        // then seconds, so every time written is a finite number the reader takes back.
        let inMilliseconds = kept.allSatisfy { $0.allSatisfy { ($0.timestamp * 1000).isFinite } }
        let timeScale = inMilliseconds ? 1000.0 : 1
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<ink xmlns=\"http://www.w3.org/2003/InkML\">\n  <definitions>\n"
        for set in used {
            out += "    <context xml:id=\"\(set.id)\">\n      <traceFormat>\n"
            out += "        <channel name=\"X\" type=\"decimal\" units=\"px\"/>\n"
            out += "        <channel name=\"Y\" type=\"decimal\" units=\"px\"/>\n"
            out += "        <channel name=\"T\" type=\"decimal\" units=\"\(inMilliseconds ? "ms" : "s")\"/>\n"
            if set.force { out += "        <channel name=\"F\" type=\"decimal\" min=\"0\" max=\"1\"/>\n" }
            if set.altitude { out += "        <channel name=\"OE\" type=\"decimal\" units=\"rad\"/>\n" }
            if set.azimuth { out += "        <channel name=\"OA\" type=\"decimal\" units=\"rad\"/>\n" }
            out += "      </traceFormat>\n    </context>\n"
        }
        out += "  </definitions>\n"
        for annotation in annotations {
            out += "  <annotation type=\"\(escape(annotation.type))\">\(escape(annotation.text))</annotation>\n"
        }
        for (stroke, set) in zip(kept, channels) {
            out += "  <trace contextRef=\"#\(set.id)\">"
            for (index, sample) in stroke.enumerated() {
                if index > 0 { out += ", " }
                out += number(sample.x) + " " + number(sample.y) + " " + number(sample.timestamp * timeScale)
                if set.force, let force = sample.force { out += " " + number(force) }
                if set.altitude, let altitude = sample.altitude { out += " " + number(altitude) }
                if set.azimuth, let azimuth = sample.azimuth { out += " " + number(azimuth) }
            }
            out += "</trace>\n"
        }
        out += "</ink>\n"
        return out
    }

    private static func number(_ value: Double) -> String {
        // -0 keeps its sign (issue 40: export wrote it as 0); the trace reader reads it back.
        if value == 0, value.sign == .minus { return "-0" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    private static func escape(_ text: String) -> String { XMLText.escaped(text) }
}
