@_spi(Tooling) import InkCore
/// How error messages show text that came from the input: never raw, never unbounded. A
/// hostile file must not be able to write terminal escape sequences through an error
/// message, nor make one megabytes long.
package enum InputText {
    /// An excerpt of input text for a message, quoted: control characters (C0, DEL, C1) and
    /// invalid UTF-8 shown as `\u{…}` escapes, at most `limit` characters, and the length of
    /// the whole when it is cut: `'12345678901234567890…' (50000000 bytes)`.
    package static func quoted(_ bytes: some Collection<UInt8>, limit: Int = 32) -> String {
        let text = String(decoding: bytes.prefix(limit * 4 + 4), as: UTF8.self)
        var out = "'"
        var shown = 0
        for scalar in text.unicodeScalars {
            if shown == limit { break }
            out += escaped(scalar)
            shown += 1
        }
        let cut = shown == limit && (bytes.count > limit || text.unicodeScalars.count > limit)
        return out + (cut ? "…' (\(bytes.count) bytes)" : "'")
    }

    /// Quotes a string the same way.
    package static func quoted(_ text: some StringProtocol, limit: Int = 32) -> String { quoted(Array(text.utf8), limit: limit) }

    /// One byte for a message: `'x'` when it is printable ASCII, else `byte 0xEF`.
    package static func byte(_ byte: UInt8) -> String {
        (0x21...0x7E).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x" + String(byte, radix: 16, uppercase: true)
    }

    /// A file name for any output (a message, a report line, a JSON string, a JUnit
    /// attribute): ``escaped(_:)`` applied to each character, never cut. The one way the
    /// tools show a path.
    package static func name(_ path: String) -> String {
        var out = ""
        for scalar in path.unicodeScalars { out += escaped(scalar) }
        return out
    }

    /// A whole message made safe to print: control characters escaped (line breaks too: a
    /// message is one line) and at most `limit` characters, cut in the middle.
    package static func printable(_ message: String, limit: Int = 2_000) -> String {
        var out = ""
        var count = 0
        for scalar in message.unicodeScalars {
            if count == limit { return out + "… (message cut at \(limit) characters)" }
            out += escaped(scalar)
            count += 1
        }
        return out
    }

    /// Where the first escape ``escaped(_:)`` writes (`\u{…}`, `\x{…}`) begins in a shown
    /// text, or a run of characters that reads like one; `nil` when there is none. Showing is
    /// not reversible, so a shown name is known exactly only before this index.
    package static func firstEscape(in shown: String) -> String.Index? {
        let scalars = shown.unicodeScalars
        var i = scalars.startIndex
        while i != scalars.endIndex {
            if scalars[i] == "\\" {
                let rest = scalars[scalars.index(after: i)...]
                if rest.starts(with: ["u", "{"]) || rest.starts(with: ["x", "{"]) { return i }
            }
            i = scalars.index(after: i)
        }
        return nil
    }

    /// One character for a message: C0, DEL and C1 controls and U+FFFD as `\u{1B}`, a file
    /// name's byte that is not UTF-8 (`NameBytes`) as `\x{FF}`, anything else as itself.
    /// No escape contains a control character, so escaping twice changes nothing.
    package static func escaped(_ scalar: Unicode.Scalar) -> String {
        if let byte = NameBytes.rawByte(scalar) { return "\\x{" + String(byte, radix: 16, uppercase: true) + "}" }
        let v = scalar.value
        if v < 0x20 || (0x7F...0x9F).contains(v) || v == 0xFFFD { return "\\u{" + String(v, radix: 16, uppercase: true) + "}" }
        return String(scalar)
    }
}
