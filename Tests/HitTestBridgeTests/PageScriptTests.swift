import Foundation
import Testing
@testable import HitTestBridge

/// Where `node` is, if it is installed.
let nodeExecutable: String? = {
    let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
    return paths.map { "\($0)/node" }.first { FileManager.default.isExecutableFile(atPath: $0) }
}()

@Suite("Page script")
struct PageScriptTests {
    @Test("the script ships as a package resource")
    func resource() throws {
        let source = try PageScript.source
        #expect(source.contains("scratchpadInk"))
        #expect(source.contains("elementFromPoint"))
    }

    @Test("the page script's own tests pass under node with a DOM stand-in",
          .enabled(if: nodeExecutable != nil, "node is not installed, so the page script's tests are SKIPPED (scripts/install-test-tools.sh installs it)"))
    func nodeTests() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(nodeExecutable))
        process.arguments = ["--test", "Tests/PageScript/"]
        process.currentDirectoryURL = FixturePaths.root
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(output)")
        #expect(output.contains("# fail 0"), "\(output)")
        #expect(!output.contains("# pass 0"), "\(output)")
    }
}
