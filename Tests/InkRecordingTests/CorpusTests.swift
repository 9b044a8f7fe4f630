import Foundation
import Testing
@_spi(Tooling) @testable import InkCore
@_spi(Tooling) import HitTestBridge
@_spi(Tooling) @testable import InkRecording

/// The real recorded ink: the InkML copied into the repository, and (when this machine has
/// it) the whole shared data folder the corpus was drawn from.
@Suite("Real-ink corpus")
struct CorpusTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// The workplace's shared data folder, beside the repository (or named by
    /// `SCRATCHPAD_SHARED_DATA`); absent on machines without it.
    static let sharedData: URL = {
        if let path = ProcessInfo.processInfo.environment["SCRATCHPAD_SHARED_DATA"] { return URL(fileURLWithPath: path) }
        return root.deletingLastPathComponent().appendingPathComponent("shared/data")
    }()
    static var haveSharedData: Bool { FileManager.default.fileExists(atPath: sharedData.appendingPathComponent("inkml").path) }

    static func files(under directory: URL, ending suffix: String) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: directory.path)
        var files: [String] = []
        while let relative = enumerator?.nextObject() as? String {
            if relative.hasSuffix(suffix) { files.append(directory.appendingPathComponent(relative).path) }
        }
        return files.sorted()
    }

    static func importInkML(_ path: String) -> (strokes: Int, points: Int, faults: [InkMLError]) {
        guard let source = try? FileByteSource(path: path) else { return (0, 0, [InkMLError(file: path, line: 0, message: "unreadable", isFatal: true)]) }
        var reader = InkMLReader(source: source, file: path)
        var strokes = 0, points = 0
        var faults: [InkMLError] = []
        var wellFormed = true
        while true {
            do {
                guard let stroke = try reader.next() else { break }
                strokes += 1
                points += stroke.samples.count
                // Real ink: finite, time-ordered samples within each stroke.
                wellFormed = wellFormed && stroke.samples.allSatisfy(\.isValid)
                    && zip(stroke.samples, stroke.samples.dropFirst()).allSatisfy { $0.timestamp <= $1.timestamp }
            } catch {
                faults.append(error)
                if error.isFatal { break }
            }
        }
        #expect(wellFormed, "\(path)")
        return (strokes, points, faults)
    }

    @Test("every InkML file in Fixtures/inkml imports with no fault", arguments: files(under: root.appendingPathComponent("Fixtures/inkml"), ending: ".inkml"))
    func repositoryInkML(path: String) {
        let result = Self.importInkML(path)
        #expect(result.faults.isEmpty, "\(result.faults)")
        #expect(result.strokes > 0)
    }

    @Test("every InkML file of the shared data imports with no fault", .enabled(if: haveSharedData, "no shared data folder on this machine"))
    func sharedInkML() {
        let files = Self.files(under: Self.sharedData.appendingPathComponent("inkml"), ending: ".inkml")
        #expect(files.count >= 44)
        for path in files {
            let result = Self.importInkML(path)
            #expect(result.faults.isEmpty, "\(path): \(result.faults)")
            #expect(result.strokes > 0, "\(path)")
        }
    }

    @Test("every Quick, Draw! file of the shared data reads with no fault", .enabled(if: haveSharedData, "no shared data folder on this machine"))
    func sharedQuickDraw() throws {
        let files = Self.files(under: Self.sharedData.appendingPathComponent("quickdraw"), ending: ".json")
        #expect(files.count == 4)
        for path in files {
            var stream = QuickDrawStream(source: try FileByteSource(path: path), file: path)
            var drawings = 0
            while let drawing = try stream.next() {
                drawings += 1
                _ = try SessionLog(quickDraw: drawing, answerLatency: 0.016)
            }
            #expect(drawings == 50, "\(path)")
        }
    }
}
