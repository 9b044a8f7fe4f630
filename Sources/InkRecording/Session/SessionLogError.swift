@_spi(Tooling) import InkCore
@_spi(Tooling) import HitTestBridge
/// Why a session log, or one line of it, could not be read.
///
/// Every error names the file (when known) and the 1-based line; everything valid before
/// that line is still returned by the reader.
public struct SessionLogError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Sendable, Hashable {
        /// The file could not be opened or read.
        case unreadable(String)
        /// The file holds no header line.
        case empty
        /// The line is not valid JSON (`column` is 1-based, in bytes).
        case malformedJSON(column: Int, message: String)
        /// A field is missing or has the wrong type or value.
        case invalidField(field: String, message: String)
        /// The header names another format.
        case notASessionLog(format: String)
        /// The header names a version newer than this library reads.
        case unsupportedVersion(Int)
        /// The line's `kind` is not one this version knows.
        case unknownKind(String)
        /// The line's time is earlier than the previous line's.
        case timeWentBackwards(previous: Double, got: Double)
        /// A line is longer than the reader accepts; `bytes` is its length when it is known
        /// (`nil` when a file's reading stopped at the cap, without reading the rest).
        case lineTooLong(bytes: Int?, limit: Int)
        /// A line of a chained recording (format version 3) carries no chain, or not as its
        /// last field.
        case unchainedLine
        /// The chain breaks at this line: a line before it was removed, edited or inserted
        /// (or this one was inserted or moved).
        case chainBroken
        /// A line after the recording's `end` line (at `endLine`).
        case afterEnd(endLine: Int)
        /// The `end` line's total of `what` (`lines`, `samples`, `touches`) is not what the
        /// lines before it hold.
        case totalsDisagree(what: String, recorded: Int, read: Int)
        /// A line holding what its header says the log cannot hold (`what`: a recorded-only
        /// kind, a `chain` field, an `end` line) under a header that claims less (`header`):
        /// a header that was edited to switch its recording's checks off.
        case beyondHeader(what: String, header: String)
        /// A line of a chained recording that carries a second `chain` field besides its last.
        case secondChain
    }

    /// The file, when the log came from one.
    public var file: String?
    /// The 1-based line number; 0 for errors about the whole file.
    public var line: Int
    /// What went wrong.
    public var reason: Reason

    /// Creates an error.
    public init(file: String?, line: Int, reason: Reason) {
        self.file = file
        self.line = line
        self.reason = reason
    }

    /// `file:line: message`.
    public var description: String {
        let location = (file ?? "<log>") + (line > 0 ? ":\(line)" : "")
        return "\(location): \(message)"
    }

    /// The message without the location.
    public var message: String {
        switch reason {
        case let .unreadable(why): return "cannot read the file: \(why)"
        case .empty: return "empty file: a session log starts with a header line"
        case let .malformedJSON(column, message): return "malformed JSON at column \(column): \(message)"
        case let .invalidField(field, message): return "\(field): \(message)"
        case let .notASessionLog(format): return "not a session log (format \"\(format)\", expected \"\(SessionHeader.formatName)\")"
        case let .unsupportedVersion(version): return "format version \(version) is newer than this reader (\(SessionHeader.currentVersion))"
        case let .unknownKind(kind): return "unknown event kind \"\(kind)\""
        case let .timeWentBackwards(previous, got): return "time went backwards from \(JSONValue.format(previous)) s to \(JSONValue.format(got)) s"
        case let .lineTooLong(bytes?, limit): return "line of \(bytes) bytes is longer than the limit of \(limit)"
        case let .lineTooLong(nil, limit): return "line is longer than the limit of \(limit) bytes (not read further)"
        case .unchainedLine:
            return "no chain: every line of a chained recording (version 3) ends with its \"chain\" (edited, or not written by a recorder)"
        case .chainBroken:
            return "the chain breaks here: a line before it was removed or edited (or this one inserted or moved)"
        case let .afterEnd(endLine): return "a line after the recording's end (line \(endLine)): added after it was written"
        case let .totalsDisagree(what, recorded, read):
            return "the end line counts \(recorded) \(what), the lines before it hold \(read): lines were removed or added"
        case let .beyondHeader(what, header):
            return "\(what) under \(header), which cannot hold one: was the header edited? (a recording's header cannot switch off its own checks)"
        case .secondChain:
            return "a second \"chain\" field: a chained line carries one, as its last field (edited, or not written by a recorder)"
        }
    }
}
