/// File names as the system gives them: bytes, not necessarily UTF-8 (issue 40: a log named
/// with an invalid UTF-8 byte was read back through a repairing `String` conversion, the
/// repaired name named no file, and a truncated log was skipped as "a dangling link").
///
/// A name's bytes are carried in a `String` losslessly, so the tools keep their `String`
/// paths: valid UTF-8 is its text, and each byte outside it stands as one scalar of
/// U+10FF80…U+10FFFF (`0x10FF00 + byte`, in the last private-use plane). Those scalars'
/// own UTF-8 (`F4 8F BE 80` … `F4 8F BF BF`) is taken byte by byte too, so
/// `bytes(string(b)) == b` for every byte string `b`. Every call that hands a path to the
/// system goes through ``withCString(_:_:)``; every message shows a name through
/// ``InputText/printable(_:limit:)``, where such a byte reads `\x{FF}`.
package enum NameBytes {
    /// The scalar that stands for the byte `0x80 + n` is `rawBase + 0x80 + n`.
    package static let rawBase: UInt32 = 0x10_FF00

    /// The byte a scalar stands for, when it is one of the stand-ins.
    @inline(__always) package static func rawByte(_ scalar: Unicode.Scalar) -> UInt8? {
        scalar.value >= rawBase + 0x80 ? UInt8(truncatingIfNeeded: scalar.value - rawBase) : nil
    }

    /// The name of `bytes` (a NUL ends nothing here: the caller gives the name's bytes).
    package static func string(_ bytes: some Collection<UInt8>) -> String {
        let bytes = Array(bytes)
        var scalars = String.UnicodeScalarView()
        var i = 0
        while i < bytes.count {
            if bytes[i] < 0x80 {
                scalars.append(Unicode.Scalar(bytes[i]))
                i += 1
            } else if let (scalar, length) = scalar(in: bytes, at: i), rawByte(scalar) == nil {
                scalars.append(scalar)
                i += length
            } else {
                scalars.append(Unicode.Scalar(rawBase + UInt32(bytes[i]))!)
                i += 1
            }
        }
        return String(scalars)
    }

    /// The name of a NUL-terminated C string (a `d_name`, an `argv` entry).
    package static func string(cString: UnsafePointer<CChar>) -> String {
        var count = 0
        while cString[count] != 0 { count += 1 }
        return cString.withMemoryRebound(to: UInt8.self, capacity: count) { string(UnsafeBufferPointer(start: $0, count: count)) }
    }

    /// The bytes `name` stands for.
    package static func bytes(_ name: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(name.utf8.count)
        for scalar in name.unicodeScalars {
            if let byte = rawByte(scalar) { out.append(byte) } else { out.append(contentsOf: String(scalar).utf8) }
        }
        return out
    }

    /// Calls `body` with the NUL-terminated bytes `path` stands for: what `open`, `stat`,
    /// `rename` and the rest must be given.
    package static func withCString<Result>(_ path: String, _ body: (UnsafePointer<CChar>) throws -> Result) rethrows -> Result {
        if !path.unicodeScalars.contains(where: { rawByte($0) != nil }) { return try path.withCString(body) }
        var bytes = bytes(path)
        bytes.append(0)
        return try bytes.withUnsafeBufferPointer { buffer in
            try buffer.withMemoryRebound(to: CChar.self) { try body($0.baseAddress!) }
        }
    }

    /// The valid UTF-8 scalar starting at `i`, and its length (`nil` for an invalid or
    /// overlong sequence, a surrogate, or beyond U+10FFFF).
    private static func scalar(in bytes: [UInt8], at i: Int) -> (Unicode.Scalar, Int)? {
        let lead = bytes[i]
        let length: Int, minimum: UInt32
        var value: UInt32
        switch lead {
        case 0xC2...0xDF: length = 2; minimum = 0x80; value = UInt32(lead & 0x1F)
        case 0xE0...0xEF: length = 3; minimum = 0x800; value = UInt32(lead & 0x0F)
        case 0xF0...0xF4: length = 4; minimum = 0x1_0000; value = UInt32(lead & 0x07)
        default: return nil
        }
        guard i + length <= bytes.count else { return nil }
        for k in 1..<length {
            let byte = bytes[i + k]
            guard byte & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        guard value >= minimum, let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, length)
    }
}
