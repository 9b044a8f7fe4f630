/// Splits a byte stream that arrives in arbitrary pieces into lines, holding at most
/// `maxLineBytes` of any line: a longer line is reported once, as ``Piece/tooLong``, its
/// bytes are dropped up to its newline, and the lines after it come out as usual, whichever
/// piece they arrived in. A final line without a newline comes out at ``finish()``. A
/// carriage return before the newline is removed.
struct LineSplitter {
    enum Piece: Equatable {
        /// A complete line, without its line ending.
        case line([UInt8])
        /// A line longer than the cap (its bytes were not kept).
        case tooLong
    }

    let maxLineBytes: Int
    private var pending: [UInt8] = []
    private var discarding = false

    init(maxLineBytes: Int) { self.maxLineBytes = maxLineBytes }

    /// The lines completed by `bytes`, in order.
    mutating func feed(_ bytes: some Collection<UInt8>, into pieces: inout [Piece]) {
        var rest = bytes[...]
        while !rest.isEmpty {
            let newline = rest.firstIndex(of: 0x0A)
            let segment = rest[..<(newline ?? rest.endIndex)]
            if !discarding {
                // A line ending in CR LF may hold its cap plus the CR until the LF shows.
                if pending.count + segment.count > maxLineBytes + 1 {
                    pieces.append(.tooLong)
                    pending.removeAll()
                    discarding = true
                } else {
                    pending.append(contentsOf: segment)
                }
            }
            guard let newline else { break }
            if !discarding { pieces.append(complete()) }
            discarding = false
            rest = rest[rest.index(after: newline)...]
        }
        // A line over its cap without its newline yet (the CR allowance is only for CR LF).
        if !discarding, pending.count > maxLineBytes, pending.last != 0x0D {
            pieces.append(.tooLong)
            pending.removeAll()
            discarding = true
        }
    }

    /// The last line, when the input ended without a newline after it.
    mutating func finish() -> Piece? {
        defer { pending.removeAll(); discarding = false }
        guard !discarding, !pending.isEmpty else { return nil }
        return complete()
    }

    private mutating func complete() -> Piece {
        var line = pending
        pending.removeAll(keepingCapacity: true)
        if line.last == 0x0D { line.removeLast() }
        return line.count > maxLineBytes ? .tooLong : .line(line)
    }
}
