import Foundation

/// Where the repository's fixtures are, found from this file's path.
enum FixturePaths {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let strokes = root.appendingPathComponent("Fixtures/strokes")

    static func stroke(_ name: String) -> String { strokes.appendingPathComponent(name).path }

    /// Every session log under Fixtures/strokes, sorted.
    static var allSessionLogs: [String] {
        let enumerator = FileManager.default.enumerator(atPath: strokes.path)
        var files: [String] = []
        while let relative = enumerator?.nextObject() as? String {
            if relative.hasSuffix(".jsonl") { files.append(strokes.appendingPathComponent(relative).path) }
        }
        return files.sorted()
    }
}
