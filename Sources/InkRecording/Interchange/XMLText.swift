/// Text made safe for XML, SVG and HTML: the one escape every writer of the tools uses.
package enum XMLText {
    /// `text` with `&`, `<`, `>` and `"` escaped, and the control characters XML 1.0 does not
    /// allow (all below U+0020 but tab, line feed and carriage return, and U+FFFE, U+FFFF)
    /// replaced by `?`, so
    /// the result is valid in element content and in double-quoted attributes.
    package static func escaped(_ text: String) -> String {
        var out = ""
        out.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for c in text.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case _ where c.value < 0x20 && c != "\n" && c != "\t" && c != "\r": out += "?"
            case "\u{FFFE}", "\u{FFFF}": out += "?"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}
