import Foundation

extension SessionLog {
    /// Reads a session log file. An unreadable file is reported as a failure at line 0.
    public static func read(contentsOf path: String) -> SessionLogReadResult {
        guard let data = FileManager.default.contents(atPath: path) else {
            let why = FileManager.default.fileExists(atPath: path) ? "permission denied or not a regular file" : "no such file"
            return SessionLogReadResult(log: nil, failure: SessionLogError(file: path, line: 0, reason: .unreadable(why)))
        }
        return parse(Array(data), file: path)
    }

    /// Writes the log as JSON Lines to a file: through a temporary file beside it, renamed
    /// over `path` only when `path` is a regular file or absent.
    /// - Throws: an error describing the path when the file cannot be written, or when
    ///   `path` is a directory, a symbolic link or another non-regular file (left alone).
    public func write(to path: String) throws {
        try OutputFile.write(jsonLines(), to: path)
    }
}
