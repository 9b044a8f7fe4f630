import Foundation
@_spi(Tooling) import InkCore
@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkRecording

/// `ink-replay convert`: recorded ink from other formats into session logs.
enum ConvertCommand: Command {
    static let name = "convert"
    static let synopsis = "<input>..."
    static let overview = """
        OVERVIEW: Convert recorded ink (W3C InkML, Quick, Draw! raw) into session logs.

        Each stroke becomes a touch at its recorded pace. The page under the ink is a
        layout file (--layout; see Fixtures/layouts) or, without one, an empty page: it
        pushes its regions like the page script's heartbeat, and its answer for each touch
        (the page's when an interactive rectangle is under the touch-down) arrives
        --answer-latency ms after touch-down. Inputs are read as streams: memory is bounded
        by the largest stroke (InkML) or drawing (Quick, Draw!), not by the file.

        InkML: one session per file, <name>.jsonl. Channels, units, contexts, difference
        encodings and trace groups follow the specification (docs/interchange.md); a file
        without a T channel gets timestamps at its stated sample rate (else --sample-rate)
        and the session header records that. Quick, Draw!: a JSON array of drawings or
        newline-delimited JSON; one session per drawing, quickdraw-<word>-<key_id>.jsonl.

        A trace or drawing that cannot be read is reported with its file, line and index;
        the rest is still converted (exit 1 at the end).
        """
    static let details = """
        ARGUMENTS:
          <input>                 InkML (.inkml, .xml) or Quick, Draw! (.json, .ndjson) files.
        """
    static let options = OptionTable(
        [ReplayOptions.output("directory", help: "Where to write the session logs (created if missing)."),
         Option("--format", kind: .choice(Format.allCases.map(\.rawValue)), help: "auto (by extension and content), inkml or quickdraw", default: "auto"),
         Option("--layout", kind: .text("file"), help: "The page to lay under the ink (scratchpad-ink-layout JSON)."),
         Option("--limit", kind: .integer("n", 1...1_000_000_000), help: "Quick, Draw!: convert at most the first n drawings of each input."),
         Option("--answer-latency", kind: .number("ms", 0...3_600_000), help: "Recorded answer latency", default: "16"),
         Option("--sample-rate", kind: .number("hz", 0.001...1_000_000), help: "InkML without T: samples per second when the file states none", default: "60"),
         Option("--stroke-gap", kind: .number("ms", 0...86_400_000), help: "InkML without T: time between strokes", default: "200"),
         Option("--tool", kind: .choice(ToolKind.allCases.map(\.rawValue)), help: "The tool the touches record", default: "pencil when there is a force channel, else finger"),
         Option("--source", kind: .text("text"), help: "The session header's source (dataset, licence)", default: "the file name"),
         Option("--strict", help: "InkML whose traces are not in time order is refused. Without it, traces in layout order are sorted by time, and traces that restart their clock are laid end to end (--stroke-gap apart); the session header's device line says which repair was made.")],
        JobProgress.options(json: false),
        rules: [OptionRule(when: .value("--format", prefix: "quickdraw"), refuses: ["--sample-rate", "--stroke-gap", "--tool", "--strict"],
                           reason: "does not apply with '--format quickdraw' (it sets how InkML is read; Quick, Draw! drawings carry their times and are finger strokes)"),
                OptionRule(when: .value("--format", prefix: "inkml"), refuses: ["--limit"],
                           reason: "does not apply with '--format inkml' (it limits the drawings of a Quick, Draw! file)"),
                JobProgress.rule])

    enum Format: String, CaseIterable { case auto, inkml, quickdraw }

    struct Settings {
        var output: String
        var layout: PageLayout?
        var limit: Int
        var latency: Double
        var options: InkMLImportOptions
        var source: String?
        /// Refuse InkML whose traces are not in time order instead of repairing it.
        var strict = false
        /// Counts the bytes read (InkML is read twice) and the files done.
        var progress: JobProgress?
        /// Every file convert reads (the inputs and the layout): no session log it writes
        /// replaces one of them.
        var inputs: [String] = []
    }

    static func run(_ arguments: inout ArgumentList) throws -> Int32 {
        guard !arguments.positional.isEmpty else { throw UsageError(message: "missing <input>") }
        let output = arguments.string("--output") ?? ""   // required by the table
        let format = try arguments.choice("--format", as: Format.self) ?? .auto
        var options = InkMLImportOptions()
        options.sampleRate = arguments.number("--sample-rate") ?? 60
        options.strokeGap = (arguments.number("--stroke-gap") ?? 200) / 1000
        options.tool = try arguments.choice("--tool", as: ToolKind.self)
        var layout: PageLayout?
        if let path = arguments.string("--layout") {
            try SessionFiles.requireReadable(path)
            let data = try SessionFiles.contents(of: path, limit: ReplayOptions.wholeSessionByteLimit,
                                                 what: "a page layout is a small JSON file")
            do { layout = try PageLayout.parse(data, file: path) } catch { throw CommandFailure(message: error.description) }
        }
        var settings = Settings(
            output: output, layout: layout,
            limit: arguments.integer("--limit") ?? Int.max,
            latency: (arguments.number("--answer-latency") ?? 16) / 1000,
            options: options, source: arguments.string("--source"), strict: arguments.flag("--strict"))
        try SessionFiles.makeDirectory(output)
        var totals = Totals()
        let inputs = arguments.positional
        settings.inputs = CommandInputs.of(arguments)
        let problems = inputs.map(notARegularFile)
        let formats = zip(inputs, problems).map { input, problem in problem != nil ? nil : (format == .auto ? detect(input) : format) }
        settings.progress = try JobProgress.standardError(
            arguments, title: "convert", unit: "files", total: Double(inputs.count),
            byteTotal: JobProgress.totalSize(inputs) { index in formats[index] == .inkml ? 2 : (formats[index] == nil ? 0 : 1) })
        for (index, input) in inputs.enumerated() {
            defer { settings.progress?.advance() }
            if let problem = problems[index] {
                printError("Error: \(input): \(problem)")
                totals.faults += 1
                continue
            }
            switch formats[index] {
            case .inkml: convertInkML(input, settings, &totals)
            default: convertQuickDraw(input, settings, &totals)
            }
        }
        settings.progress?.finish()
        print("wrote \(totals.written) session logs (\(totals.strokes) strokes, \(totals.samples) samples) to \(PathText.shown(output))"
              + (totals.faults > 0 ? "; \(totals.faults) fault\(totals.faults == 1 ? "" : "s")" : ""))
        return totals.faults == 0 ? 0 : 1
    }

    struct Totals {
        /// Session logs written in this run, so that two inputs never write the same file.
        var paths: Set<String> = []
        var written = 0
        var strokes = 0
        var samples = 0
        var faults = 0
    }

    /// InkML by extension (.inkml, .xml) or a leading `<`; Quick, Draw! otherwise.
    static func detect(_ path: String) -> Format {
        let ext = PathText.pathExtension(path).lowercased()
        if ext == "inkml" || ext == "xml" { return .inkml }
        if ext == "json" || ext == "ndjson" || ext == "jsonl" { return .quickdraw }
        var source = try? FileByteSource(path: path)
        let head = (try? source?.read(upTo: 64)) ?? []
        return head.first(where: { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF) }) == UInt8(ascii: "<") ? .inkml : .quickdraw
    }

    /// A file name made of letters, digits and `.+=-_` only.
    static func safeName(_ name: String) -> String {
        String(name.unicodeScalars.map { scalar -> Character in
            scalar.isASCII && (scalar.properties.isAlphabetic || scalar.properties.numericType == .decimal || ".+=-_".unicodeScalars.contains(scalar)) ? Character(scalar) : "_"
        })
    }

    /// The most samples convert holds in memory to sort a file's traces by time (about
    /// 100 bytes each); only files whose traces are out of time order are held at all.
    static let maxSamplesToReorder = 4_000_000

    /// Why `input` cannot be converted without opening it, if it cannot: convert reads a file
    /// more than once (its format from the first bytes, InkML in two passes), so a pipe, a
    /// FIFO or a device, which would hang or lose its first bytes, is refused before it is
    /// opened. A symbolic link to a regular file is fine.
    static func notARegularFile(_ input: String) -> String? {
        switch InputFileKind(path: input) {
        case .regular, .missing, .unknown: return nil   // missing or unreadable: opening it says which
        case .directory: return "is a directory; name the files to convert"
        case .symbolicLinkLoop: return "is a symbolic-link loop (too many levels of symbolic links); not read"
        case let kind: return "is not a regular file (\(kind.phrase)); convert reads its input more than once: save it to a file first"
        }
    }

    /// The input as a byte source, or `nil` after reporting why it cannot be read.
    static func open(_ input: String, _ totals: inout Totals) -> FileByteSource? {
        do { return try FileByteSource(path: input) } catch {
            printError("Error: \(error)")
            totals.faults += 1
            return nil
        }
    }

    // MARK: InkML

    static func convertInkML(_ input: String, _ settings: Settings, _ totals: inout Totals) {
        // Pass 1: bounds, count and faults (reported once); pass 2 writes. Both stream.
        guard let source = open(input, &totals) else { return }
        let name = PathText.lastComponent(input)
        settings.progress?.set(detail: name + " (pass 1 of 2)")
        var reader = InkMLReader(source: CountingByteSource(base: source, counted: settings.progress), file: input, options: settings.options)
        var bounds = InkBounds()
        var strokes = 0
        var spans: [(start: Double, end: Double)] = []
        var sampleCount = 0
        while true {
            do {
                guard let stroke = try reader.next() else { break }
                strokes += 1
                for sample in stroke.samples { bounds.include(sample) }
                if let first = stroke.samples.first, let last = stroke.samples.last { spans.append((first.timestamp, last.timestamp)) }
                sampleCount += stroke.samples.count
            } catch {
                printError("Error: \(error)")
                totals.faults += 1
                if error.isFatal { break }
            }
        }
        let summary = reader.summary
        guard strokes > 0 else {
            printError("Error: \(input): no strokes to convert")
            totals.faults += 1
            return
        }
        let order = RecordedStrokeOrder.plan(spans: spans, gap: settings.options.strokeGap)
        let repair: String?
        switch order {
        case .asRecorded: repair = nil
        case .sortedByTime: repair = "traces reordered by time (\(order.movedStrokes) of \(spans.count) were not in time order: layout order)"
        case .realigned: repair = "per-trace clocks realigned (\(order.movedStrokes) of \(spans.count) traces began before the one before them ended): traces laid end to end in document order, \(JSONValue.format(settings.options.strokeGap * 1000)) ms apart"
        }
        if let repair, settings.strict {
            printError("Error: \(input): its traces are not in time order; without --strict: \(repair)")
            totals.faults += 1
            return
        }
        if case .sortedByTime = order, sampleCount > maxSamplesToReorder {
            printError("Error: \(input): \(sampleCount) samples out of time order: more than the \(maxSamplesToReorder) convert holds to sort them")
            totals.faults += 1
            return
        }
        let page = settings.layout ?? .emptyPage(canvas: CanvasSize(
            width: max(1, bounds.maxX.rounded(.up) + 1), height: max(1, bounds.maxY.rounded(.up) + 1)))
        let placement = page.inkArea.map { InkPlacement.fitting(bounds, into: $0) } ?? .identity
        let fileName = PathText.lastComponent(input)
        let title = summary.annotations["title"].map { " (\($0))" } ?? ""
        let channels = summary.channels.joined(separator: " ")
        let header = SessionHeader(
            canvas: page.canvas, pageTransform: settings.layout?.pageTransform, exercise: settings.layout?.name,
            device: "InkML channels \(channels); answers synthesized from \(settings.layout == nil ? "an empty page" : "layout \"\(page.name)\"") at \(JSONValue.format(settings.latency * 1000)) ms"
                + (summary.notes.isEmpty ? "" : "; " + summary.notes.joined(separator: "; "))
                + (repair.map { "; repaired: " + $0 } ?? ""),
            source: (settings.source.map { "\($0); " } ?? "") + "InkML file \(PathText.shown(fileName))\(title)",
            synthesizedTiming: summary.synthesizedTiming)

        let base = safeName(PathText.baseName(fileName))
        let path = PathText.join(settings.output, base + ".jsonl")
        guard totals.paths.insert(path).inserted else {
            printError("Error: \(input): \(path) was already written from another input of the same name; convert it separately")
            totals.faults += 1
            return
        }
        var writer: SessionLogWriter
        do { writer = try SessionLogWriter(path: path, header: header, inputs: settings.inputs) } catch {
            printError("Error: \(error)")
            totals.faults += 1
            return
        }
        var encoder = RecordedInkEncoder(layout: page, answerLatency: settings.latency, placement: placement)
        guard let second = try? FileByteSource(path: input) else {
            writer.discard()
            printError("Error: \(input): cannot reopen the file")
            totals.faults += 1
            return
        }
        settings.progress?.set(detail: name + " (pass 2 of 2)")
        var again = InkMLReader(source: CountingByteSource(base: second, counted: settings.progress), file: input, options: settings.options)
        do {
            func encode(_ stroke: InkMLStroke) throws {
                do {
                    for event in try encoder.add(stroke.samples) { try writer.write(event) }
                } catch let error as RecordedInkError {
                    printError("Error: \(input):\(stroke.line): trace \(stroke.trace): \(error.message)")
                    totals.faults += 1
                }
            }
            var held: [InkMLStroke] = []   // only to sort them by time
            var index = 0
            while true {
                var stroke: InkMLStroke
                do {
                    guard let next = try again.next() else { break }
                    stroke = next
                } catch {
                    if error.isFatal { break }
                    continue   // reported in pass 1
                }
                defer { index += 1 }
                switch order {
                case .asRecorded: try encode(stroke)
                case .sortedByTime: held.append(stroke)
                case let .realigned(offsets):
                    let offset = index < offsets.count ? offsets[index] : 0
                    for i in stroke.samples.indices { stroke.samples[i].timestamp += offset }
                    try encode(stroke)
                }
            }
            if case let .sortedByTime(sorted) = order {
                for i in sorted where i < held.count { try encode(held[i]) }
            }
            for event in encoder.finish() { try writer.write(event) }
            try writer.finish()
        } catch {
            writer.discard()
            printError("Error: \(error)")
            totals.faults += 1
            return
        }
        totals.written += 1
        totals.strokes += encoder.strokeCount
        totals.samples += writer.sampleCount
    }

    // MARK: Quick, Draw!

    static func convertQuickDraw(_ input: String, _ settings: Settings, _ totals: inout Totals) {
        guard let source = open(input, &totals) else { return }
        settings.progress?.set(detail: PathText.lastComponent(input))
        var stream = QuickDrawStream(source: CountingByteSource(base: source, counted: settings.progress), file: input)
        var converted = 0
        let faultsBefore = totals.faults
        while converted < settings.limit {
            let drawing: QuickDrawDrawing
            do {
                guard let next = try stream.next() else { break }
                drawing = next
            } catch {
                printError("Error: \(error)")
                totals.faults += 1
                continue
            }
            converted += 1
            let word = drawing.word.isEmpty ? "drawing" : safeName(drawing.word.replacingOccurrences(of: " ", with: "-"))
            let key = drawing.keyID.isEmpty ? "\(totals.written + 1)" : safeName(drawing.keyID)
            let path = PathText.join(settings.output, "quickdraw-\(word)-\(key).jsonl")
            guard totals.paths.insert(path).inserted else {
                printError("Error: \(input): drawing \(converted - 1): \(path) was already written in this run (a repeated key_id)")
                totals.faults += 1
                continue
            }
            do {
                var log = try SessionLog(quickDraw: drawing, answerLatency: settings.latency, layout: settings.layout)
                if let source = settings.source { log.header.source = source + "; " + (log.header.source ?? "") }
                try log.write(to: path, inputs: settings.inputs)
                totals.written += 1
                totals.strokes += drawing.strokes.count
                totals.samples += log.sampleCount
            } catch {
                printError("Error: \(input): drawing \(converted - 1): \(error)")
                totals.faults += 1
            }
        }
        if converted == 0, totals.faults == faultsBefore {
            printError("Error: \(input): no drawings (an empty file, or an empty array)")
            totals.faults += 1
        }
    }
}
