import Foundation
@_spi(Tooling) import InkRecording
@_spi(Tooling) import SessionReplay

/// One part of a corpus split for a CI matrix: the `index`-th (1-based) of `count`.
struct Shard: Equatable, Sendable {
    var index: Int
    var count: Int

    /// `2/3`.
    var text: String { "\(index)/\(count)" }

    /// The most shards a run is cut into (`--shard k/n` takes n up to this).
    static let maxCount = 100_000

    /// The positions (in path order) of this shard's sessions among `total`: the `index`-th
    /// of `count` consecutive runs whose lengths differ by one at most. Exact for any `total`
    /// (the products are taken in full width).
    func range(of total: Int) -> Range<Int> {
        func cut(_ k: Int) -> Int { count.dividingFullWidth(k.multipliedFullWidth(by: total)).quotient }
        return cut(index - 1)..<cut(index)
    }
}

/// The options `verify` and `run` take for CI: threads, shards, a JUnit report.
enum CIOptions {
    static let jobsOption = Option(
        "--jobs", "-j", kind: .integer("n", 1...1_024),
        help: "Replay this many sessions at once, each on its own thread; the output and the exit code are those of one job",
        default: "the machine's active cores, \(ProcessInfo.processInfo.activeProcessorCount) here")
    /// `--shard`; `merged` when `merge-reports` reads the command's `--json` reports.
    static func shardOption(merged: Bool) -> Option {
        Option("--shard", kind: .text("k/n"),
               help: "Replay only the k-th of n parts of the sessions (1-based; the sessions sorted by path and cut into n runs of nearly equal length), for a CI matrix."
                   + (merged ? " 'ink-replay merge-reports' joins the parts' --json reports into the verdict of one run." : ""))
    }
    static let junitOption = Option(
        "--junit", kind: .text("file"),
        help: "Also write a JUnit XML report there: one test case per session, a failure with the file, line and sentence of each problem.")

    /// `--jobs`, `--shard`, `--junit`; `merged` as for ``shardOption(merged:)``.
    static func all(merged: Bool) -> [Option] { [jobsOption, shardOption(merged: merged), junitOption] }

    static func jobs(_ arguments: ArgumentList) -> Int {
        arguments.integer("--jobs") ?? max(1, ProcessInfo.processInfo.activeProcessorCount)
    }

    /// The `--shard k/n` given, if any.
    static func shard(_ arguments: ArgumentList) throws -> Shard? {
        guard let text = arguments.string("--shard") else { return nil }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        // Plain decimal digits only (`Int` also reads `+2`).
        let digits = { (part: Substring) in !part.isEmpty && part.utf8.count <= 6 && part.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") } }
        guard parts.count == 2, digits(parts[0]), digits(parts[1]), let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, n <= Shard.maxCount, k >= 1, k <= n else {
            throw UsageError(message: "'--shard' takes k/n in decimal digits, with 1 <= k <= n <= \(Shard.maxCount) (as in 2/3), not '\(text)'")
        }
        return Shard(index: k, count: n)
    }

    /// The positions in `files` of a shard's sessions, in `files`' order: the files sorted
    /// by path (then position) and cut into `count` consecutive runs whose lengths differ by
    /// one at most. Every session is in exactly one shard.
    static func share(of files: [String], shard: Shard) -> [Int] {
        let sorted = files.indices.sorted { (files[$0], $0) < (files[$1], $1) }
        return sorted[shard.range(of: files.count)].sorted()
    }

    /// Writes the JUnit report of `reports` to `file` (made before the replay, by the
    /// output-file policy) and renames it into place: `true`, or `false` when it could not
    /// be written (said on standard error, naming the file; the temporary file is removed).
    /// Called after the verdict is printed, so that a report that cannot be written hides
    /// neither the verdict nor the failures.
    static func writeJUnit(_ reports: [ReplayReport], suite: String, to file: inout OutputFile?) -> Bool {
        guard var opened = file else { return true }
        file = nil
        do throws(OutputFileError) {
            try opened.write(JUnitReport.xml(reports, suite: suite))
            try opened.commit()
            return true
        } catch {
            opened.discard()
            printError("Error: --junit \(error.description): the JUnit report (\(reports.count) test cases) was not written")
            return false
        }
    }
}

/// A JUnit XML report of replayed sessions, in the form CI systems read (Jenkins, GitLab,
/// GitHub actions' test reporters): `<testsuites>`, one `<testsuite>`, one `<testcase>` per
/// session (`classname` its directory with dots, `name` its file name), a `<failure>` per
/// failed session whose `message` is its first problem and whose text is every line
/// `verify` prints for it.
enum JUnitReport {
    static func xml(_ reports: [ReplayReport], suite: String) -> String {
        let failed = reports.filter { !$0.isVerified }.count
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites name=\"ink-replay\" tests=\"\(reports.count)\" failures=\"\(failed)\" errors=\"0\">\n"
        out += "  <testsuite name=\"\(attribute(suite))\" tests=\"\(reports.count)\" failures=\"\(failed)\" errors=\"0\" skipped=\"0\">\n"
        for report in reports {
            let file = report.file.map(PathText.shown) ?? "<log>"
            let (directory, name) = split(file)
            out += "    <testcase classname=\"\(attribute(directory))\" name=\"\(attribute(name))\" file=\"\(attribute(file))\""
            guard !report.isVerified else { out += "/>\n"; continue }
            let lines = Summary.failures(of: report).map { "\(Summary.location(report, $0.line)): \($0.message)" }
            out += ">\n      <failure message=\"\(attribute(lines.first ?? "\(file): did not verify"))\" type=\"NotVerified\">"
            out += XMLText.escaped(lines.joined(separator: "\n")) + "</failure>\n    </testcase>\n"
        }
        out += "  </testsuite>\n</testsuites>\n"
        return out
    }

    /// `Fixtures/strokes/tap.jsonl` → (`Fixtures.strokes`, `tap.jsonl`).
    static func split(_ path: String) -> (String, String) {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard let name = parts.last else { return ("", path) }
        let directory = parts.dropLast().filter { $0 != "." }.joined(separator: ".")
        return (directory.isEmpty ? "." : directory, name)
    }

    /// Text for a double-quoted attribute: escaped, and line breaks and tabs kept as
    /// character references (a parser would turn them into spaces otherwise).
    static func attribute(_ text: String) -> String {
        XMLText.escaped(text).replacingOccurrences(of: "\n", with: "&#10;")
            .replacingOccurrences(of: "\r", with: "&#13;").replacingOccurrences(of: "\t", with: "&#9;")
    }
}

/// Replays sessions on worker threads; the reports come back in the files' order.
enum SessionWorkers {
    /// Replays `files` with `jobs` threads (on this one when `jobs` is 1 or there is one
    /// file): each worker takes the next file not yet taken and streams it as one job does.
    /// Threads the system refuses make a smaller pool, said on standard error (with none, the
    /// calling thread replays them all).
    static func replay(_ files: [String], jobs: Int, replayer: SessionReplayer, progress: JobProgress?) -> [ReplayReport] {
        let shared = SharedProgress(progress)
        let one: @Sendable (String) -> ReplayReport = { file in
            shared.detail(PathText.lastComponent(file))
            let report = shared.isShown
                ? replayer.replay(SessionLogEvents(contentsOf: file, onRead: { shared.advance(bytes: $0) }))
                : replayer.replay(contentsOf: file)
            shared.advance()
            return report
        }
        let workers = min(jobs, files.count)
        guard workers > 1 else { return files.map(one) }
        let slots = ReportSlots(count: files.count)
        // Each thread asked for can be refused (a process limit, no address space for its
        // stack): the pool is then smaller, and says so; it never waits for a thread that
        // does not exist (issue 53).
        let pool = WorkerThreads.start(workers, stackBytes: workerStackBytes) { _ in
            while let index = slots.take() { slots.put(one(files[index]), at: index) }
        }
        if let reason = pool.refusalText {
            let started = pool.running == 0 ? "no worker thread could be started" : "\(pool.running) of \(workers) worker threads run"
            printError("Note: --jobs \(jobs): the system refused a thread (\(reason)): \(started)"
                       + (pool.running == 0 ? "; the sessions are replayed on this thread alone" : " (half of those it started, to leave room)"))
        }
        if pool.running == 0 {
            while let index = slots.take() { slots.put(one(files[index]), at: index) }
        }
        pool.join()
        return slots.reports()
    }

    /// A worker's stack: as the main thread's (a replay is no deeper on a worker).
    static let workerStackBytes = 8 << 20

    /// The workers' shared list: which file is next, and each file's report.
    private final class ReportSlots: @unchecked Sendable {
        private let lock = NSLock()
        private var next = 0
        private var slots: [ReplayReport?]

        init(count: Int) { slots = Array(repeating: nil, count: count) }

        func take() -> Int? {
            lock.withLock {
                guard next < slots.count else { return nil }
                defer { next += 1 }
                return next
            }
        }

        func put(_ report: ReplayReport, at index: Int) { lock.withLock { slots[index] = report } }

        func reports() -> [ReplayReport] { lock.withLock { slots.map { $0! } } }
    }

    /// The progress display, updated under a lock from any worker.
    private final class SharedProgress: @unchecked Sendable {
        private let lock = NSLock()
        private let progress: JobProgress?

        init(_ progress: JobProgress?) { self.progress = progress }

        var isShown: Bool { progress != nil }
        func detail(_ text: String) { guard let progress else { return }; lock.withLock { progress.set(detail: text) } }
        func advance(bytes: Int) { guard let progress else { return }; lock.withLock { progress.advance(bytes: bytes) } }
        func advance() { guard let progress else { return }; lock.withLock { progress.advance() } }
    }
}
