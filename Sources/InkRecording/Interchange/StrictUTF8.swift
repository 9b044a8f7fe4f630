@_spi(Tooling) import InkCore
@_spi(Tooling) import HitTestBridge
/// Decodes `bytes` as UTF-8, or returns `nil` when they are not well-formed UTF-8 (overlong
/// forms, surrogates, code points above U+10FFFF, truncated or stray continuation bytes).
///
/// The same answer as the standard library's `String(validating:as: UTF8.self)`, which needs
/// iOS 18 / macOS 15; this one works on every deployment target of the package. It walks the
/// bytes once with the standard library's validating UTF-8 parser, then decodes them (no
/// repair can happen: they were just validated).
///
/// - Complexity: O(*n*) in the number of bytes.
package func strictUTF8String(_ bytes: [UInt8]) -> String? {
    var iterator = bytes.makeIterator()
    var parser = Unicode.UTF8.ForwardParser()
    while true {
        switch parser.parseScalar(from: &iterator) {
        case .valid: continue
        case .emptyInput: return String(decoding: bytes, as: UTF8.self)
        case .error: return nil
        }
    }
}
