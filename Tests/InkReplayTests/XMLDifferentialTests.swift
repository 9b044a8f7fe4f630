import Foundation
@_spi(Tooling) import InkCore
@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkRecording
@_spi(Tooling) import SessionReplay
import Testing
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Our streaming XML reader against Foundation's libxml2-based `XMLParser` (available to
/// tests, not to the package, which has no dependencies): on every InkML file in the
/// repository both must see the same elements, attributes and text.
@Suite("XML reader agrees with Foundation's XMLParser")
struct XMLDifferentialTests {
    final class Recorder: NSObject, XMLParserDelegate {
        var events: [String] = []
        var text = ""

        func flush() {
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if !trimmed.isEmpty { events.append("text " + trimmed) }
            text = ""
        }
        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            flush()
            let local = name.split(separator: ":").last.map(String.init) ?? name
            events.append("start \(local) " + attributes.filter { !$0.key.hasPrefix("xmlns") }.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "))
        }
        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            flush()
            events.append("end \(name.split(separator: ":").last.map(String.init) ?? name)")
        }
        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }
        func parser(_ parser: XMLParser, foundCDATA block: Data) { text += String(decoding: block, as: UTF8.self) }
    }

    static func ours(_ bytes: [UInt8]) throws -> [String] {
        var parser = XMLPullParser(source: MemoryByteSource(bytes, chunkSize: 4093))
        var events: [String] = []
        var text: [UInt8] = []
        func flush() {
            let trimmed = String(decoding: text, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            if !trimmed.isEmpty { events.append("text " + trimmed) }
            text = []
        }
        while let event = try parser.next() {
            switch event {
            case let .start(tag):
                flush()
                events.append("start \(tag.name) " + tag.attributes.filter { !$0.key.hasPrefix("xmlns") }.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "))
            case let .end(name, _):
                flush()
                events.append("end \(name)")
            case let .text(bytes, _):
                text += bytes
            }
        }
        return events
    }

    static var files: [String] {
        let directory = CLITests.root.appendingPathComponent("Fixtures/inkml")
        let enumerator = FileManager.default.enumerator(atPath: directory.path)
        var files: [String] = []
        while let relative = enumerator?.nextObject() as? String {
            if relative.hasSuffix(".inkml") { files.append(directory.appendingPathComponent(relative).path) }
        }
        return files.sorted()
    }

    @Test("the repository has InkML files to compare")
    func haveFiles() { #expect(Self.files.count >= 20) }

    @Test("same elements, attributes and text", arguments: files)
    func agree(path: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let recorder = Recorder()
        let parser = XMLParser(data: data)
        parser.delegate = recorder
        #expect(parser.parse())
        let mine = try Self.ours(Array(data))
        #expect(mine.count == recorder.events.count)
        #expect(mine == recorder.events)
    }
}
