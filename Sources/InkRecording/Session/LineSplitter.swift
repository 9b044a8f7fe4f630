@_spi(Tooling) import InkCore
@_spi(Tooling) import HitTestBridge
/// Splits a byte stream that arrives in arbitrary pieces into lines, holding at most
/// `maxLineBytes` of any line: a longer line is reported once, as ``Piece/tooLong(bytes:)``
/// with its length when its newline (or the end) shows; its bytes are dropped, not held, and
/// the lines after it come out as usual, whichever piece they arrived in. A final line without a newline comes out at ``finish()``. A
/// carriage return before the newline is removed.
package struct LineSplitter {
    package enum Piece: Equatable, Sendable {
        /// A complete line, without its line ending.
        case line([UInt8])
        /// A line longer than the cap, and its length without its line ending; its bytes
        /// were not kept.
        case tooLong(bytes: Int)
    }

    package let maxLineBytes: Int
    private var pending: [UInt8] = []
    /// The length of the over-long line being dropped, while one is, and whether its last
    /// byte so far is a CR (not counted when the newline follows).
    private var discarded: Int?
    private var discardedEndsInCR = false

    package init(maxLineBytes: Int) { self.maxLineBytes = maxLineBytes }

    /// Whether a line over the cap is being dropped, its newline not seen yet: a reader that
    /// stops at such a line stops here, without reading the rest of it (which may not end).
    package var isDroppingLine: Bool { discarded != nil }

    /// Whether no part of a line is held or being dropped: the next byte fed starts a line
    /// (a reader may then take a line wholly inside its buffer without feeding it).
    package var isIdle: Bool { pending.isEmpty && discarded == nil }

    /// The lines completed by `bytes`, in order.
    package mutating func feed(_ bytes: some BidirectionalCollection<UInt8>, into pieces: inout [Piece]) {
        var rest = bytes[...]
        while !rest.isEmpty {
            let newline = rest.firstIndex(of: 0x0A)
            let segment = rest[..<(newline ?? rest.endIndex)]
            if let count = discarded {
                discarded = count + segment.count
                if let last = segment.last { discardedEndsInCR = last == 0x0D }
            } else if pending.count + segment.count > maxLineBytes + 1 {
                // A line ending in CR LF may hold its cap plus the CR until the LF shows.
                discarded = pending.count + segment.count
                discardedEndsInCR = (segment.last ?? pending.last) == 0x0D
                pending = []
            } else {
                pending.append(contentsOf: segment)
            }
            guard let newline else { break }
            if let count = discarded {
                pieces.append(.tooLong(bytes: count - (discardedEndsInCR ? 1 : 0)))
                discarded = nil
            } else {
                pieces.append(complete())
            }
            rest = rest[rest.index(after: newline)...]
        }
        // A line over its cap without its newline yet (the CR allowance is only for CR LF).
        if discarded == nil, pending.count > maxLineBytes, pending.last != 0x0D {
            discarded = pending.count
            discardedEndsInCR = false
            pending = []
        }
    }

    /// The last line, when the input ended without a newline after it.
    package mutating func finish() -> Piece? {
        defer { pending = []; discarded = nil }
        if let discarded { return .tooLong(bytes: discarded) }   // no newline followed: a CR is content
        guard !pending.isEmpty else { return nil }
        return complete()
    }

    /// The line held, handed out with its storage: the splitter starts the next line in new
    /// storage, sized by what that line holds (issue 53: it kept the capacity of the longest
    /// line while the line handed out shared it, so every later line allocated that much).
    private mutating func complete() -> Piece {
        var line: [UInt8] = []
        swap(&line, &pending)
        if line.last == 0x0D { line.removeLast() }
        return line.count > maxLineBytes ? .tooLong(bytes: line.count) : .line(line)
    }

    /// The bytes of storage the splitter holds between lines (for tests): at most what the
    /// line in progress holds, twice over, never the size of an earlier line.
    package var retainedBytes: Int { pending.capacity }
}
