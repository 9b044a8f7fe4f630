import Foundation
@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkCore
@_spi(Tooling) import InkRecording

/// Progress of a long job on standard error, the one place the tool shows it (`convert`,
/// `run`, `verify`, `stats`, `soak`, `bench`): items done of their total (files, sessions,
/// rows, simulated hours), bytes read of their total where known, the rate, and the time
/// left when it can be estimated.
///
/// On a terminal it is one line redrawn in place (`\r`, the text, ESC[K) and ended with a
/// newline when the job finishes; written elsewhere (forced with `--progress` into a file or
/// a pipe) it is complete lines. Either way at most one line per `interval` of the injected
/// clock, and the first only after one interval, so a job that ends sooner shows nothing on
/// a terminal. Only the clock reading is paid per update; nothing is formatted until a line
/// is due. Never standard output: `--json` and tables stay byte-identical with it on.
///
/// The clock (seconds, monotonic) and the sink (where text goes) are injected, so tests
/// drive it with a manual clock and read what it wrote.
final class JobProgress {
    /// How lines are written.
    enum Style: Equatable {
        /// One line redrawn in place: `\r`, text, clear to end of line; a newline at the end.
        case terminal
        /// Complete lines, one per redraw (a file or a pipe).
        case lines
    }

    /// The job's name, first on every line ("convert", "verify").
    let title: String
    /// What is counted, plural ("files", "sessions", "rows", "simulated hours").
    let unit: String
    /// The unit of the rate when bytes are unknown ("sessions/s", "simulated h/s").
    let rateUnit: String
    /// Decimals shown for the count (0 for items, 2 for hours).
    let decimals: Int
    /// The count's total, when known.
    var total: Double?
    /// The bytes to read in all, when known: the rate and the time left are then in bytes.
    var byteTotal: Int?
    let style: Style
    /// The least time between two lines, seconds.
    let interval: Double
    /// Widest terminal line (characters): a longer one would wrap and break the redraw.
    let width: Int
    /// The rate is measured over about this many seconds before now (jobs change pace:
    /// convert's second pass over InkML is slower than its first).
    let window: Double

    private let clock: () -> Double
    private let sink: (String) -> Void
    /// Whether this writes to the process's standard error (so `printError` clears it first).
    private let ownsStandardError: Bool
    private let start: Double
    private var nextDraw: Double
    /// Counted so far.
    private(set) var done = 0.0
    /// Bytes read so far.
    private(set) var bytes = 0
    /// What is happening now (a file name, a benchmark row), shown last.
    private(set) var detail: String?
    /// Whether a terminal line is on screen now.
    private(set) var lineShown = false
    /// Lines written so far (redraws included).
    private(set) var lines = 0
    private var finished = false
    /// What was done (bytes or items) at each line drawn, from the last one at least
    /// `window` before the latest line on: where the rate is measured from.
    private var history: [(time: Double, amount: Double)]
    /// What the rate and the time left count: bytes when their total is known, else items.
    private var amount: Double { byteTotal != nil ? Double(bytes) : done }

    init(title: String, unit: String, rateUnit: String? = nil, decimals: Int = 0, total: Double?, byteTotal: Int? = nil,
         style: Style, interval: Double = 0.25, width: Int = 100, window: Double = 5,
         clock: @escaping () -> Double, sink: @escaping (String) -> Void, ownsStandardError: Bool = false) {
        self.title = title
        self.unit = unit
        self.rateUnit = rateUnit ?? unit + "/s"
        self.decimals = decimals
        self.total = total
        self.byteTotal = byteTotal
        self.style = style
        self.interval = interval
        self.width = width
        self.window = window
        self.clock = clock
        self.sink = sink
        self.ownsStandardError = ownsStandardError
        start = clock()
        nextDraw = start + interval
        history = [(start, 0)]
    }

    // MARK: Updates

    /// Counts `count` more items (or simulated hours) done.
    func advance(by count: Double = 1) {
        done += count
        tick()
    }

    /// Counts `count` more bytes read.
    func advance(bytes count: Int) {
        bytes += count
        tick()
    }

    /// Sets the count done (soak: simulated hours so far).
    func set(done value: Double) {
        done = value
        tick()
    }

    /// What is happening now, shown at the end of the next line (`nil`: nothing).
    func set(detail text: String?) {
        // File names come from the corpus: no control characters reach the terminal.
        detail = text.map { InputText.printable($0, limit: 200) }
        tick()
    }

    /// Draws a line when one is due: the one check every update pays.
    private func tick() {
        let now = clock()
        guard now >= nextDraw, !finished else { return }
        nextDraw = now + interval
        while history.count > 1, history[1].time <= now - window { history.removeFirst() }
        draw(line(now: now))
        history.append((now, amount))
    }

    /// Clears the terminal line, if one is shown, before other text is written to the
    /// terminal (a row of a table, an error); the next update draws it again.
    func clear() {
        guard style == .terminal, lineShown else { return }
        sink("\r\u{1B}[K")
        lineShown = false
        if ownsStandardError { ProgressScreen.shared.set(nil) }
    }

    /// Ends the progress: on a terminal the last line (with the total time) and a newline, when
    /// a line was shown at all; as lines, always one last line.
    func finish() {
        guard !finished else { return }
        finished = true
        let now = clock()
        switch style {
        case .terminal:
            guard lineShown || lines > 0 else { return }
            sink("\r" + fitted(line(now: now, finished: true)) + "\u{1B}[K\n")
            lineShown = false
            if ownsStandardError { ProgressScreen.shared.set(nil) }
        case .lines:
            sink(line(now: now, finished: true) + "\n")
        }
        lines += 1
    }

    private func draw(_ text: String) {
        switch style {
        case .terminal:
            sink("\r" + fitted(text) + "\u{1B}[K")
            lineShown = true
            if ownsStandardError { ProgressScreen.shared.set(self) }
        case .lines:
            sink(text + "\n")
        }
        lines += 1
    }

    private func fitted(_ text: String) -> String {
        text.count <= width ? text : String(text.prefix(width - 1)) + "…"
    }

    // MARK: The text

    /// Items (or hours) per second, or bytes per second when the byte total is known: over
    /// the last `window` seconds or so (measured from the line drawn just before), or over the
    /// whole job with `overall`; `nil` when nothing was done in that time.
    func rate(now: Double, overall: Bool = false) -> Double? {
        let from = overall ? (time: start, amount: 0) : history[0]
        let elapsed = now - from.time
        let change = amount - from.amount
        guard elapsed > 0, change > 0 else { return nil }
        return change / elapsed
    }

    /// Seconds left at the rate so far: `nil` when the total is unknown, nothing is done yet,
    /// or the job is already past its total.
    func secondsLeft(now: Double) -> Double? {
        guard let rate = rate(now: now) else { return nil }
        let remaining: Double
        if let byteTotal { remaining = Double(byteTotal - bytes) } else if let total { remaining = total - done } else { return nil }
        guard remaining >= 0 else { return nil }
        return remaining / rate
    }

    /// The line for the state at `now` (without `\r` or a newline).
    func line(now: Double, finished: Bool = false) -> String {
        var parts: [String] = []
        let count = Self.number(done, decimals: decimals)
        parts.append(total.map { "\(count) of \(Self.number($0, decimals: decimals)) \(unit)" } ?? "\(count) \(unit)")
        if byteTotal != nil || bytes > 0 {
            let read = Self.megabytes(bytes)
            parts.append(byteTotal.map { "\(read) of \(Self.megabytes($0)) MB" } ?? "\(read) MB")
        }
        if let rate = rate(now: now, overall: finished) {
            parts.append(byteTotal != nil ? "\(Self.number(rate / 1e6, decimals: 1)) MB/s"
                                          : "\(Self.number(rate, decimals: rate < 10 ? 2 : 1)) \(rateUnit)")
        }
        if finished {
            parts.append("done in \(Self.duration(now - start))")
        } else if let left = secondsLeft(now: now) {
            parts.append("\(Self.duration(left)) left")
        }
        if !finished, let detail { parts.append(detail) }
        return "\(title): " + parts.joined(separator: ", ")
    }

    static func number(_ value: Double, decimals: Int) -> String {
        String(format: "%.\(decimals)f", value)
    }

    static func megabytes(_ bytes: Int) -> String { number(Double(bytes) / 1e6, decimals: 1) }

    /// "0.4 s", "42 s", "3 min 05 s", "2 h 03 min".
    static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0 else { return "?" }
        if seconds < 10 { return number(seconds, decimals: 1) + " s" }
        let whole = Int(saturating: seconds, rounding: .toNearestOrAwayFromZero)   // an estimate of 1e300 s: Int.max s
        if whole < 60 { return "\(whole) s" }
        if whole < 3_600 { return "\(whole / 60) min " + String(format: "%02d s", whole % 60) }
        return "\(whole / 3_600) h " + String(format: "%02d min", whole % 3_600 / 60)
    }

    // MARK: The command line

    /// `--progress` and `--no-progress`, as a command with progress declares them: `json`
    /// when the command has `--json` (progress is then off by default).
    static func options(json: Bool) -> [Option] {
        [Option("--progress", help: "Show progress on standard error even when it is not a terminal (complete lines then)"
                    + (json ? " or with --json." : ".")),
         Option("--no-progress", help: "Never show progress",
                default: "shown when standard error is a terminal" + (json ? " and --json is not given" : ""))]
    }

    /// Refuses `--progress` with `--no-progress`.
    static let rule = OptionRule(when: .given("--no-progress"), refuses: ["--progress"],
                                 reason: "cannot be given with '--no-progress'")

    /// `true` (`--progress`), `false` (`--no-progress`) or `nil` (neither).
    static func forced(_ arguments: ArgumentList) throws -> Bool? {
        switch (arguments.flag("--progress"), arguments.flag("--no-progress")) {
        case (true, true): throw UsageError(message: "'--progress' and '--no-progress' cannot be given together")
        case (true, false): return true
        case (false, true): return false
        case (false, false): return nil
        }
    }

    /// Whether progress is shown, and how: forced on, it is a terminal line on a terminal and
    /// complete lines elsewhere; forced off, never; by default, on a terminal only, and not
    /// with `--json` (whose reader is a program).
    static func style(forced: Bool?, json: Bool, terminal: Bool) -> Style? {
        switch forced {
        case false?: return nil
        case true?: return terminal ? .terminal : .lines
        case nil: return terminal && !json ? .terminal : nil
        }
    }

    /// The progress of a command on the process's standard error with the monotonic clock,
    /// or `nil` when it is not to be shown (see ``style(forced:json:terminal:)``).
    static func standardError(_ arguments: ArgumentList, title: String, unit: String, rateUnit: String? = nil,
                              decimals: Int = 0, total: Double?, byteTotal: Int? = nil) throws -> JobProgress? {
        guard let style = style(forced: try forced(arguments), json: arguments.declares("--json") && arguments.flag("--json"),
                                terminal: Terminal.standardErrorIsTerminal) else { return nil }
        let clock = ContinuousClock()
        let origin = clock.now
        return JobProgress(
            title: title, unit: unit, rateUnit: rateUnit, decimals: decimals, total: total, byteTotal: byteTotal,
            style: style,
            clock: {
                let elapsed = clock.now - origin
                return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            },
            sink: { StandardStream.error.write($0) },
            ownsStandardError: true)
    }

    /// The total size of `files` in bytes, each counted `times(index)` times (convert reads
    /// InkML twice); a file whose size cannot be read counts nothing (it cannot be read either).
    static func totalSize(_ files: [String], times: (Int) -> Int = { _ in 1 }) -> Int {
        var sum = 0
        for (index, file) in files.enumerated() {
            var info = stat()   // by the name's bytes, links followed
            guard NameBytes.withCString(file, { stat($0, &info) }) == 0 else { continue }
            sum += Int(info.st_size) * times(index)
        }
        return sum
    }
}

/// A byte source that reports the size of each chunk it reads (to a ``JobProgress``).
struct CountingByteSource<Base: ByteSource>: ByteSource {
    var base: Base
    let counted: JobProgress?

    mutating func read(upTo maxCount: Int) throws(ByteSourceError) -> [UInt8] {
        let chunk = try base.read(upTo: maxCount)
        counted?.advance(bytes: chunk.count)
        return chunk
    }
}

/// The terminal line of the progress on standard error, if one is shown: an error message
/// printed meanwhile (``printError(_:)``) clears it first, so the message starts its own line.
final class ProgressScreen: @unchecked Sendable {
    static let shared = ProgressScreen()
    private let lock = NSLock()
    private var shown: JobProgress?

    func set(_ progress: JobProgress?) {
        lock.lock()
        shown = progress
        lock.unlock()
    }

    /// Clears the line shown, if any.
    func clear() {
        lock.lock()
        let progress = shown
        lock.unlock()
        progress?.clear()
    }
}
