import Foundation
@_spi(Tooling) import InkCore
import Testing
@_spi(Tooling) @testable import HitTestBridge

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

    @Test("the hit-test invocation evaluates to true with the page script installed and false without it, never undefined",
          .enabled(if: nodeExecutable != nil, "node is not installed, so this JavaScript check is SKIPPED (scripts/install-test-tools.sh installs it)"))
    func invocationHasAValue() throws {
        let request = HitTestRequest(token: QueryToken(high: 1, low: 2), pagePoint: PagePoint(x: 3, y: 4), generation: 5)
        // Evaluated as a host evaluates it: as a whole script, in a fresh global, with and
        // without a page script that took the request.
        let check = """
            const vm = require('node:vm');
            const source = process.argv[1];
            const taken = [];
            const installed = { hitTest(request) { taken.push(request); } };
            const withScript = vm.runInNewContext(source, { window: { scratchpadInk: installed } });
            const without = vm.runInNewContext(source, { window: {} });
            console.log(JSON.stringify([withScript, without, taken.length, taken[0] && taken[0].id]));
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(nodeExecutable))
        process.arguments = ["-e", check, request.scriptInvocation]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(output == "[true,false,1,\"\(request.token)\"]\n")
    }

    @Test("the page script's own tests pass under node with a DOM stand-in",
          .enabled(if: nodeExecutable != nil, "node is not installed, so the page script's tests are SKIPPED (scripts/install-test-tools.sh installs it)"))
    func nodeTests() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(nodeExecutable))
        process.arguments = ["--test", "Tests/PageScript/"]
        process.currentDirectoryURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
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
