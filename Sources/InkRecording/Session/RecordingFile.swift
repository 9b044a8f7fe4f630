import Foundation

/// A file a live recording streams to, by the one output-file policy (``OutputFile``): the
/// lines a `SessionRecorder` (HitTestBridge) hands its sink are written through to a
/// temporary file beside the target as they come (no buffer of its own: each offer is one
/// checked `write(2)`), and ``commit()`` renames it into place when the session ends. Killed
/// before that, the front end leaves every line offered so far in the temporary file
/// (`.<name>.<random>.tmp`) and the target untouched.
///
/// A target the final rename could not reach (a name too long, another user's file in a
/// sticky directory) is refused by ``init(path:inputs:)``, before the session. When a write
/// fails (a full disk, `ulimit -f`), the file is cut back to the last whole line, the lines
/// after it are counted (``linesLost``, ``bytesLost``) and not held, and ``commit()`` throws,
/// naming the temporary file it keeps; when the final rename fails, the whole recording is
/// kept there too. A recording is never deleted.
///
/// Every tool that records (`ink-replay host --record`, `scratchpad-gtk --record`) uses it as
/// the recorder's sink:
///
/// ```swift
/// let file = try RecordingFile(path: "session.jsonl", inputs: [pagePath])
/// var recorder = SessionRecorder(canvasWidth: 1024, canvasHeight: 768) { file.offer($0) }
/// // … record, then:
/// recorder.flush()
/// try file.commit()
/// ```
///
/// An app ships its recordings its own way; this type is tooling, not part of what an app
/// links.
public final class RecordingFile: @unchecked Sendable {
    // @unchecked: every access to the mutable state holds the lock.
    private let lock = NSLock()
    private var file: OutputFile
    private var failure: OutputFileError?
    private var written = (lines: 0, bytes: 0)
    private var lost = (lines: 0, bytes: 0)
    /// The target path.
    public let path: String
    /// The temporary file the lines go to until ``commit()``.
    public var temporaryPath: String { file.temporaryPath }

    /// Checks the target and creates the temporary file beside it.
    /// - Parameters:
    ///   - path: Where the recording goes.
    ///   - inputs: The files the front end reads (a page, a log it plays): never replaced
    ///     (nor is the process's standard input, when it is a regular file).
    /// - Throws: ``OutputFileError`` when the target is refused (see ``OutputFile``).
    public init(path: String, inputs: [String] = []) throws(OutputFileError) {
        file = try OutputFile(path: path, inputs: inputs)
        self.path = path
    }

    /// Lines in the temporary file so far.
    public var linesWritten: Int { lock.withLock { written.lines } }
    /// Lines offered after a write failed (the one that failed included): not in the file.
    public var linesLost: Int { lock.withLock { lost.lines } }
    /// Bytes offered after a write failed (the one that failed included): not in the file.
    public var bytesLost: Int { lock.withLock { lost.bytes } }

    /// The recorder's sink: writes `bytes` (whole lines) to the temporary file at once and
    /// returns `true`. After a failed write it still returns `true`, holding nothing: the
    /// lines are counted as lost (the file cannot take them), and ``commit()`` reports it.
    @discardableResult
    public func offer(_ bytes: [UInt8]) -> Bool {
        let lines = Self.newlines(bytes)
        lock.withLock {
            if failure == nil {
                do throws(OutputFileError) {
                    try file.write(bytes: bytes)
                    try file.flush()
                    written.lines += lines
                    written.bytes += bytes.count
                    return
                } catch {
                    failure = error
                    _ = file.truncate(to: written.bytes)   // the part of a line that got through
                }
            }
            lost.lines += lines
            lost.bytes += bytes.count
        }
        return true
    }

    /// Renames the recording into place. After a failed write, or when the rename fails,
    /// keeps the temporary file (the lines written, every one whole) and throws, naming it.
    /// - Throws: ``OutputFileError``: the first failed write, or the rename's failure, with
    ///   what was lost and where what was written is.
    public func commit() throws(OutputFileError) {
        let result: Result<Void, OutputFileError> = lock.withLock {
            if let failure {
                try? file.commit(keepingOnFailure: true, renaming: false)
                let reason = file.writeError.map { String(cString: strerror($0)) } ?? failure.message
                return .failure(OutputFileError(path: path, message: "cannot write (\(reason)): "
                    + "\(Self.count(lost.lines, "line")) (\(Self.count(lost.bytes, "byte"))) of the recording were not written; "
                    + "the \(Self.count(written.lines, "line")) before them \(written.lines == 1 ? "is" : "are") kept in \(file.temporaryPath); "
                    + "\(path) is unchanged"))
            }
            do throws(OutputFileError) { try file.commit(keepingOnFailure: true) } catch {
                return .failure(OutputFileError(path: path, message: (file.keptBecause ?? error.message)
                    + "; the whole recording (\(Self.count(written.lines, "line"))) is kept in \(file.temporaryPath)"))
            }
            return .success(())
        }
        try result.get()
    }

    /// How many line feeds `bytes` holds.
    static func newlines(_ bytes: [UInt8]) -> Int {
        bytes.withUnsafeBufferPointer { buffer in
            var count = 0
            for byte in buffer where byte == 0x0A { count += 1 }
            return count
        }
    }

    /// `1 line`, `2 lines`.
    private static func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
}
