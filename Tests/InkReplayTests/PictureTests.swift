#if canImport(Glibc)
@_spi(Tooling) import ChromiumBridge
#endif
import Foundation
@_spi(Tooling) import HitTestBridge
import Testing
#if canImport(FoundationXML)
import FoundationXML
#endif

/// The pictures the tool draws, checked like code: they parse, they hold what they claim,
/// they are the same every run, and (where Chromium is installed) a browser draws them.
@Suite("ink-replay timeline")
struct TimelineTests {
    /// The elements of an SVG, with their attributes, and the `<title>` text of each element
    /// that has one.
    final class Reader: NSObject, XMLParserDelegate {
        struct Element {
            var name: String
            var attributes: [String: String]
            var title = ""
            var children: [Int] = []
        }
        var elements: [Element] = []
        private var open: [Int] = []
        private var inTitle = false

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            if name == "title" { inTitle = true; return }
            elements.append(Element(name: name, attributes: attributes))
            if let parent = open.last { elements[parent].children.append(elements.count - 1) }
            open.append(elements.count - 1)
        }
        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            if name == "title" { inTitle = false; return }
            open.removeLast()
        }
        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if inTitle, let current = open.last { elements[current].title += string }
        }

        func all(_ name: String, class kind: String) -> [Element] {
            elements.filter { $0.name == name && $0.attributes["class"] == kind }
        }
    }

    static func parse(_ data: Data) throws -> Reader {
        let parser = XMLParser(data: data)
        let reader = Reader()
        parser.delegate = reader
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
        return reader
    }

    static func timeline(_ session: String, _ options: [String] = [], html: Bool = false) throws -> (Data, CLITests.Output) {
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent(html ? "timeline.html" : "timeline.svg")
        let result = try CLITests.run(["timeline", CLITests.fixtures + "/" + session, "-o", output.path] + options + (html ? ["--html"] : []))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        return (try Data(contentsOf: output), result)
    }

    /// The SVG element inside an HTML timeline.
    static func svg(inHTML data: Data) throws -> Data {
        let text = String(decoding: data, as: UTF8.self)
        let start = try #require(text.range(of: "<svg "))
        let end = try #require(text.range(of: "</svg>", options: .backwards))
        return Data(text[start.lowerBound..<end.upperBound].utf8)
    }

    @Test("one lane per touch, each with its verdict and reason, a page lane, a legend; every mark has a title",
          arguments: [
            ("decimal-point.jsonl", [String](), ["ink answered", "ink answered"]),
            ("decimal-point.jsonl", ["--oracle-latency", "1000"], ["ink deadline", "ink deadline"]),
            ("drag-block.jsonl", [], ["page answered"]),
            ("drag-block.jsonl", ["--cache", "on"], ["page cache"]),
            ("scroll-then-write.jsonl", ["--oracle", "regions", "--cache", "on"],
             ["page gesture", "page gesture", "ink cache", "ink cache", "ink cache", "ink cache"]),
            ("real/myscript/math_variables_a+b=.jsonl", [], Array(repeating: "ink answered", count: 8)),
          ])
    func lanes(session: String, options: [String], verdicts: [String]) throws {
        let (data, _) = try Self.timeline(session, options)
        let svg = try Self.parse(data)
        let lanes = svg.all("g", class: "lane")
        #expect(lanes.count == SessionLogLite.touchCount(CLITests.fixtures + "/" + session))
        #expect(lanes.map { "\($0.attributes["data-verdict"] ?? "") \($0.attributes["data-reason"] ?? "")" } == verdicts)
        for lane in lanes {
            // The platform's number, and the same number in the title (it once read "touch touch 1").
            let id = try #require(lane.attributes["data-touch"])
            #expect(UInt64(id) != nil, "data-touch is the platform's number: \(id)")
            #expect(lane.title.hasPrefix("touch \(id) (engine #"), "a lane says which touch it is: \(lane.title)")
            // Its verdict mark, and the mark's exact numbers on hover.
            let marks = lane.children.map { svg.elements[$0] }
            let verdict = try #require(marks.first { $0.attributes["class"] == "verdict" })
            #expect(verdict.title.contains("after touch-down"))
            for mark in marks where mark.attributes["class"].map({ ["queued", "ink", "released", "speculative", "round-trip", "touch-down", "lift"].contains($0) }) == true {
                #expect(!mark.title.isEmpty, "\(mark.attributes["class"] ?? "") has a title")
            }
        }
        #expect(svg.all("g", class: "page-lane").count == 1)
        #expect(!svg.all("line", class: "page-event regions").isEmpty, "the page's snapshots")
        #expect(svg.all("g", class: "legend").count == 2)
        #expect(String(decoding: data, as: UTF8.self).contains(">note: a late or duplicate answer, a refused event</text>"),
                "the legend names the small dot a lane draws for a touch's notes")
    }

    @Test("the deadline's decision is drawn where it fired: 250 ms after touch-down, the late answer on the page lane")
    func deadline() throws {
        let (data, _) = try Self.timeline("decimal-point.jsonl", ["--oracle-latency", "1000"])
        let svg = try Self.parse(data)
        let verdicts = svg.elements.filter { $0.attributes["class"] == "verdict" }
        #expect(verdicts.count == 2 && verdicts.allSatisfy { $0.title.contains("250 ms after touch-down") }, "\(verdicts.map(\.title))")
        #expect(svg.elements.filter { $0.attributes["class"] == "page-event answer-late" }.count == 2)
        #expect(svg.all("rect", class: "round-trip-unanswered").count == 2)
    }

    @Test("the same session and options give the same bytes; the HTML holds the same SVG")
    func deterministic() throws {
        let (a, _) = try Self.timeline("blocks-then-3-5.jsonl", ["--oracle", "regions", "--speculative", "on", "--jitter", "10"])
        let (b, _) = try Self.timeline("blocks-then-3-5.jsonl", ["--oracle", "regions", "--speculative", "on", "--jitter", "10"])
        #expect(a == b)
        let (html, _) = try Self.timeline("blocks-then-3-5.jsonl", ["--oracle", "regions", "--speculative", "on", "--jitter", "10"], html: true)
        let text = String(decoding: html, as: UTF8.self)
        #expect(text.hasPrefix("<!doctype html>") && text.contains("</html>"))
        #expect(try Self.svg(inHTML: html) == Data(String(decoding: a, as: UTF8.self).dropFirst("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n".count).utf8).dropLast())
    }

    @Test("a hostile session (2,000 taps a second apart, then a touch held for 30 years) gives a picture of bounded width")
    func boundedWidth() throws {
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var lines = [#"{"format":"scratchpad-ink-session","version":1,"canvas":{"width":1024,"height":768}}"#]
        for k in 0..<2_000 {
            let t = Double(k)
            lines.append(#"{"kind":"touch","t":\#(t),"touch":1,"phase":"began","tool":"pencil","samples":[{"t":\#(t),"x":10,"y":10}]}"#)
            lines.append(#"{"kind":"touch","t":\#(t + 0.01),"touch":1,"phase":"ended","tool":"pencil","samples":[{"t":\#(t + 0.01),"x":11,"y":10}]}"#)
        }
        lines.append(#"{"kind":"touch","t":3000,"touch":2,"phase":"began","tool":"pencil","samples":[{"t":3000,"x":10,"y":10}]}"#)
        lines.append(#"{"kind":"touch","t":1e9,"touch":2,"phase":"ended","tool":"pencil","samples":[{"t":1e9,"x":10,"y":10}]}"#)
        let log = directory.appendingPathComponent("hostile.jsonl")
        try (lines.joined(separator: "\n") + "\n").write(to: log, atomically: true, encoding: .utf8)
        let output = directory.appendingPathComponent("timeline.svg")
        let result = try CLITests.run("timeline", log.path, "-o", output.path)
        #expect(result.status == 0, "\(result.stderr)")
        let svg = try Self.parse(try Data(contentsOf: output))
        let root = try #require(svg.elements.first)
        let width = try #require(Double(root.attributes["width"] ?? ""))
        #expect(width <= 30_000 + 400, "\(width)")
        #expect(svg.all("g", class: "lane").count == 2_001)
        #expect(svg.elements.filter { $0.name == "text" }.count < 10_000, "ticks and labels are bounded by the width")
    }

    @Test("bad arguments: no session, no output, --json, a missing file")
    func usage() throws {
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("x.svg").path, never = directory.appendingPathComponent("never.svg").path
        #expect(try CLITests.run("timeline", "-o", output).status == 64)
        #expect(try CLITests.run("timeline", CLITests.fixtures + "/decimal-point.jsonl").status == 64)
        #expect(try CLITests.run("timeline", CLITests.fixtures + "/decimal-point.jsonl", "-o", output, "--json").status == 64)
        let missing = try CLITests.run("timeline", "/nonexistent.jsonl", "-o", never)
        #expect(missing.status == 1 && !FileManager.default.fileExists(atPath: never))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty, "a refused run wrote nothing")
    }
}

#if canImport(Glibc)
/// A browser draws each picture: the screenshot has the picture's size, and the picture,
/// drawn into a canvas, is not blank and shows ink and page colours where the lanes are.
@Suite("Pictures drawn by headless Chromium", .enabled(if: ChromiumPage.browserPath != nil, "no Chromium installed (scripts/install-test-tools.sh installs it)"),
       .serialized)
struct PictureLookTests {
    /// Width and height from a PNG's header.
    static func pngSize(_ data: Data) -> (Int, Int)? {
        let bytes = [UInt8](data)
        guard bytes.count > 24, bytes[12..<16].elementsEqual("IHDR".utf8) else { return nil }
        func big(_ i: Int) -> Int { bytes[i..<(i + 4)].reduce(0) { $0 << 8 | Int($1) } }
        return (big(16), big(20))
    }

    @Test("a timeline in the browser: the expected size, not blank, ink (and where touches went to the page, its colour) drawn in the lanes",
          arguments: [("decimal-point.jsonl", false), ("scroll-then-write.jsonl", true)])
    func timeline(session: String, toThePage: Bool) throws {
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("timeline.html")
        let made = try CLITests.run("timeline", CLITests.fixtures + "/" + session, "-o", file.path, "--html", "--oracle", "regions", "--cache", "on")
        #expect(made.status == 0, "\(made.stderr)")
        let look = try Self.look(file, colours: ["#1b1f3b", "#e8590c"], within: ".lane > rect.row")
        #expect(look.colours[0] > 50, "ink drawn in the lanes: \(look)")
        #expect(toThePage ? look.colours[1] > 50 : look.colours[1] == 0, "page colour in the lanes: \(look)")
    }

    @Test("the bench plot in the browser: the expected size, not blank, each strategy's colour drawn")
    func benchPlot() throws {
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let svg = directory.appendingPathComponent("bench.svg")
        let made = try CLITests.run("bench", "--plot", svg.path, "--latencies", "0,30,300")
        #expect(made.status == 0, "\(made.stderr)")
        // The SVG inline in a page, as BENCHMARKS.md shows it.
        let text = String(decoding: try Data(contentsOf: svg), as: UTF8.self)
        let body = try #require(text.range(of: "<svg ")).lowerBound
        let file = directory.appendingPathComponent("bench.html")
        try ("<!doctype html><html><head><meta charset=\"utf-8\"></head><body style=\"margin:0\">" + text[body...] + "</body></html>")
            .write(to: file, atomically: true, encoding: .utf8)
        let look = try Self.look(file, colours: ["#d55e00", "#0072b2", "#009e73", "#cc79a7"], within: nil)
        #expect(look.colours.allSatisfy { $0 > 30 }, "every strategy drawn: \(look)")
    }

    /// Opens `file` in Chromium with room for its SVG, checks the screenshot's size, then
    /// draws the SVG into a canvas and counts its pixels: those not white, and those of each
    /// colour (inside the elements matching `within`, when given).
    static func look(_ file: URL, colours: [String], within: String?) throws -> (drawn: Double, colours: [Double]) {
        let html = String(decoding: try Data(contentsOf: file), as: UTF8.self)
        let width = try #require(Self.attribute("width", in: html)), height = try #require(Self.attribute("height", in: html))
        let viewport = (Int(width.rounded(.up)) + 40, Int(height.rounded(.up)) + 80)
        let page = try ChromiumPage(url: file, width: viewport.0, height: viewport.1)
        defer { page.close() }
        let size = try #require(Self.pngSize(try page.screenshot()))
        #expect(size == viewport)
        let selector = within.map { JSONValue.string($0).serialized() } ?? "null"
        let list = JSONValue.array(colours.map { .string($0) }).serialized()
        try page.evaluate("(\(Self.drawScript))(\(selector), \(list))", inPageWorld: true)
        var result: [Double] = []
        for _ in 0..<100 where result.isEmpty {
            if case let .array(values) = try page.evaluate("window.__look || null", inPageWorld: true) {
                result = values.compactMap { value -> Double? in
                    guard case let .number(n) = value else { return nil }
                    return n
                }
            } else {
                usleep(50_000)  // the image decodes in the browser's own time
            }
        }
        let look = try #require(result.count == 3 + colours.count ? result : nil, "the browser did not draw the picture")
        #expect(look[0] == width.rounded(.up) && look[1] == height.rounded(.up), "\(look)")
        #expect(look[2] > 0.02 * look[0] * look[1], "not blank: \(look)")
        return (look[2], Array(look[3...]))
    }

    @Test("a timeline against the real page in Chromium: real round trips, the page's verdicts, its snapshots with their generations")
    func realPage() throws {
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("timeline.svg")
        let page = CLITests.root.appendingPathComponent("Fixtures/pages/blocks.html").path
        let made = try CLITests.run("timeline", CLITests.fixtures + "/blocks-then-3-5.jsonl", "-o", file.path, "--oracle", "chromium:" + page,
                                    "--cache", "off")
        #expect(made.status == 0, "\(made.stderr)")
        let svg = try TimelineTests.parse(try Data(contentsOf: file))
        let lanes = svg.all("g", class: "lane")
        #expect(lanes.map { $0.attributes["data-verdict"] ?? "" } == ["page", "ink", "ink", "ink"])
        #expect(lanes.allSatisfy { $0.attributes["data-reason"] == "answered" })
        #expect(svg.all("rect", class: "round-trip").count >= 4, "one real round trip per touch at least")
        #expect(svg.all("line", class: "page-event regions").contains { $0.title.contains("generation") })
    }

    static func attribute(_ name: String, in html: String) -> Double? {
        guard let svg = html.range(of: "<svg "), let start = html.range(of: " \(name)=\"", range: svg.upperBound..<html.endIndex),
              let end = html[start.upperBound...].firstIndex(of: "\"") else { return nil }
        return Double(html[start.upperBound..<end])
    }

    /// Serialises the page's SVG, draws it into a canvas, and counts pixels that are not
    /// white, and those of each colour (inside the elements matching the selector, when
    /// given); the result lands in `window.__look`.
    static let drawScript = """
        function (within, colours) {
          window.__look = null;
          var svg = document.querySelector('svg');
          var image = new Image();
          image.onload = function () {
            var canvas = document.createElement('canvas');
            canvas.width = image.width; canvas.height = image.height;
            var g = canvas.getContext('2d');
            g.fillStyle = '#ffffff'; g.fillRect(0, 0, canvas.width, canvas.height);
            g.drawImage(image, 0, 0);
            var d = g.getImageData(0, 0, canvas.width, canvas.height).data;
            var top = 0, bottom = canvas.height;
            if (within) {
              top = Infinity; bottom = -Infinity;
              svg.querySelectorAll(within).forEach(function (r) {
                var y = Number(r.getAttribute('y')), h = Number(r.getAttribute('height'));
                top = Math.min(top, y); bottom = Math.max(bottom, y + h);
              });
            }
            var rgb = colours.map(function (c) { return [1, 3, 5].map(function (k) { return parseInt(c.substr(k, 2), 16); }); });
            var counts = colours.map(function () { return 0; });
            var drawn = 0;
            for (var i = 0; i < d.length; i += 4) {
              if (d[i] < 245 || d[i + 1] < 245 || d[i + 2] < 245) { drawn++; }
              var y = Math.floor(i / 4 / canvas.width);
              if (y < top || y >= bottom) { continue; }
              for (var c = 0; c < rgb.length; c++) {
                if (Math.abs(d[i] - rgb[c][0]) < 8 && Math.abs(d[i + 1] - rgb[c][1]) < 8 && Math.abs(d[i + 2] - rgb[c][2]) < 8) { counts[c]++; }
              }
            }
            window.__look = [canvas.width, canvas.height, drawn].concat(counts);
          };
          image.onerror = function () { window.__look = ['error']; };
          image.src = 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(new XMLSerializer().serializeToString(svg));
          return true;
        }
        """
}
#endif
