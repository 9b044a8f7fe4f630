import Foundation
import Testing
#if canImport(FoundationXML)
import FoundationXML
#endif

/// `ink-replay bench --plot`: the chart is valid XML, drawn from the same run as the table,
/// deterministic, and written by the one output-file policy.
@Suite("ink-replay bench --plot")
struct BenchPlotTests {
    static let arguments = ["bench", "--strokes", "60", "--latencies", "0,8,30,300", "--seed", "3"]
    static let labels = ["blocking": "(a) blocking", "queued": "(b) queued", "cached": "(c) cache", "speculative": "(d) speculative"]
    static let strategies = ["blocking", "queued", "cached", "speculative"]

    /// What the chart holds: its series in document order, each with its points' titles and
    /// vertical positions, and each panel's axis line.
    final class ChartReader: NSObject, XMLParserDelegate {
        struct Series { var strategy: String, name: String, titles: [String] = [], ys: [Double] = [] }
        var series: [Series] = []
        var axes: [String: Double] = [:]
        var panel: String?
        var inSeries = false
        var inPointTitle = false
        var title = ""
        var elements = 0

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            elements += 1
            let kind = attributes["class"]
            if name == "g", kind == "panel" { panel = attributes["data-panel"] }
            if name == "line", kind == "axis", let panel, let y = attributes["y1"].flatMap(Double.init) { axes[panel] = y }
            if name == "g", kind == "series" {
                inSeries = true
                series.append(Series(strategy: attributes["data-strategy"] ?? "", name: attributes["data-series"] ?? ""))
            }
            if inSeries, kind == "point" {
                // transform="translate(x y)" or "translate(x y) scale(s)"
                let numbers = (attributes["transform"] ?? "").split(whereSeparator: { "() ".contains($0) }).compactMap { Double($0) }
                series[series.count - 1].ys.append(numbers.count >= 2 ? numbers[1] : .nan)
            }
            if inSeries, name == "title" { inPointTitle = true; title = "" }
        }
        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            if name == "g", inSeries { inSeries = false }
            if name == "title", inPointTitle {
                inPointTitle = false
                series[series.count - 1].titles.append(title)
            }
        }
        func parser(_ parser: XMLParser, foundCharacters string: String) { if inPointTitle { title += string } }
    }

    static func read(_ data: Data) throws -> ChartReader {
        let reader = ChartReader()
        let parser = XMLParser(data: data)
        parser.delegate = reader
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
        #expect(reader.elements > 50)
        return reader
    }

    /// The table's rows: label, latency, samples lost, strokes lost, p50, p95, p99.
    struct Row: Equatable { var label: String, latency: String, samplesLost: String, strokesLost: String, p50: String, p95: String, p99: String }

    static func rows(_ stdout: String) -> [Row] {
        stdout.split(separator: "\n").compactMap { line -> Row? in
            guard line.hasPrefix("("), line.count > 16 else { return nil }
            let label = line.prefix(16).trimmingCharacters(in: .whitespaces)
            let fields = line.dropFirst(16).split(separator: " ").map(String.init)
            // latency, samples lost, strokes lost, p50 / p95 / p99, away p50 / p95, wrong owner, retractions, round trips
            guard fields.count == 14, fields[4] == "/", fields[6] == "/" else { return nil }
            return Row(label: label, latency: fields[0], samplesLost: fields[1], strokesLost: fields[2], p50: fields[3], p95: fields[5], p99: fields[7])
        }
    }

    @Test("the chart parses as XML and holds, per strategy, a p50, a p95 and a samples-lost series whose points carry the table's rows")
    func chartMatchesTable() throws {
        let directory = try CLITests.temporaryDirectory()
        let svg = directory.appendingPathComponent("bench.svg")
        let output = try CLITests.run(Self.arguments + ["--plot", svg.path])
        #expect(output.status == 0, "\(output.stderr)")
        let rows = Self.rows(output.stdout)
        #expect(rows.count == 16, "\(output.stdout)")
        #expect(output.stdout.contains("short strokes: 60 (0 recorded, 60 generated)"))
        let data = try Data(contentsOf: svg)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("60 short strokes (0 recorded, 60 generated)") && text.contains("seed 3"))
        #expect(text.contains("evenly spaced categories"))
        let chart = try Self.read(data)
        for name in ["p50", "p95", "lost"] {
            #expect(chart.series.filter { $0.name == name }.map(\.strategy).sorted() == Self.strategies.sorted(), "\(name)")
        }
        #expect(chart.series.count == 12)
        for series in chart.series {
            let label = try #require(Self.labels[series.strategy])
            let expected = rows.filter { $0.label == label }.map { row in
                "\(label), oracle latency \(row.latency) ms: first ink p50 \(row.p50) ms, p95 \(row.p95) ms, p99 \(row.p99) ms; "
                    + "samples lost \(row.samplesLost); strokes lost \(row.strokesLost)"
            }
            #expect(expected.count == 4)
            #expect(series.titles == expected, "\(series.strategy) \(series.name)")
            #expect(series.ys.count == 4 && series.ys.allSatisfy(\.isFinite))
        }
        // "0 lost" is drawn above the axis, not on it; and more lost is drawn higher.
        let lostAxis = try #require(chart.axes["lost"])
        for series in chart.series where series.name == "lost" {
            let lost = rows.filter { $0.label == Self.labels[series.strategy] }.map { Int($0.samplesLost) ?? -1 }
            for (y, count) in zip(series.ys, lost) {
                #expect(y < lostAxis - 4, "\(series.strategy): \(count) lost at y \(y), axis at \(lostAxis)")
            }
            for i in lost.indices.dropFirst() where lost[i] > lost[i - 1] { #expect(series.ys[i] < series.ys[i - 1]) }
            for i in lost.indices.dropFirst() where lost[i] == lost[i - 1] { #expect(series.ys[i] == series.ys[i - 1]) }
        }
        #expect(rows.filter { $0.label == "(a) blocking" }.contains { $0.samplesLost != "0" })
        #expect(text.contains("(b) queued, (c) cache, (d) speculative: 0 samples lost at every latency"))
    }

    @Test("the same run gives a byte-identical chart; another seed gives another one")
    func deterministic() throws {
        let directory = try CLITests.temporaryDirectory()
        let paths = ["a.svg", "b.svg", "c.svg"].map { directory.appendingPathComponent($0) }
        #expect(try CLITests.run(Self.arguments + ["--plot", paths[0].path]).status == 0)
        #expect(try CLITests.run(Self.arguments + ["--plot", paths[1].path, "--json"]).status == 0)
        var other = Self.arguments
        other[other.firstIndex(of: "3")!] = "4"
        #expect(try CLITests.run(other + ["--plot", paths[2].path]).status == 0)
        let bytes = try paths.map { try Data(contentsOf: $0) }
        #expect(!bytes[0].isEmpty)
        #expect(bytes[0] == bytes[1])
        #expect(bytes[0] != bytes[2])
        #expect(OutputPathTests.listing(directory) == ["a.svg", "b.svg", "c.svg"])
    }

    @Test("a directory at the plot's path is refused and left alone; nothing partial is left")
    func refusesDirectory() throws {
        let directory = try CLITests.temporaryDirectory()
        let target = directory.appendingPathComponent("bench.svg")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        try "mine".write(to: target.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        let output = try CLITests.run(Self.arguments + ["--plot", target.path])
        #expect(output.status == 1)
        #expect(output.stderr.contains("bench.svg: is a directory; not replaced"), "\(output.stderr)")
        #expect(Self.rows(output.stdout).count == 16)
        #expect(OutputPathTests.listing(directory) == ["bench.svg", "bench.svg/notes.txt"])
        #expect(try String(contentsOf: target.appendingPathComponent("notes.txt"), encoding: .utf8) == "mine")
    }

    @Test("--plot outside strategies mode is a usage error, and writes nothing", arguments: ["geometry", "strokes", "regions"])
    func onlyStrategies(mode: String) throws {
        let directory = try CLITests.temporaryDirectory()
        let output = try CLITests.run(["bench", mode, "--plot", directory.appendingPathComponent("x.svg").path])
        #expect(output.status == 64)
        #expect(output.stderr.contains("'--plot' draws the strategies table; 'bench \(mode)' has no plot"), "\(output.stderr)")
        #expect(OutputPathTests.listing(directory).isEmpty)
        #expect(try CLITests.run("help", "bench").stdout.contains("--plot <file.svg>"))
    }
}
