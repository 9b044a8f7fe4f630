import Foundation
@_spi(Tooling) import InkRecording
import InkCore

/// Standard output and standard error, the only way the tool writes to either (issue 40:
/// `host > /dev/full` trapped in `FileHandle.write`, `verify --json > /dev/full` exited 0
/// with its report lost). Every write is a checked `write(2)`; the first failure is kept,
/// what comes after it is counted as lost, and ``finish(_:)`` reports it at exit.
///
/// Standard output is buffered (64 KiB; a line at a time on a terminal) and flushed before
/// anything is written to standard error, so the two keep their order on one terminal.
/// Standard error is written at once.
///
/// A reader that leaves (`| head`: the pipe's reader closes it, the write fails with
/// `EPIPE`; `SIGPIPE` is ignored so that the tool sees it) is not a failure: the tool stops
/// writing there, says nothing, and ends with the status it would have had. Any other
/// failure of standard output (a full disk, `/dev/full`, `ulimit -f`, a closed descriptor)
/// is an error at exit naming "standard output" and how many bytes and lines were lost,
/// exit 1. A failure of standard error cannot be reported anywhere; the exit status still
/// says whether the command succeeded.
final class StandardStream: @unchecked Sendable {
    // @unchecked: every access to the mutable state holds the lock.
    static let output = StandardStream(descriptor: 1, name: "standard output", buffered: true)
    static let error = StandardStream(descriptor: 2, name: "standard error", buffered: false)

    let descriptor: Int32
    /// How messages name it: "standard output".
    let name: String
    private let buffered: Bool
    private let lock = NSLock()
    private var pending: [UInt8] = []
    private var lineAtATime = false
    /// The error number of the first failed write (`nil`: none failed).
    private var failure: Int32?
    private var lost = (bytes: 0, lines: 0)

    private init(descriptor: Int32, name: String, buffered: Bool) {
        self.descriptor = descriptor
        self.name = name
        self.buffered = buffered
        lineAtATime = isatty(descriptor) == 1
    }

    /// Writes `text` (UTF-8).
    func write(_ text: String) {
        if self === Self.error { Self.output.flush() }
        lock.withLock {
            pending.append(contentsOf: text.utf8)
            if !buffered || lineAtATime || pending.count >= 1 << 16 { flushHeld() }
        }
    }

    /// Writes `text` and a newline: what `print` did.
    func line(_ text: String) { write(text + "\n") }

    /// Writes what is held now.
    func flush() { lock.withLock { flushHeld() } }

    /// Whether the reader left (`EPIPE`): nothing more is written, and that is no failure.
    var readerLeft: Bool { lock.withLock { failure == EPIPE } }

    /// Why writing failed, and what was lost, or `nil` when nothing failed or the reader
    /// left: "cannot write (No space left on device): 1234 bytes (15 lines) of output were lost".
    var failureMessage: String? {
        lock.withLock {
            guard let failure, failure != EPIPE else { return nil }
            func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
            return "cannot write (\(String(cString: strerror(failure)))): \(count(lost.bytes, "byte")) (\(count(lost.lines, "line"))) of output \(lost.bytes == 1 ? "was" : "were") lost"
        }
    }

    private func flushHeld() {
        guard !pending.isEmpty else { return }
        defer { pending.removeAll(keepingAtMost: 1 << 17) }
        var written = 0
        if failure == nil {
            let result = pending.withUnsafeBytes { OutputFile.writeAll(descriptor, $0) }
            written = result.written
            failure = result.error
        }
        if written < pending.count {
            lost.bytes += pending.count - written
            lost.lines += pending[written...].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        }
    }

    /// Made once, before anything is written or opened: `SIGPIPE` ignored (a reader that
    /// left is an `EPIPE` the streams see, not a kill), `SIGXFSZ` ignored (a write past
    /// `ulimit -f` fails with `EFBIG` and is reported, instead of killing the process
    /// half-way through a file: the same on Linux and Darwin), and a standard descriptor
    /// that is closed at start (`>&-`) held open on /dev/null for reading only, so that no
    /// file the tool opens takes its number and writes to it fail (`EBADF`) and are reported.
    static func prepare() {
        signal(SIGPIPE, SIG_IGN)
        signal(SIGXFSZ, SIG_IGN)
        for descriptor: Int32 in 0...2 where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            let opened = open("/dev/null", O_RDONLY)
            if opened >= 0, opened != descriptor { _ = dup2(opened, descriptor); _ = close(opened) }
        }
    }

    /// Flushes standard output at exit and checks it: the exit status `status`, or 1 (said
    /// on standard error, naming "standard output" and what was lost) when a write failed
    /// for any reason but a reader that left.
    static func finish(_ status: Int32) -> Int32 {
        output.flush()
        guard let message = output.failureMessage else { return status }
        printError("Error: \(output.name): \(message)")
        return status == 0 ? 1 : status
    }
}

/// Every `print` in the tool: written to ``StandardStream/output``, checked, never through
/// the C library's unchecked buffer. It shadows the standard library's `print` with the same
/// signature, so that no call in this module can reach that one by accident.
func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    StandardStream.output.write(items.map { "\($0)" }.joined(separator: separator) + terminator)
}
