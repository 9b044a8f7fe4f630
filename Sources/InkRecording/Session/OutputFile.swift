import InkCore
import HitTestBridge
import Foundation

/// A file the tools write, by the one policy for every file they write:
///
/// - the text goes to a new temporary file beside the target, created exclusively (never an
///   existing file), named `.<name>.<random>.tmp`;
/// - ``commit()`` flushes it to disk, then renames it over the target, and only over a
///   regular file or nothing: a symbolic link, a directory, a device or a FIFO at the target
///   is refused and left exactly as it was (a link is never followed);
/// - on any failure, and on ``discard()``, the temporary file is removed: nothing partial is
///   left behind, and nothing the tool did not create is deleted or replaced.
///
/// ```swift
/// var file = try OutputFile(path: "out.svg")
/// try file.write(svg)
/// try file.commit()
/// ```
public struct OutputFile {
    /// The target path.
    public let path: String
    /// The temporary file beside it.
    public let temporaryPath: String
    private let handle: FileHandle
    private var pending: [UInt8] = []

    /// Checks the target and creates the temporary file beside it.
    /// - Throws: ``OutputFileError`` when the target is not a regular file (or absent), or the
    ///   temporary file cannot be created.
    public init(path: String) throws(OutputFileError) {
        try Self.checkTarget(path)
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        var random = SystemRandomNumberGenerator()
        let suffix = String(random.next() & 0xFFFF_FFFF_FFFF, radix: 16)
        let temporary = directory + "." + name.prefix(200) + "." + suffix + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw OutputFileError(path: path, message: "cannot create a file beside it (\(Self.systemError()))")
        }
        self.path = path
        temporaryPath = temporary
        handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
    }

    /// Appends text (UTF-8), written out in 64 KiB pieces.
    /// - Throws: ``OutputFileError`` when the disk refuses it; call ``discard()`` then.
    public mutating func write(_ text: String) throws(OutputFileError) {
        pending.append(contentsOf: text.utf8)
        if pending.count >= 1 << 16 { try flush() }
    }

    /// Appends bytes (a PNG, say), written out in 64 KiB pieces.
    /// - Throws: ``OutputFileError`` when the disk refuses them; call ``discard()`` then.
    public mutating func write<Bytes: Collection<UInt8>>(bytes: Bytes) throws(OutputFileError) {
        pending.append(contentsOf: bytes)
        if pending.count >= 1 << 16 { try flush() }
    }

    private mutating func flush() throws(OutputFileError) {
        guard !pending.isEmpty else { return }
        do { try handle.write(contentsOf: pending) } catch {
            throw OutputFileError(path: path, message: "cannot write: \(error.localizedDescription)")
        }
        pending.removeAll(keepingCapacity: true)
    }

    /// Flushes the file to disk and moves it to the target. On failure the temporary file is
    /// removed and the target is unchanged.
    /// - Throws: ``OutputFileError``.
    public mutating func commit() throws(OutputFileError) {
        do throws(OutputFileError) {
            try flush()
            do {
                try handle.synchronize()
                try handle.close()
            } catch {
                throw OutputFileError(path: path, message: "cannot write: \(error.localizedDescription)")
            }
            try Self.checkTarget(path)
            guard rename(temporaryPath, path) == 0 else {
                throw OutputFileError(path: path, message: "cannot replace it (\(Self.systemError()))")
            }
        } catch {
            discard()
            throw error
        }
    }

    /// Removes the temporary file (the target is untouched).
    public func discard() {
        try? handle.close()
        unlink(temporaryPath)
    }

    /// Writes `text` to `path` by the policy above, all at once.
    public static func write(_ text: String, to path: String) throws(OutputFileError) {
        var file = try OutputFile(path: path)
        do {
            try file.write(text)
            try file.commit()
        } catch {
            file.discard()
            throw error
        }
    }

    /// Writes `bytes` to `path` by the policy above, all at once.
    public static func write<Bytes: Collection<UInt8>>(bytes: Bytes, to path: String) throws(OutputFileError) {
        var file = try OutputFile(path: path)
        do {
            try file.write(bytes: bytes)
            try file.commit()
        } catch {
            file.discard()
            throw error
        }
    }

    /// Refuses a target that exists and is not a regular file (without following a link).
    private static func checkTarget(_ path: String) throws(OutputFileError) {
        guard !path.isEmpty else { throw OutputFileError(path: path, message: "an empty path") }
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              let type = attributes[.type] as? FileAttributeType else { return }   // absent
        switch type {
        case .typeRegular: return
        case .typeSymbolicLink:
            throw OutputFileError(path: path, message: "is a symbolic link; not replaced (name the file it points to, or another path)")
        case .typeDirectory:
            throw OutputFileError(path: path, message: "is a directory; not replaced")
        default:
            throw OutputFileError(path: path, message: "exists and is not a regular file; not replaced")
        }
    }

    private static func systemError() -> String { String(cString: strerror(errno)) }
}

/// Why an output file could not be written. Nothing was left behind, and the target was
/// not changed.
public struct OutputFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The target path.
    public var path: String
    /// What went wrong.
    public var message: String

    /// `path: message`.
    public var description: String { "\(path): \(message)" }
}
