@_spi(Tooling) import InkCore

/// The identity of one page document: a random id the page script draws each time it is
/// loaded (the next exercise, a reload, a web content process that restarted), and puts in
/// every message it posts as `"document":"<id>"`.
///
/// The bridge keeps the current document's id and a bounded set of retired ones: a message
/// naming a retired document is refused (`ReceiveOutcome.oldDocument(_:)`), and a message
/// naming an unknown id while another is current starts a new document, as
/// ``EngineInput/newDocument(_:)`` does. A message without an id belongs to the current
/// document (older page scripts, session logs).
///
/// The bundled page script draws 16 lowercase hex digits (64 random bits). Any id of 1 to
/// ``maxLength`` ASCII letters, digits, `-` or `_` is accepted, so that a page script of
/// its own may use another scheme; anything else is refused with a
/// `PageDocumentIDError`.
@_spi(Tooling) public struct PageDocumentID: Sendable, Hashable, CustomStringConvertible {
    /// The id's text: 1 to ``maxLength`` ASCII letters, digits, `-` or `_`.
    public let text: String

    /// The longest id accepted, characters.
    public static let maxLength = 64

    /// Validates an id.
    /// - Throws: `PageDocumentIDError` when it is empty, longer than ``maxLength`` or holds
    ///   any other character.
    public init(_ text: String) throws(PageDocumentIDError) {
        let utf8 = text.utf8
        guard !utf8.isEmpty else { throw .empty }
        guard utf8.count <= Self.maxLength else { throw .tooLong(length: utf8.count, limit: Self.maxLength) }
        for (offset, byte) in utf8.enumerated() {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "-"), UInt8(ascii: "_"):
                continue
            default:
                throw .invalidCharacter(offset: offset, byte: byte)
            }
        }
        self.text = text
    }

    /// An id drawn from a random number generator: 16 lowercase hex digits, as the page
    /// script makes them (for fake pages and tests).
    public static func random(using generator: inout some RandomNumberGenerator) -> PageDocumentID {
        let digits = String(generator.next() as UInt64, radix: 16)
        // 16 hex digits are always a valid id.
        return try! PageDocumentID(String(repeating: "0", count: 16 - digits.count) + digits)
    }

    /// The id's text.
    public var description: String { text }
}

/// Why a page document id was refused (the message carrying it is refused as a whole:
/// `WireMessageError.document(_:)`).
@_spi(Tooling) public enum PageDocumentIDError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The id is the empty string.
    case empty
    /// The id is longer than `PageDocumentID.maxLength` (bytes of UTF-8).
    case tooLong(length: Int, limit: Int)
    /// A byte that is not an ASCII letter, digit, `-` or `_`, at this 0-based byte offset.
    case invalidCharacter(offset: Int, byte: UInt8)

    /// The sentence an error message carries.
    public var description: String {
        switch self {
        case .empty: "a document id must not be empty"
        case let .tooLong(length, limit): "a document id of \(length) bytes is longer than the limit of \(limit)"
        case let .invalidCharacter(offset, byte):
            "a document id holds ASCII letters, digits, '-' and '_' only; found \(InputText.byte(byte)) at offset \(offset)"
        }
    }
}
