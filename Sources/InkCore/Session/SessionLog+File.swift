import Foundation

extension SessionLog {
    /// Reads a session log file, streaming: a window of 64 KiB and one line at a time, never
    /// more than ``maxLineBytes`` of a line, so what it holds is the parsed log, not the file
    /// (a line over the cap stops the reading there, as any bad line does). A file that
    /// cannot be opened is reported as a failure at line 0, with the reason.
    public static func read(contentsOf path: String) -> SessionLogReadResult {
        var source: FileByteSource
        do { source = try FileByteSource(path: path) } catch {
            return SessionLogReadResult(log: nil, failure: SessionLogError(file: path, line: 0, reason: .unreadable(error.message)))
        }
        var reader = SessionLogLineReader(file: path)
        var lines = LineSplitter(maxLineBytes: maxLineBytes)
        var pieces: [LineSplitter.Piece] = []
        var number = 0
        func take(_ piece: LineSplitter.Piece) -> Bool {
            number += 1
            switch piece {
            case let .line(bytes): return reader.read(line: bytes, number: number)
            case let .tooLong(bytes): return reader.refuse(lineOf: bytes, number: number)
            }
        }
        reading: while true {
            let chunk: [UInt8]
            do { chunk = try source.read(upTo: 1 << 16) } catch {
                _ = reader.refuse(unreadable: error.message, number: number + 1)
                break
            }
            if chunk.isEmpty {
                if let last = lines.finish() { _ = take(last) }
                break
            }
            lines.feed(chunk, into: &pieces)
            for piece in pieces where !take(piece) { break reading }
            pieces.removeAll(keepingCapacity: true)
        }
        return reader.finish()
    }

    /// Writes the log as JSON Lines to a file: through a temporary file beside it, renamed
    /// over `path` only when `path` is a regular file or absent.
    /// - Throws: an error describing the path when the file cannot be written, or when
    ///   `path` is a directory, a symbolic link or another non-regular file (left alone).
    public func write(to path: String) throws {
        try OutputFile.write(jsonLines(), to: path)
    }
}
