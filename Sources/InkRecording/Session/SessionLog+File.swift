@_spi(Tooling) import InkCore
@_spi(Tooling) import HitTestBridge
import Foundation

extension SessionLog {
    /// Reads a session log file, streaming: a window of 64 KiB and one line at a time, never
    /// more than ``maxLineBytes`` of a line, so what it holds is the parsed log, not the file
    /// (a line over the cap stops the reading there, as any bad line does). A file that
    /// cannot be opened is reported as a failure at line 0, with the reason.
    ///
    /// - Parameters:
    ///   - path: The log file.
    ///   - onRead: Called with the size of each chunk read, synchronously, as
    ///     ``SessionLogEvents/init(contentsOf:onRead:)`` calls it (a progress display counts
    ///     bytes with it); `nil` (the default) calls nothing.
    public static func read(contentsOf path: String, onRead: ((_ byteCount: Int) -> Void)? = nil) -> SessionLogReadResult {
        var events = SessionLogEvents(contentsOf: path, onRead: onRead)
        guard let header = events.header else { return SessionLogReadResult(log: nil, failure: events.failure) }
        var log = SessionLog(header: header)
        while let (event, line) = events.next() {
            log.events.append(event)
            if let line { log.eventLines.append(line) }
        }
        return SessionLogReadResult(log: log, failure: events.failure)
    }

    /// Writes the log as JSON Lines to a file: through a temporary file beside it, renamed
    /// over `path` only when `path` is a regular file or absent and not one of `inputs`.
    /// - Parameters:
    ///   - path: The file to write.
    ///   - inputs: The files the command reads (``OutputFile``): never replaced.
    /// - Throws: an error describing the path when the file cannot be written, or when
    ///   `path` is a directory, a symbolic link or another non-regular file, or one of
    ///   `inputs` (left alone).
    public func write(to path: String, inputs: [String] = []) throws {
        try OutputFile.write(jsonLines(), to: path, inputs: inputs)
    }
}
