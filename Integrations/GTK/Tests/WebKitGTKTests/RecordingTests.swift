import CWebKitGTK
import Foundation
@_spi(Tooling) import GTKLogPlayer
@_spi(Tooling) import GTKScratchpad
@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkCore
@_spi(Tooling) import InkRecording
@_spi(Tooling) import SessionReplay
import Testing
@_spi(Tooling) import WebKitGTKOracle

extension WebKitGTK {
    @Suite("The GTK front end records: a live session in the real window, replayed identically by verify", .serialized)
    struct RecordingTests {
        /// Plays the drag-then-3.5 session into a recording window over `page`, the recording
        /// streamed to a file as `scratchpad-gtk --record` streams it (``RecordingFile``), and
        /// returns the window's report and the recording.
        static func record(page: String, configuration: InkEngineConfiguration,
                           extra: ((ScratchpadWindow) -> Void)? = nil) throws -> (ScratchpadReport, String) {
            let log = try fixtureSession("blocks-then-3-5.jsonl")
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gtk-recording-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let path = directory.appendingPathComponent("live.jsonl").path
            let file = try RecordingFile(path: path)
            let report = try GTKThread.shared.run {
                var options = ScratchpadWindow.Options(configuration: configuration)
                options.recorder = SessionRecorder(canvasWidth: Double(options.width), canvasHeight: Double(options.height),
                                                   exercise: "fixtures/\(page)", sink: { file.offer($0) })
                let window = try ScratchpadWindow(options: options)
                try window.show(loading: fixturePage(page))
                var player = LogPlayer()
                _ = player.play(log, into: window)
                extra?(window)
                return window.finish()
            }
            try file.commit()
            return (report, try String(contentsOfFile: path, encoding: .utf8))
        }

        @Test("played into the window and recorded live: the replay decides every touch the same, for the same reason, with the same samples and ink",
              arguments: [
                  ("blocks.html", InkEngineConfiguration(useRegionCache: true, routing: .decideAtTouchDown)),
                  ("blocks.html", InkEngineConfiguration(useRegionCache: false, routing: .decideAtTouchDown)),
                  ("hostile.html", InkEngineConfiguration(useRegionCache: true, routing: .decideAtTouchDown)),
                  ("blocks.html", InkEngineConfiguration(useRegionCache: true, routing: .handOverAfterDecision)),
              ])
        func identical(page: String, configuration: InkEngineConfiguration) throws {
            let (window, text) = try Self.record(page: page, configuration: configuration) { window in
                // And a real press on a block (native at touch-down with a fresh snapshot) and a
                // stroke on the paper, by the platform's pointer.
                window.platformPointer(GDK_BUTTON_PRESS, 700, 600)
                window.platformPointer(GDK_MOTION_NOTIFY, 720, 610)
                window.platformPointer(GDK_BUTTON_RELEASE, 730, 615)
                GTK.spin(timeout: 2) { window.engine.waitingQuestions == 0 }
            }
            #expect(window.isVerified, "\(window.verificationFailures)")
            #expect(window.recordingDroppedLines == 0 && window.recordedLines > 0)
            let log = try SessionLog.parse(text, file: "gtk.jsonl").get()
            #expect(log.header.isRecording && log.header.engineConfiguration?.routing == configuration.routing)
            let report = SessionReplayer().replay(log, file: "gtk.jsonl")
            #expect(report.isIdentical, "\(report.identity ?? "no identity") \(report.divergence ?? "")")
            // Whole: an unbroken chain from the header to the end line the window's loop wrote when it stopped.
            #expect(log.header.version == 3 && report.integrity.isWhole && report.isProvenIdentical, "\(report.integrity)")
            #expect(report.isVerified, "\(report.failures) \(report.divergence ?? "")")
            // The replay's ledger is the window's, sample for sample.
            #expect(report.audit.received == window.ledger.received && report.audit.inked == window.ledger.inked
                    && report.audit.released == window.ledger.released && report.audit.cancelled == window.ledger.cancelled,
                    "\(report.audit) \(window.ledger)")
            #expect(window.ledger.received == 244 && window.ledger.dropped == 0, "\(window.ledger)")
        }

        @Test("the recording replayed with another configuration (no region cache): the first touch decided differently is named, and verify fails")
        func divergence() throws {
            let (_, text) = try Self.record(page: "blocks.html", configuration: InkEngineConfiguration(useRegionCache: true, routing: .decideAtTouchDown))
            var configuration = ReplayConfiguration()
            configuration.usesRecordedEngine = false   // the replay's own engine: region cache off
            let report = SessionReplayer(configuration: configuration).replay(try SessionLog.parse(text).get(), file: "gtk.jsonl")
            let divergence = try #require(report.divergence)
            #expect(divergence.contains("touch") && !report.isVerified && !report.isIdentical, "\(divergence)")
            #expect(report.divergenceLine != nil)
        }
    }
}
