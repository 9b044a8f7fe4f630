import Foundation

/// A file a live recording streams to, by the one output-file policy (``OutputFile``): the
/// lines a `SessionRecorder` (HitTestBridge) hands its sink go to a temporary file beside the
/// target as they come, and ``commit()`` renames it into place when the session ends. Killed
/// before that, the front end leaves the lines written so far in the temporary file
/// (`.<name>.<random>.tmp`) and the target untouched.
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
    // @unchecked: every access to `file` and `failure` holds the lock.
    private let lock = NSLock()
    private var file: OutputFile
    private var failure: OutputFileError?
    /// The target path.
    public let path: String

    /// Checks the target and creates the temporary file beside it.
    /// - Parameters:
    ///   - path: Where the recording goes.
    ///   - inputs: The files the front end reads (a page, a log it plays): never replaced.
    /// - Throws: ``OutputFileError`` when the target is refused (see ``OutputFile``).
    public init(path: String, inputs: [String] = []) throws(OutputFileError) {
        file = try OutputFile(path: path, inputs: inputs)
        self.path = path
    }

    /// The recorder's sink: writes `bytes` (whole lines) to the temporary file and returns
    /// `true`, or `false` once a write has failed (the recorder then counts what it leaves
    /// out, and ``commit()`` reports the failure).
    public func offer(_ bytes: [UInt8]) -> Bool {
        lock.withLock {
            guard failure == nil else { return false }
            do throws(OutputFileError) { try file.write(bytes: bytes) } catch {
                failure = error
                return false
            }
            return true
        }
    }

    /// Renames the recording into place; after a failed write, removes the temporary file
    /// and throws that failure instead.
    /// - Throws: ``OutputFileError``: the first failed write, or the rename's failure.
    public func commit() throws(OutputFileError) {
        let result: Result<Void, OutputFileError> = lock.withLock {
            if let failure {
                file.discard()
                return .failure(failure)
            }
            do throws(OutputFileError) { try file.commit() } catch { return .failure(error) }
            return .success(())
        }
        try result.get()
    }
}
