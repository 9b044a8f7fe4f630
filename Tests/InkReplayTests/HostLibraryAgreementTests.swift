import Foundation
import InkHost
@_spi(Tooling) import InkRecording
import Testing
@testable import ink_replay

/// The library and the process speak one protocol: `ink-replay host` is a shell over
/// `HostProtocolSession` (InkHost), so what `Tests/InkHostTests` checks without a process
/// holds for the process, byte for byte.
@Suite("host: the library and the process agree")
struct HostLibraryAgreementTests {
    /// Sessions of every shape the fixtures hold (answers, gestures, cancellations, scrolling),
    /// and the options that change what the host writes.
    static let cases: [(fixture: String, arguments: [String])] = {
        let fixtures = ["decimal-point", "two-finger-scroll", "cancelled-touch", "scroll-then-write", "blocks-then-3-5",
                        "never-answered", "long-stroke"]
        let options: [[String]] = [["--seed", "1"], ["--seed", "1", "--geometry", "--cache", "off"],
                                   ["--seed", "3", "--speculative", "on", "--timeout", "100", "--fallback", "page", "--gesture-window", "50"],
                                   ["--seed", "3", "--pencil-only"]]
        return fixtures.flatMap { fixture in options.map { (fixture, $0) } }
    }()

    @Test("a fixture through the process and through the library: the same bytes, line for line", arguments: cases)
    func sameBytes(fixture: String, arguments: [String]) throws {
        let path = CLITests.fixtures + "/\(fixture).jsonl"
        let process = try CLITests.shell(#""$0" host "$@""#, arguments, stdin: path)
        #expect(process.status == 0)
        // The library, set up from the same arguments as the command sets it up.
        let parsed = try ArgumentList(arguments, table: HostCommand.options)
        let session = HostProtocolSession(configuration: try EngineOptions.Defaults.host.configuration(parsed),
                                          seed: parsed.integer("--seed").map { UInt64($0) }, geometry: parsed.flag("--geometry"))
        var splitter = LineSplitter(maxLineBytes: HostProtocolSession.maxLineBytes)
        var pieces: [LineSplitter.Piece] = []
        splitter.feed(Array(try Data(contentsOf: URL(fileURLWithPath: path))), into: &pieces)
        var lines = pieces.flatMap { session.take($0) }
        if let last = splitter.finish() { lines += session.take(last) }
        lines += session.finish()
        let library = lines.map { $0 + "\n" }.joined()
        #expect(library == process.stdout, "\(fixture) \(arguments)")
        #expect(lines.count > 1 && lines.last?.hasPrefix(#"{"kind":"summary""#) == true)
    }
}
