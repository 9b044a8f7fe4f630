import Foundation
import Testing
@_spi(Tooling) import InkCore
@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkRecording

@Suite("Session log version 2: live recordings")
struct RecordingFormatTests {
    static let header = #"{"format":"scratchpad-ink-session","version":2,"canvas":{"width":10,"height":10},"recorder":{"engine":"1.0","configuration":{"decision_timeout":0.1,"region_cache":false,"limits":{"active_touches":8}},"page_generation":3,"element_ids":false}}"#

    @Test("the recorder block names the configuration (fields left out keep their defaults), the page generation and the element-id choice")
    func header() throws {
        let log = try SessionLog.parse(Self.header + "\n").get()
        // A header that names no palm rule was written without one (engine 1.0): none.
        var expected = InkEngineConfiguration(decisionTimeout: 0.1, useRegionCache: false, palmHold: 0, palmRadius: nil)
        expected.limits.activeTouches = 8
        #expect(log.header.engineConfiguration == expected)
        #expect(log.header.pageGeneration == 3 && !log.header.elementIDs && log.header.engineVersion == "1.0" && log.header.isRecording)
        // Written back, the header reads back the same.
        #expect(try SessionLog.parse(log.jsonLines()).get().header == log.header)
    }

    @Test("a recorder block in a version-1 header, or a bad configuration, is refused with the field named")
    func refused() {
        let v1 = Self.header.replacingOccurrences(of: #""version":2"#, with: #""version":1"#)
        #expect(SessionLog.parse(v1).failure?.message.contains("recorder") == true)
        let bad = Self.header.replacingOccurrences(of: #""decision_timeout":0.1"#, with: #""decision_timeout":-1"#)
        #expect(SessionLog.parse(bad).failure?.message.contains("decision_timeout") == true)
    }

    @Test("every recorded kind reads back as written, and a sample stamped after its line's time is accepted in a recording only")
    func recordedLines() throws {
        let lines = [
            Self.header,
            #"{"kind":"touch","t":1,"touch":4,"phase":"began","tool":"pencil","native_page":true,"samples":[{"t":1.002,"x":1,"y":2}]}"#,
            #"{"kind":"page_answer","t":1.1,"round_trip":null,"verdict":"page","generation":3}"#,
            #"{"kind":"page_answer","t":1.1,"round_trip":0,"verdict":"ink","generation":3}"#,
            #"{"kind":"layout","t":1.2,"page_transform":{"scale":2,"offset_x":0,"offset_y":5},"generation":4}"#,
            #"{"kind":"send_failed","t":1.3,"round_trip":1}"#,
            #"{"kind":"decided","t":1.3,"touch":4,"engine":1,"owner":"page","reason":"routedAtTouchDown","at":1}"#,
            #"{"kind":"finished","t":1.4,"touch":4,"engine":1,"received":1,"inked":0,"released":1,"cancelled":0,"ink":"cbf29ce484222325","at":1.4}"#,
            #"{"kind":"dropped","t":1.5,"lines":3,"samples":2,"from":1.45,"to":1.5}"#,
            #"{"kind":"finish","t":1.6}"#,
        ]
        let log = try SessionLog.parse(lines.joined(separator: "\n")).get()
        #expect(log.events.count == 9)
        guard case let .recorded(.nativePageTouch(touch), _) = log.events[0] else {
            Issue.record("not a native page touch: \(log.events[0])")
            return
        }
        #expect(touch.samples.first?.timestamp == 1.002)
        #expect(log.events[1] == .recorded(.pageAnswer(roundTrip: nil, verdict: .page, generation: 3), time: 1.1))
        #expect(log.events[8] == .recorded(.finish, time: 1.6))
        let again = try SessionLog.parse(log.jsonLines()).get()
        #expect(again.events == log.events)
        // In a version-1 log the sample after its event's time is refused, as before.
        let plain = #"{"format":"scratchpad-ink-session","version":1,"canvas":{"width":10,"height":10}}"# + "\n"
            + #"{"kind":"touch","t":1,"touch":4,"phase":"began","samples":[{"t":1.002,"x":1,"y":2}]}"#
        #expect(SessionLog.parse(plain).failure != nil)
    }
}
