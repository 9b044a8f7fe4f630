import Foundation
@_spi(Tooling) import HitTestBridge

/// What a path names, symbolic links followed: the one test of whether the tools read it.
///
/// The tools read regular files, and pipes once (process substitution `<(…)` names a pipe,
/// `/dev/fd/N`; a FIFO named on the command line is read as asked, waiting for its writer
/// as `cat` does). A device (`/dev/zero` never ends), a socket or a directory is not read
/// as a file: ``isReadOnce`` is `false` and ``phrase`` names it for the error.
public enum InputFileKind: Sendable, Hashable {
    /// A regular file.
    case regular
    /// A pipe or a FIFO.
    case pipe
    /// A directory.
    case directory
    /// A character device (`/dev/zero`, a terminal).
    case characterDevice
    /// A block device (a disk).
    case blockDevice
    /// A Unix-domain socket.
    case socket
    /// Nothing there (or a dangling link).
    case missing
    /// Symbolic links that lead back to themselves (`ELOOP`): nothing can be read there.
    case symbolicLinkLoop
    /// `stat` failed for another reason (a permission, say): opening it says why.
    case unknown

    /// The kind of `path`, following symbolic links (the path's bytes, as `NameBytes` in
    /// HitTestBridge carries them, are what is looked up).
    public init(path: String) {
        var info = stat()
        guard NameBytes.withCString(path, { stat($0, &info) }) == 0 else {
            switch errno {
            case ENOENT, ENOTDIR: self = .missing
            case ELOOP: self = .symbolicLinkLoop
            default: self = .unknown
            }
            return
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: self = .regular
        case S_IFIFO: self = .pipe
        case S_IFDIR: self = .directory
        case S_IFCHR: self = .characterDevice
        case S_IFBLK: self = .blockDevice
        case S_IFSOCK: self = .socket
        default: self = .unknown
        }
    }

    /// Whether a command that reads its input once, front to back, reads it: a regular file
    /// or a pipe (and what cannot be told without opening it).
    public var isReadOnce: Bool {
        switch self {
        case .regular, .pipe, .missing, .unknown: return true
        case .directory, .characterDevice, .blockDevice, .socket, .symbolicLinkLoop: return false
        }
    }

    /// The kind in words: "a FIFO", "a character device", …
    public var phrase: String {
        switch self {
        case .regular: return "a regular file"
        case .pipe: return "a FIFO (a pipe)"
        case .directory: return "a directory"
        case .characterDevice: return "a character device"
        case .blockDevice: return "a block device"
        case .socket: return "a socket"
        case .missing: return "missing"
        case .symbolicLinkLoop: return "a symbolic-link loop"
        case .unknown: return "of an unknown kind"
        }
    }

    /// Why a command that reads its input once does not read `path`, or `nil` when it does:
    /// "is a character device, not a regular file; not read".
    public static func refusal(_ path: String) -> String? {
        switch InputFileKind(path: path) {
        case .symbolicLinkLoop: return "is a symbolic-link loop (too many levels of symbolic links); not read"
        case let kind: return kind.isReadOnce ? nil : "is \(kind.phrase), not a regular file; not read"
        }
    }
}

/// Which file a path names, symbolic links followed: the device and the inode, so two
/// names of one file (a hard link, `sub/../x`, a link to it) compare equal.
struct FileIdentity: Hashable {
    var device: UInt64
    var inode: UInt64

    init?(path: String) {
        var info = stat()
        guard NameBytes.withCString(path, { stat($0, &info) }) == 0 else { return nil }
        device = UInt64(truncatingIfNeeded: info.st_dev)
        inode = UInt64(truncatingIfNeeded: info.st_ino)
    }

    /// The file open as descriptor `descriptor`, when it is a regular file (`fstat`).
    init?(descriptor: Int32) {
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        device = UInt64(truncatingIfNeeded: info.st_dev)
        inode = UInt64(truncatingIfNeeded: info.st_ino)
    }

    /// The process's standard input, when it is a regular file (`< s.jsonl`): an input of
    /// every command, whatever it names, so never an output.
    static var standardInput: FileIdentity? { FileIdentity(descriptor: 0) }
}
