@_spi(Tooling) import InkCore
@_spi(Tooling) import HitTestBridge
import Foundation

/// Writes a session log to a file one event at a time, so a converter never holds a whole
/// session in memory. Events must come in time order (the writer checks). The text goes to
/// a new temporary file beside `path` and replaces `path` only when ``finish()`` succeeds,
/// and only when `path` is a regular file or absent (a directory, a symbolic link or a
/// device there is refused and left alone), so a failed conversion never leaves half a log
/// behind nor destroys anything.
///
/// ```swift
/// var writer = try SessionLogWriter(path: "out.jsonl", header: header)
/// try writer.write(.regions(snapshot, time: 0))
/// try writer.finish()
/// ```
public struct SessionLogWriter {
    private let path: String
    private var file: OutputFile
    private var pending = ""
    private var tools = HeldTools()
    private var lastTime = -Double.infinity
    /// The number of events written.
    public private(set) var eventCount = 0
    /// The number of real samples in the touch events written.
    public private(set) var sampleCount = 0

    /// Starts a log at `path` with its header line; `inputs` are the files the command reads,
    /// never replaced (``OutputFile``).
    ///
    /// - Throws: ``SessionLogWriterError`` when the file cannot be created, or `path` is one
    ///   of `inputs`.
    public init(path: String, header: SessionHeader, inputs: [String] = []) throws(SessionLogWriterError) {
        self.path = path
        do { file = try OutputFile(path: path, inputs: inputs) } catch { throw SessionLogWriterError(file: path, message: error.message) }
        SessionLog.headerObject(header).write(to: &pending)
        pending += "\n"
    }

    /// Appends one event.
    ///
    /// - Throws: ``SessionLogWriterError`` when the event is earlier than the one before
    ///   it, or the file cannot be written.
    public mutating func write(_ event: SessionEvent) throws(SessionLogWriterError) {
        guard event.time >= lastTime else {
            throw SessionLogWriterError(
                file: path, message: "event \(eventCount + 1) at \(event.time) s is earlier than the one before it (\(lastTime) s)")
        }
        lastTime = event.time
        SessionLog.writeEvent(event, tools: &tools, to: &pending)
        pending += "\n"
        eventCount += 1
        switch event {
        case let .touch(touch, _), let .recorded(.nativePageTouch(touch), _): sampleCount += touch.samples.count
        default: break
        }
        if pending.utf8.count >= 1 << 16 { try flush() }
    }

    private mutating func flush() throws(SessionLogWriterError) {
        do { try file.write(pending) } catch { throw SessionLogWriterError(file: path, message: error.message) }
        pending = ""
    }

    /// Writes what is left, flushes the file to disk and moves it to its real name. On
    /// failure nothing is left behind and `path` is unchanged.
    public mutating func finish() throws(SessionLogWriterError) {
        do throws(SessionLogWriterError) {
            try flush()
            do { try file.commit() } catch { throw SessionLogWriterError(file: path, message: error.message) }
        } catch {
            file.discard()
            throw error
        }
    }

    /// Closes and deletes the temporary file (after a fault that makes the log worthless);
    /// `path` is left as it was.
    public func discard() { file.discard() }
}

/// Why a session log could not be written.
public struct SessionLogWriterError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The log's path.
    public var file: String
    /// What went wrong.
    public var message: String

    /// `file: message`.
    public var description: String { "\(file): \(message)" }
}
