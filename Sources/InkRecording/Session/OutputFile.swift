@_spi(Tooling) @_spi(FrontEnd) import InkCore
@_spi(Tooling) @_spi(FrontEnd) import HitTestBridge
import Foundation

/// A file the tools write, by the one policy for every file they write:
///
/// - the text goes to a new temporary file beside the target, created exclusively (never an
///   existing file), named `.<name>.<random>.tmp`;
/// - ``commit()`` flushes it to disk, then renames it over the target, and only over a
///   regular file or nothing: a symbolic link, a directory, a device or a FIFO at the target
///   is refused and left exactly as it was (a link is never followed);
/// - on any failure, and on ``discard()``, the temporary file is removed: nothing partial is
///   left behind, and nothing the tool did not create is deleted or replaced;
/// - the target is never one of the command's `inputs` (issue 29: `render s.jsonl -o
///   s.jsonl` replaced the recording): a target that is the same file as an input (the same
///   device and inode, so also `sub/../s.jsonl` and a hard link; a symbolic link is refused
///   anyway) is refused at the start and again just before the rename, naming both paths.
///
/// ```swift
/// var file = try OutputFile(path: "out.svg", inputs: ["session.jsonl"])
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
    /// The files the command reads, never replaced.
    public let inputs: [String]

    /// Checks the target and creates the temporary file beside it.
    /// - Parameters:
    ///   - path: The target.
    ///   - inputs: Every file the command reads (each file of a directory it walks): the
    ///     target must not be one of them. Every writer names them; `[]` only when the
    ///     command reads no file.
    /// - Throws: ``OutputFileError`` when the target is not a regular file (or absent), is
    ///   one of `inputs`, or the temporary file cannot be created.
    public init(path: String, inputs: [String]) throws(OutputFileError) {
        try Self.checkTarget(path, inputs: inputs)
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        var random = SystemRandomNumberGenerator()
        let suffix = String(random.next() & 0xFFFF_FFFF_FFFF, radix: 16)
        let temporary = directory + "." + Self.prefix(of: name, bytes: Self.temporaryNameBytes) + "." + suffix + ".tmp"
        let fd = NameBytes.withCString(temporary) { open($0, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644) }
        guard fd >= 0 else {
            throw OutputFileError(path: path, message: "cannot create a file beside it (\(Self.systemError()))")
        }
        self.path = path
        self.inputs = inputs
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
            try Self.checkTarget(path, inputs: inputs)
            guard NameBytes.withCString(temporaryPath, { from in NameBytes.withCString(path) { rename(from, $0) } }) == 0 else {
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
        _ = NameBytes.withCString(temporaryPath) { unlink($0) }
    }

    /// The most bytes of the target's name the temporary file's name keeps: with the dot
    /// before it and `.<12 hex digits>.tmp` after it, 218 bytes, within the 255 bytes a name
    /// may have (`NAME_MAX`) whatever the letters (issue 40: a name cut at 200 characters of
    /// three-byte letters was 600 bytes, "File name too long").
    static let temporaryNameBytes = 200

    /// The longest start of `name` of at most `limit` bytes (the bytes ``NameBytes`` carries),
    /// cut between characters.
    static func prefix(of name: String, bytes limit: Int) -> String {
        var kept = String.UnicodeScalarView()
        var count = 0
        for scalar in name.unicodeScalars {
            let size = NameBytes.rawByte(scalar) != nil ? 1 : String(scalar).utf8.count
            guard count + size <= limit else { break }
            kept.append(scalar)
            count += size
        }
        return String(kept)
    }

    /// Writes `text` to `path` by the policy above, all at once; `inputs` are the files the
    /// command reads (never replaced).
    public static func write(_ text: String, to path: String, inputs: [String]) throws(OutputFileError) {
        var file = try OutputFile(path: path, inputs: inputs)
        do {
            try file.write(text)
            try file.commit()
        } catch {
            file.discard()
            throw error
        }
    }

    /// Writes `bytes` to `path` by the policy above, all at once; `inputs` are the files the
    /// command reads (never replaced).
    public static func write<Bytes: Collection<UInt8>>(bytes: Bytes, to path: String, inputs: [String]) throws(OutputFileError) {
        var file = try OutputFile(path: path, inputs: inputs)
        do {
            try file.write(bytes: bytes)
            try file.commit()
        } catch {
            file.discard()
            throw error
        }
    }

    /// Refuses a target that exists and is not a regular file (without following a link), or
    /// is the same file as one of `inputs`.
    private static func checkTarget(_ path: String, inputs: [String]) throws(OutputFileError) {
        guard !path.isEmpty else { throw OutputFileError(path: path, message: "an empty path") }
        var info = stat()
        guard NameBytes.withCString(path, { lstat($0, &info) }) == 0 else { return }   // absent
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            guard let target = FileIdentity(path: path) else { return }
            for input in inputs where FileIdentity(path: input) == target {
                throw OutputFileError(path: path, message: "is the same file as the input \(input); not replaced (an output never replaces an input: name another path)")
            }
            return
        case S_IFLNK:
            throw OutputFileError(path: path, message: "is a symbolic link; not replaced (name the file it points to, or another path)")
        case S_IFDIR:
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
