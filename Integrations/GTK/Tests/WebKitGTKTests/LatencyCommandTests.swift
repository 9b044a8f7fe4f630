import CWebKitGTK
import Foundation
@testable import scratchpad_gtk
import Testing
@_spi(Tooling) import WebKitGTKOracle
@_spi(Tooling) import GTKLogPlayer

extension WebKitGTK {
    /// `scratchpad-gtk latency`'s machinery, not its numbers: timings on shared machines are
    /// noisy, and targets live in BENCHMARKS.md, not in tests.
    @Suite("scratchpad-gtk latency: the measurement finds its pixels", .serialized)
    struct LatencyCommandTests {
        @Test("three trials of each measure, page latency 30 ms, cache off: every trial sees its pixel on the real screen (ink under the pointer, the page handler's paint), none times out, and the window's audit verifies")
        func measurementFindsPixels() throws {
            let rows = try GTKThread.shared.run { () throws -> [LatencyRow] in
                guard scratchpad_xtest_available() != 0 else {
                    Issue.record("no XTest on this display")
                    return []
                }
                let bench = LatencyBench(pages: repositoryRoot.appendingPathComponent("Fixtures/pages"), trials: 3)
                let condition = LatencyCondition(pageDelay: 0.03, regionCache: false)
                return try LatencyMeasure.allCases.map { try bench.run($0, condition) }
            }
            for row in rows {
                #expect(row.latencies.count == 3 && row.timeouts == 0, "\(row.measure): \(row.latencies) of \(row.trials) trials")
                #expect(row.latencies.allSatisfy { $0 > 0 && $0 < 2 }, "\(row.measure): \(row.latencies)")
                #expect(row.polls >= 3 && row.verified, "\(row.measure): \(row.polls) reads; \(row.ledger)")
            }
            // The page got every touch on its target (replayed: the cache is off), none became ink.
            if let handler = rows.first(where: { $0.measure == .pageHandler }) {
                #expect(handler.inkedSamples == 0, "\(handler.ledger)")
            }
            let table = latencyMarkdown(rows, trials: 3, command: "test", seconds: 1)
            #expect(table.contains("| 30 ms | off | 3 (0) |"), "\(table)")
        }
    }
}
