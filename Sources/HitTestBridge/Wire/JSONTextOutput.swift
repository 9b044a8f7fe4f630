/// Where JSON text is written: a `String` (the tooling's writers) or a byte array (the
/// session recorder, which writes a line per sample and must allocate nothing for it).
/// The writers (``JSONValue``'s and the session-log lines') are generic over it, so both
/// targets get the same bytes from one encoder.
package protocol JSONTextOutput {
    /// Appends text.
    mutating func write(_ text: String)
    /// Appends a literal (ASCII) text.
    mutating func write(ascii text: StaticString)
    /// Appends UTF-8 bytes (whole characters).
    mutating func write(utf8 bytes: UnsafeBufferPointer<UInt8>)
    /// The last byte written, if any.
    var lastByte: UInt8? { get }
    /// Removes the last byte written (an ASCII character).
    mutating func removeLastByte()
}

extension String: JSONTextOutput {
    package mutating func write(ascii text: StaticString) {
        text.withUTF8Buffer { write(utf8: $0) }
    }

    package mutating func write(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        // A string of at most 15 UTF-8 bytes is stored inline: appending in such pieces
        // copies bytes and allocates nothing. A piece never splits a character (a
        // continuation byte starts none).
        var start = 0
        while start < bytes.count {
            var end = min(start + 15, bytes.count)
            while end < bytes.count, end > start + 1, bytes[end] & 0xC0 == 0x80 { end -= 1 }
            self += String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
            start = end
        }
    }

    package var lastByte: UInt8? { utf8.last }

    package mutating func removeLastByte() { removeLast() }
}

extension Array: JSONTextOutput where Element == UInt8 {
    package mutating func write(_ text: String) {
        var text = text
        text.withUTF8 { append(contentsOf: $0) }
    }

    package mutating func write(ascii text: StaticString) {
        append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    package mutating func write(utf8 bytes: UnsafeBufferPointer<UInt8>) { append(contentsOf: bytes) }

    package var lastByte: UInt8? { last }

    package mutating func removeLastByte() { removeLast() }
}

extension JSONTextOutput {
    /// A number as JSON text (see ``JSONTextCursor/put(number:)``). Allocates nothing.
    package mutating func write(number value: Double) {
        withJSONText(capacity: JSONTextCursor.numberLength) { $0.put(number: value) }
    }

    /// An integer in decimal. Allocates nothing.
    package mutating func write(integer value: Int64) {
        withJSONText(capacity: JSONTextCursor.numberLength) { $0.put(integer: value) }
    }

    /// Writes what `body` puts into a cursor over `capacity` bytes of stack memory, in one
    /// piece: text built field by field (a sample) is appended once.
    package mutating func withJSONText(capacity: Int, _ body: (inout JSONTextCursor) -> Void) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            var cursor = JSONTextCursor(buffer)
            body(&cursor)
            write(utf8: UnsafeBufferPointer(rebasing: buffer[..<cursor.count]))
        }
    }

    /// `value` as 16 lowercase hexadecimal digits. Allocates nothing.
    package mutating func write(hex16 value: UInt64) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16) { buffer in
            var rest = value
            for index in stride(from: 15, through: 0, by: -1) {
                let digit = UInt8(truncatingIfNeeded: rest & 0xF)
                buffer[index] = digit < 10 ? UInt8(ascii: "0") &+ digit : UInt8(ascii: "a") &+ digit &- 10
                rest >>= 4
            }
            write(utf8: UnsafeBufferPointer(buffer))
        }
    }

    /// One Unicode scalar, as UTF-8.
    package mutating func write(scalar: Unicode.Scalar) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 4) { buffer in
            var count = 0
            for byte in UTF8.encode(scalar)! {
                buffer[count] = byte
                count += 1
            }
            write(utf8: UnsafeBufferPointer(rebasing: buffer[..<count]))
        }
    }
}

/// JSON text written into memory the caller owns (a stack buffer), a byte at a time with no
/// check but a precondition on room: what the recorder's per-sample text is built with.
package struct JSONTextCursor {
    /// The most bytes ``put(number:)`` or ``put(integer:)`` writes.
    package static let numberLength = ShortestDecimal.maximumLength

    private let buffer: UnsafeMutableBufferPointer<UInt8>
    /// The bytes written so far.
    package private(set) var count = 0

    package init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        self.buffer = buffer
    }

    /// Appends a literal.
    package mutating func put(ascii text: StaticString) {
        let length = text.utf8CodeUnitCount
        precondition(count + length <= buffer.count, "JSON text outgrew its buffer")
        (buffer.baseAddress! + count).initialize(from: text.utf8Start, count: length)
        count += length
    }

    /// A number as JSON text: an integral value below 10^15 without a fraction (-0 as `-0`),
    /// an integral value from 10^15 on in the exponent form (`1e+15`; `description` writes
    /// `1000000000000000.0` up to 2^53), any other finite value as ``ShortestDecimal``
    /// (Swift's `description`) writes it, and a non-finite one (which JSON cannot represent)
    /// as `null`.
    ///
    /// The text is at most ``maximumGrowth`` bytes longer than the shortest JSON text of the
    /// same number: what a recorder re-encoding a page's numbers adds per number.
    package mutating func put(number value: Double) {
        guard value.isFinite else {
            put(ascii: "null")
            return
        }
        let integral = value == value.rounded()
        if integral, abs(value) < 1e15 {
            // -0 keeps its sign: a replay reads back the bits a recorder wrote.
            if value == 0, value.sign == .minus { put(ascii: "-0") } else { put(integer: Int64(value)) }
            return
        }
        precondition(count + Self.numberLength <= buffer.count, "JSON text outgrew its buffer")
        count += ShortestDecimal.write(value, into: UnsafeMutableBufferPointer(rebasing: buffer[count...]), exponential: integral)
    }

    /// The most bytes ``put(number:)`` writes beyond the shortest JSON text of the same number
    /// (issue 53): 11, for `1e14`, written `100000000000000` (an integral value below 10^15 is
    /// written in full). The other cases add less: an integral value from 10^15 on is written
    /// `1e+15` (1 more than `1e15`; it was `1000000000000000.0`, 14 more), a small one
    /// `0.0001` (2 more than `1e-4`), an exponent with its sign and two digits `1e-05` (1
    /// more). Any digits are the shortest that read back to the same double, so never more
    /// than the text read had. `JSONNumberGrowthTests` measures it over every power of ten
    /// and millions of numbers.
    package static let maximumGrowth = 11

    /// An integer in decimal.
    package mutating func put(integer value: Int64) {
        precondition(count + 20 <= buffer.count, "JSON text outgrew its buffer")
        let digits = ShortestDecimal.decimalDigitCount(value.magnitude)
        if value < 0 {
            buffer[count] = UInt8(ascii: "-")
            count += 1
        }
        var index = count + digits
        count = index
        var rest = value.magnitude
        repeat {
            index -= 1
            buffer[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
        } while rest != 0
    }
}
