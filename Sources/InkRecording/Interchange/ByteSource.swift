@_spi(Tooling) import InkCore
@_spi(Tooling) import HitTestBridge
import Foundation

/// Why a byte source could not be read.
public struct ByteSourceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file, when the source is one.
    public var file: String?
    /// What went wrong.
    public var message: String

    /// `file: message`.
    public var description: String { (file ?? "<input>") + ": " + message }
}

/// Bytes read in chunks, so that a reader of a large input holds a window of it, not all
/// of it. Readers in this module (InkML, Quick, Draw!) take any source.
public protocol ByteSource {
    /// The next bytes, at most `maxCount` of them; an empty array at the end of the input.
    mutating func read(upTo maxCount: Int) throws(ByteSourceError) -> [UInt8]
}

/// Bytes already in memory, handed out in chunks of at most `chunkSize` (tests use tiny
/// chunks to reach every boundary a file reader can meet).
public struct MemoryByteSource: ByteSource {
    private let bytes: [UInt8]
    private var offset = 0
    /// The largest chunk one read returns.
    public let chunkSize: Int

    /// A source over `bytes`.
    public init(_ bytes: [UInt8], chunkSize: Int = 1 << 16) {
        self.bytes = bytes
        self.chunkSize = max(1, chunkSize)
    }

    /// A source over a string's UTF-8.
    public init(_ text: String, chunkSize: Int = 1 << 16) {
        self.init(Array(text.utf8), chunkSize: chunkSize)
    }

    public mutating func read(upTo maxCount: Int) throws(ByteSourceError) -> [UInt8] {
        let end = min(bytes.count, offset + min(maxCount, chunkSize))
        defer { offset = end }
        return Array(bytes[offset..<end])
    }
}

/// A file read in chunks through a file handle; the file is closed when the source is
/// released.
public struct FileByteSource: ByteSource {
    private final class Handle {
        let handle: FileHandle
        init(_ handle: FileHandle) { self.handle = handle }
        deinit { try? handle.close() }
    }

    private let handle: Handle
    /// The path the source reads.
    public let path: String

    /// Opens `path` for reading: a regular file or a pipe (``InputFileKind/isReadOnce``).
    ///
    /// - Throws: ``ByteSourceError`` when the file does not exist, is a directory, a device
    ///   or a socket (`/dev/zero` would never end), or cannot be opened.
    public init(path: String) throws(ByteSourceError) {
        if InputFileKind(path: path) == .missing { throw ByteSourceError(file: path, message: "no such file") }
        if let refusal = InputFileKind.refusal(path) { throw ByteSourceError(file: path, message: refusal) }
        // Opened by the name's bytes (a name that is not UTF-8 is still this file).
        let fd = NameBytes.withCString(path) { open($0, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else {
            throw ByteSourceError(file: path, message: "cannot open the file for reading: \(String(cString: strerror(errno)))")
        }
        self.handle = Handle(FileHandle(fileDescriptor: fd, closeOnDealloc: true))
        self.path = path
    }

    public mutating func read(upTo maxCount: Int) throws(ByteSourceError) -> [UInt8] {
        do {
            guard let data = try handle.handle.read(upToCount: maxCount) else { return [] }
            return Array(data)
        } catch {
            throw ByteSourceError(file: path, message: "read failed: \(error.localizedDescription)")
        }
    }
}
