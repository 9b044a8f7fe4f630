import Foundation
@_spi(Tooling) import InkCore

/// A session log read one event at a time: from a file, streaming (a 64 KiB window and one
/// line of at most ``SessionLog/maxLineBytes``, so memory does not grow with the file), or
/// from a log in memory. Replays read through it.
///
/// ```swift
/// var events = SessionLogEvents(contentsOf: "session.jsonl")
/// while let (event, line) = events.next() { … }
/// if let failure = events.failure { print(failure) }   // the first bad line, if any
/// ```
public struct SessionLogEvents {
    /// The header, or `nil` when it could not be read (``failure`` says why).
    public private(set) var header: SessionHeader?
    /// The first fault: a bad line stops the events there, as it stops any reading.
    public private(set) var failure: SessionLogError?
    /// The file name, when reading one.
    public let file: String?
    /// Real samples in the touch events read so far.
    public private(set) var samples = 0

    /// What a live recording proves about itself (``RecordingIntegrity``), from the lines read
    /// so far: meaningful once ``next()`` returned `nil` without a ``failure``. A log in
    /// memory says what its events say (``SessionLog/integrity``).
    public var integrity: RecordingIntegrity {
        if let memoryIntegrity { return memoryIntegrity }
        return reader.integrity
    }
    private var memoryIntegrity: RecordingIntegrity?

    private enum Source {
        case file(FileByteSource)
        case memory(SessionLog, next: Int)
        case done
    }

    private var source: Source
    private var reader: SessionLogLineReader
    private var splitter = LineSplitter(maxLineBytes: SessionLog.maxLineBytes)
    private var pieces: [LineSplitter.Piece] = []
    private var pieceIndex = 0
    /// The last chunk read, and where its unread part starts.
    private var chunk: [UInt8] = []
    private var cursor = 0
    private var number = 0
    private let onRead: ((Int) -> Void)?
    /// With ``init(contentsOf:byteLimit:onRead:)``: the bytes after which the reading stops.
    private var byteLimit = Int.max
    private var bytesRead = 0

    /// Opens a file and reads up to its header.
    ///
    /// - Parameters:
    ///   - path: The log file.
    ///   - onRead: Called with the size of each chunk read from the file (at most 64 KiB),
    ///     synchronously, on the caller's thread, from this initializer and from ``next()``:
    ///     what a progress display counts. Never called after the end of the file; `nil`
    ///     (the default) calls nothing.
    public init(contentsOf path: String, onRead: ((_ byteCount: Int) -> Void)? = nil) {
        self.init(contentsOf: path, byteLimit: nil, onRead: onRead)
    }

    /// Opens a file and reads up to its header, reading no further once more than
    /// `byteLimit` bytes were read (the chunk that passes it is the last): the events then
    /// end with an `unreadable` ``failure``, so a command that holds what it reads stops
    /// there even on a pipe that never ends or sends no event (blank lines), and says why
    /// by its own count of the bytes (`onRead`).
    package init(contentsOf path: String, byteLimit: Int?, onRead: ((_ byteCount: Int) -> Void)? = nil) {
        file = path
        self.onRead = onRead
        self.byteLimit = byteLimit ?? Int.max
        reader = SessionLogLineReader(file: path)
        do { source = .file(try FileByteSource(path: path)) } catch {
            source = .done
            failure = SessionLogError(file: path, line: 0, reason: .unreadable(error.message))
            return
        }
        while header == nil, failure == nil {
            guard let bytes = nextLine() else { break }
            switch reader.take(line: bytes, number: number) {
            case .blank: continue
            case let .header(header): self.header = header
            case .event, .failed: failure = reader.firstFailure
            }
        }
        if header == nil, failure == nil { failure = reader.firstFailure ?? SessionLogError(file: path, line: 0, reason: .empty) }
    }

    /// The events of a log already in memory (a fault the reading met can be passed on).
    public init(_ log: SessionLog, file: String? = nil, failure: SessionLogError? = nil) {
        self.file = file
        header = log.header
        self.failure = failure
        reader = SessionLogLineReader(file: file)
        source = .memory(log, next: 0)
        memoryIntegrity = log.integrity
        onRead = nil
    }

    /// The next event and its line (`nil` for a log built in code), or `nil` at the end or
    /// at the first bad line (then ``failure`` is set).
    public mutating func next() -> (event: SessionEvent, line: Int?)? {
        var line: Int?
        guard let event = next(line: &line) else { return nil }
        return (event, line)
    }

    /// The next event, its line put in `line` (`nil` for a log built in code); `nil` at the
    /// end or at the first bad line (then ``failure`` is set). ``next()`` without a tuple.
    package mutating func next(line: inout Int?) -> SessionEvent? {
        // A file first, its case matched without binding: a `switch` binding the cases would
        // copy the source (a log in memory is large) on every line.
        if case .file = source {
            while case .none = failure, let bytes = nextLine() {
                switch reader.take(line: bytes, number: number) {
                case .blank: continue
                case let .event(event):
                    count(event)
                    line = number
                    return event
                case .header, .failed:
                    failure = reader.firstFailure
                }
            }
            source = .done
            return nil
        }
        switch source {
        case .done, .file:
            return nil
        case let .memory(log, index):
            guard index < log.events.count else {
                source = .done
                return nil
            }
            source = .memory(log, next: index + 1)
            count(log.events[index])
            line = log.line(ofEvent: index)
            return log.events[index]
        }
    }

    private mutating func count(_ event: SessionEvent) {
        switch event {
        case let .touch(touch, _), let .recorded(.nativePageTouch(touch), _): samples += touch.samples.count
        default: break
        }
    }

    /// The next line of the file, split and capped (its number is ``number``); `nil` at the
    /// end or on a fault.
    private mutating func nextLine() -> ArraySlice<UInt8>? {
        while true {
            if pieceIndex < pieces.count {
                let piece = pieces[pieceIndex]
                pieceIndex += 1
                number += 1
                switch piece {
                case let .line(bytes): return bytes[...]
                case let .tooLong(bytes):
                    _ = reader.refuse(lineOf: bytes, number: number)
                    failure = reader.firstFailure
                    return nil
                }
            }
            if cursor < chunk.count {
                let newline = Self.firstNewline(in: chunk, from: cursor)
                if let newline, splitter.isIdle, newline - cursor <= splitter.maxLineBytes {
                    // A line wholly inside the chunk: handed on in place, not copied.
                    var end = newline
                    if end > cursor, chunk[end - 1] == 0x0D { end -= 1 }
                    let line = chunk[cursor..<end]
                    cursor = newline + 1
                    number += 1
                    return line
                }
                // The end of a line begun in an earlier chunk, or the start of one that ends
                // in a later one: through the splitter, which holds it (up to its cap).
                pieces.removeAllBounded()
                pieceIndex = 0
                let end = newline.map { $0 + 1 } ?? chunk.count
                splitter.feed(chunk[cursor..<end], into: &pieces)
                cursor = end
                continue
            }
            guard case var .file(byteSource) = source else { return nil }
            if splitter.isDroppingLine {
                // The next line is over the cap and has not ended: stop here rather than
                // read the rest of it (a link to /dev/zero, a FIFO, never ends one).
                _ = reader.refuse(lineOf: nil, number: number + 1)
                failure = reader.firstFailure
                source = .done
                return nil
            }
            pieces.removeAllBounded()
            pieceIndex = 0
            do { chunk = try byteSource.read(upTo: 1 << 16) } catch {
                _ = reader.refuse(unreadable: error.message, number: number + 1)
                failure = reader.firstFailure
                source = .done
                return nil
            }
            source = .file(byteSource)
            if !chunk.isEmpty { onRead?(chunk.count) }
            bytesRead += chunk.count
            if bytesRead > byteLimit {
                _ = reader.refuse(unreadable: "read no further than \(byteLimit) bytes (the limit it was opened with)", number: number + 1)
                failure = reader.firstFailure
                source = .done
                return nil
            }
            if chunk.isEmpty {
                source = .done
                guard let last = splitter.finish() else { return nil }
                pieces = [last]
                continue
            }
            cursor = 0
        }
    }

    /// The index of the first LF in `bytes` at or after `start` (which is in range), eight
    /// bytes at a time.
    private static func firstNewline(in bytes: [UInt8], from start: Int) -> Int? {
        bytes.withUnsafeBufferPointer { buffer in
            let raw = UnsafeRawPointer(buffer.baseAddress!)
            var i = start
            while i + 8 <= buffer.count {
                // A zero byte of word ^ LFs is an LF; the lowest flagged byte is the first one.
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) ^ 0x0A0A_0A0A_0A0A_0A0A
                let zero = (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
                if zero != 0 { return i + zero.trailingZeroBitCount >> 3 }
                i += 8
            }
            while i < buffer.count {
                if buffer[i] == 0x0A { return i }
                i += 1
            }
            return nil
        }
    }
}
