import Foundation
import Testing
@_spi(Tooling) import InkCore
@_spi(Tooling) import InkRecording

@Suite("Stroke geometry on the recorded fixtures")
struct FixtureGeometryTests {
    static let fixtures: [String] = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/strokes")
        let enumerator = FileManager.default.enumerator(atPath: root.path)
        var files: [String] = []
        while let relative = enumerator?.nextObject() as? String {
            if relative.hasSuffix(".jsonl") { files.append(root.appendingPathComponent(relative).path) }
        }
        return files.sorted()
    }()

    @Test("every touch of every fixture: stable prefix never changes, output is finite, ends are exact",
          arguments: fixtures)
    func fixture(path: String) throws {
        let log = try SessionLog.read(contentsOf: path).get()
        for (_, samples) in log.samplesByTouch where !samples.isEmpty {
            var stroke = StrokeBuilder()
            var seen = 0
            var previous: [StrokeSegment] = []
            // The first node as last seen (a long stroke forgets it once nothing can reach it).
            var firstNode: CanvasPoint?
            for sample in samples {
                _ = try stroke.append(sample)
                if stroke.nodes.startIndex == 0 { firstNode = stroke.nodes.first?.position }
                #expect(Array(stroke.stableSegments.prefix(seen)) == Array(previous.prefix(seen)))
                previous = stroke.stableSegments
                seen = previous.count
            }
            _ = stroke.finish()
            _ = stroke.settleEstimates()
            if stroke.nodes.startIndex == 0 { firstNode = stroke.nodes.first?.position }
            #expect(Array(stroke.stableSegments.prefix(seen)) == Array(previous.prefix(seen)))
            #expect(!stroke.stableSegments.isEmpty)
            #expect(stroke.stableSegments.first?.curve.p0 == firstNode)
            for segment in stroke.stableSegments {
                for p in [segment.curve.p0, segment.curve.p1, segment.curve.p2, segment.curve.p3] {
                    #expect(p.x.isFinite && p.y.isFinite)
                }
                #expect(segment.startWidth > 0 && segment.endWidth > 0)
            }
            #expect(!StrokeOutline.svgPathData(stroke.stableSegments).contains("nan"))
        }
    }
}
