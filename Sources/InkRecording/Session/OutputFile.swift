@_spi(Tooling) import InkCore
@_spi(Tooling) import HitTestBridge
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
/// - a file is replaced only by whoever made it (issue 53): a target that changed since the
///   command began (another file there now, or one that appeared where there was none) is not
///   replaced; the temporary file is kept (``isKept``) and named in the error. Of concurrent
///   writers to one path, one wins and the others say so;
/// - the target is never one of the command's `inputs` (issue 29: `render s.jsonl -o
///   s.jsonl` replaced the recording), nor the process's standard input when that is a
///   regular file (issue 40: `host --record s.jsonl < s.jsonl`): a target that is the same
///   file as an input (the same device and inode, so also `sub/../s.jsonl` and a hard link;
///   or the same path once links and `..` are resolved; a symbolic link is refused anyway)
///   is refused before anything is created and again just before the rename, naming both;
/// - a target the final rename could not reach is refused before anything is created
///   (issue 40): a name longer than the file system takes (in bytes, per component and in
///   all), or, in a sticky directory (`/tmp`), a file another user owns;
/// - every write is checked (`write(2)`, its error by name: "No space left on device",
///   "File too large"), and says how many bytes were written before it failed.
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
    /// The target as it was when the command began (`nil`: absent): it is replaced only while
    /// it is still that file, unchanged (issue 53).
    private let targetAtStart: TargetStamp?
    /// Whether the temporary file was kept (the target changed since the start): ``discard()``
    /// then leaves it.
    public private(set) var isKept = false

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
        targetAtStart = TargetStamp(path: path)
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

    /// The error number of the last write that failed, if one did.
    private(set) var writeError: Int32?

    /// Bytes written to the temporary file so far.
    public private(set) var bytesWritten = 0

    /// Writes what is held to the temporary file now (the page cache, not the disk: a
    /// killed process leaves it there; ``commit()`` syncs it to the disk).
    /// - Throws: ``OutputFileError`` when the disk refuses it; call ``discard()`` then.
    public mutating func flush() throws(OutputFileError) {
        guard !pending.isEmpty else { return }
        let (written, failure) = pending.withUnsafeBytes { Self.writeAll(handle.fileDescriptor, $0) }
        bytesWritten += written
        pending.removeAll(keepingAtMost: 1 << 17)
        if let failure {
            writeError = failure
            throw OutputFileError(path: path, message: "cannot write (\(Self.systemError(failure))) after \(bytesWritten) bytes")
        }
    }

    /// Cuts the temporary file back to its first `length` bytes (a recording keeps whole
    /// lines only); `false` when the system refuses.
    mutating func truncate(to length: Int) -> Bool {
        pending.removeAll()
        guard ftruncate(handle.fileDescriptor, off_t(length)) == 0 else { return false }
        bytesWritten = length
        return lseek(handle.fileDescriptor, off_t(length), SEEK_SET) >= 0
    }

    /// Writes all of `bytes` to `descriptor` (a write interrupted by a signal is retried):
    /// how many were written, and the error number of the write that failed, if one did.
    public static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> (written: Int, error: Int32?) {
        writeAllBytes(descriptor, bytes)
    }

    /// Flushes the file to disk and moves it to the target. On failure the temporary file is
    /// removed and the target is unchanged.
    /// - Throws: ``OutputFileError``.
    public mutating func commit() throws(OutputFileError) {
        try commit(keepingOnFailure: false)
    }

    /// ``commit()``; with `keepingOnFailure`, a failure leaves the temporary file (synced and
    /// closed when it could be) instead of removing it: a live recording cannot be made again.
    mutating func commit(keepingOnFailure: Bool, renaming: Bool = true) throws(OutputFileError) {
        do throws(OutputFileError) {
            try flush()
            guard fsync(handle.fileDescriptor) == 0 || errno == EINVAL || errno == EROFS else {
                throw OutputFileError(path: path, message: "cannot write (\(Self.systemError())) after \(bytesWritten) bytes: the disk did not take them")
            }
            do { try handle.close() } catch {
                throw OutputFileError(path: path, message: "cannot write (\(Self.systemError())) after \(bytesWritten) bytes")
            }
            guard renaming else { return }
            // First whether the target changed since the start: if so the output is kept,
            // whatever is there now (a directory, a link).
            let now = TargetStamp(path: path)
            if let now, now != targetAtStart {
                try keep(because: targetAtStart == nil ? "\(now.kind) appeared there" : "another file is there now")
            }
            try Self.checkTarget(path, inputs: inputs)
            try moveIntoPlace(absent: now == nil)
        } catch {
            if keepingOnFailure || isKept { try? handle.close() } else { discard() }
            throw error
        }
    }

    /// Moves the temporary file to the target, which ``commit()`` found as it was when the
    /// command began (absent then, still absent; a file then, that file, unchanged: the same
    /// device, inode, size and modification time). A target that is absent is taken with
    /// `link(2)`, which never replaces a file: of two writers racing to one path, one wins, and
    /// the other keeps its temporary file and says so (issue 53: of two `host --record` runs
    /// to one path, both exited 0 and the recording that finished first was silently
    /// replaced). A file there is replaced by `rename(2)` (a writer that swaps it between the
    /// check and the rename is not seen).
    private mutating func moveIntoPlace(absent: Bool) throws(OutputFileError) {
        if absent {
            let linked = NameBytes.withCString(temporaryPath) { from in NameBytes.withCString(path) { link(from, $0) } }
            if linked == 0 {
                _ = NameBytes.withCString(temporaryPath) { unlink($0) }
                return
            }
            if errno == EEXIST { try keep(because: "a file appeared there") }
            // A file system without hard links: the rename, after the check above.
        }
        guard NameBytes.withCString(temporaryPath, { from in NameBytes.withCString(path) { rename(from, $0) } }) == 0 else {
            throw OutputFileError(path: path, message: "cannot replace it (\(Self.systemError()))")
        }
    }

    /// Keeps the temporary file and throws the error that names it.
    private mutating func keep(because change: String) throws(OutputFileError) {
        isKept = true
        keptBecause = "changed since this command began (\(change)); not replaced"
        throw OutputFileError(path: path, message: keptBecause! + ": the output is kept in \(temporaryPath)")
    }

    /// Why the temporary file was kept (``isKept``): how the target changed.
    private(set) var keptBecause: String?

    /// Removes the temporary file (the target is untouched), unless it was kept (``isKept``).
    public func discard() {
        try? handle.close()
        guard !isKept else { return }
        _ = NameBytes.withCString(temporaryPath) { unlink($0) }
    }

    /// The most bytes of the target's name the temporary file's name keeps: with the dot
    /// before it and `.<12 hex digits>.tmp` after it, 218 bytes, within the 255 bytes a name
    /// may have (`NAME_MAX`) whatever the letters (issue 40: a name cut at 200 characters of
    /// three-byte letters was 600 bytes, "File name too long").
    static let temporaryNameBytes = 200

    /// The longest start of `name` of at most `limit` bytes (the bytes `NameBytes` carries),
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

    /// Checks `path` as a target by the policy above, creating nothing: a command calls it
    /// before the work that makes the output's content, so that a target that would be
    /// refused costs no work (the check is made again when the file is written).
    /// - Throws: ``OutputFileError`` naming why the target is refused.
    public static func check(_ path: String, inputs: [String]) throws(OutputFileError) {
        try checkTarget(path, inputs: inputs)
    }

    /// Refuses a target that exists and is not a regular file (without following a link), or
    /// is the same file as one of `inputs`.
    private static func checkTarget(_ path: String, inputs: [String]) throws(OutputFileError) {
        guard !path.isEmpty else { throw OutputFileError(path: path, message: "an empty path") }
        try checkReachable(path)
        var info = stat()
        guard NameBytes.withCString(path, { lstat($0, &info) }) == 0 else {
            // Absent: an input of the same resolved path (one read and gone, a pipe's name)
            // is still not written over.
            let resolved = resolvedPath(path)
            for input in inputs where resolved != nil && resolvedPath(input) == resolved {
                throw OutputFileError(path: path, message: "is the same file as the input \(input); not replaced (an output never replaces an input: name another path)")
            }
            return
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            guard let target = FileIdentity(path: path) else { return }
            for input in inputs where FileIdentity(path: input) == target {
                throw OutputFileError(path: path, message: "is the same file as the input \(input); not replaced (an output never replaces an input: name another path)")
            }
            if FileIdentity.standardInput == target {
                throw OutputFileError(path: path, message: "is the same file as standard input; not replaced (an output never replaces an input: name another path)")
            }
            try checkReplaceable(path)
            return
        case S_IFLNK:
            throw OutputFileError(path: path, message: "is a symbolic link; not replaced (name the file it points to, or another path)")
        case S_IFDIR:
            throw OutputFileError(path: path, message: "is a directory; not replaced")
        default:
            throw OutputFileError(path: path, message: "exists and is not a regular file; not replaced")
        }
    }

    /// Refuses a target whose name the file system does not take (the final rename would
    /// fail after the whole output was written): a component longer than its directory's
    /// `NAME_MAX` bytes, or a path of `PATH_MAX` bytes or more.
    private static func checkReachable(_ path: String) throws(OutputFileError) {
        let name = NameBytes.bytes(path)
        let bytes = name.count
        if bytes >= Int(PATH_MAX) {
            throw OutputFileError(path: path, message: "a path of \(bytes) bytes, longer than the \(Int(PATH_MAX) - 1) the system takes; not written")
        }
        let directory = directoryOf(path)
        var limit = NameBytes.withCString(directory) { pathconf($0, Int32(_PC_NAME_MAX)) }
        if limit <= 0 { limit = 255 }
        for component in name.split(separator: UInt8(ascii: "/")) where component.count > limit {
            throw OutputFileError(path: path, message: "a name of \(component.count) bytes in the path, longer than the \(limit) the file system takes; not written")
        }
    }

    /// Refuses an existing target this user may not replace: in a sticky directory (`/tmp`),
    /// only the file's owner, the directory's owner or root may rename over it.
    private static func checkReplaceable(_ path: String) throws(OutputFileError) {
        var directory = stat(), target = stat()
        guard NameBytes.withCString(directoryOf(path), { stat($0, &directory) }) == 0,
              NameBytes.withCString(path, { lstat($0, &target) }) == 0,
              stickyForbids(directoryMode: directory.st_mode, directoryOwner: directory.st_uid, targetOwner: target.st_uid, user: geteuid())
        else { return }
        throw OutputFileError(path: path, message: "belongs to another user (uid \(target.st_uid)) in a sticky directory, where only its owner may replace it; not written")
    }

    /// Whether a sticky directory (`S_ISVTX` in `directoryMode`) forbids `user` to rename over
    /// a file `targetOwner` owns: unless the user is root or owns the file or the directory.
    static func stickyForbids(directoryMode: mode_t, directoryOwner: uid_t, targetOwner: uid_t, user: uid_t) -> Bool {
        directoryMode & mode_t(S_ISVTX) != 0 && user != 0 && targetOwner != user && directoryOwner != user
    }

    /// The directory holding `path`'s last component (`.` for a bare name).
    private static func directoryOf(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// `path` with its directory's links and `..` resolved (`realpath`), the last component
    /// as given (a target need not exist yet); `nil` when the directory does not resolve.
    static func resolvedPath(_ path: String) -> String? {
        let slash = path.lastIndex(of: "/")
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard !name.isEmpty, name != ".", name != ".." else { return nil }
        guard let directory = NameBytes.withCString(directoryOf(path), { realpath($0, nil) }) else { return nil }
        defer { free(directory) }
        let head = NameBytes.string(cString: directory)
        return (head.hasSuffix("/") ? head : head + "/") + name
    }

    private static func systemError(_ number: Int32 = errno) -> String { String(cString: strerror(number)) }
}

/// What a target was at one moment, to tell whether it changed since: its device, inode,
/// size and modification time (`lstat`, so a link is itself); `nil` when nothing is there.
private struct TargetStamp: Equatable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modified: (seconds: Int64, nanoseconds: Int64)
    /// "a file", "a directory", "a symbolic link" or "something".
    var kind: String

    init?(path: String) {
        var info = stat()
        guard NameBytes.withCString(path, { lstat($0, &info) }) == 0 else { return nil }
        device = UInt64(truncatingIfNeeded: info.st_dev)
        inode = UInt64(truncatingIfNeeded: info.st_ino)
        size = Int64(info.st_size)
        switch info.st_mode & S_IFMT {
        case S_IFREG: kind = "a file"
        case S_IFDIR: kind = "a directory"
        case S_IFLNK: kind = "a symbolic link"
        default: kind = "something"
        }
        #if canImport(Darwin)
        modified = (Int64(info.st_mtimespec.tv_sec), Int64(info.st_mtimespec.tv_nsec))
        #else
        modified = (Int64(info.st_mtim.tv_sec), Int64(info.st_mtim.tv_nsec))
        #endif
    }

    static func == (a: TargetStamp, b: TargetStamp) -> Bool {
        a.device == b.device && a.inode == b.inode && a.size == b.size && a.modified == b.modified
    }
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

/// ``OutputFile/writeAll(_:_:)``, at file scope, where `write` is `write(2)` (inside the type
/// it would be the type's own `write(_:)`): the same call on Linux and Darwin.
private func writeAllBytes(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> (written: Int, error: Int32?) {
    var offset = 0
    while offset < bytes.count, let base = bytes.baseAddress {
        let count = write(descriptor, base + offset, bytes.count - offset)
        if count < 0 {
            if errno == EINTR { continue }
            return (offset, errno)
        }
        if count == 0 { return (offset, EIO) }
        offset += count
    }
    return (offset, nil)
}
