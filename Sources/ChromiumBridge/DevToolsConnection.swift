#if canImport(Glibc)
import Foundation
import Glibc
@_spi(Tooling) import InkCore
@_spi(Tooling) import HitTestBridge

/// Why a conversation with the browser failed.
public enum DevToolsError: Error, Sendable, CustomStringConvertible {
    /// No Chromium executable was found (set `CHROMIUM` to its path).
    case browserNotFound
    /// The browser could not be started.
    case launchFailed(String)
    /// The browser closed the pipe (it exited or crashed).
    case disconnected
    /// No reply within the time limit.
    case timeout(method: String, seconds: Double)
    /// The browser answered a command with an error.
    case commandFailed(method: String, message: String)
    /// A message from the browser that is not the JSON the protocol promises.
    case malformedMessage(String)
    /// The page's script threw, or returned something unexpected.
    case scriptFailed(String)

    /// What went wrong.
    public var description: String {
        switch self {
        case .browserNotFound: return "no Chromium found (install chromium, or set CHROMIUM to its path)"
        case let .launchFailed(why): return "could not start Chromium: \(why)"
        case .disconnected: return "Chromium closed the DevTools pipe"
        case let .timeout(method, seconds): return "\(method): no reply within \(seconds) s"
        case let .commandFailed(method, message): return "\(method): \(message)"
        case let .malformedMessage(text): return "malformed DevTools message: \(text.prefix(200))"
        case let .scriptFailed(text): return "page script failed: \(text.prefix(300))"
        }
    }
}

/// An event the browser sent: its method, parameters and target session.
struct DevToolsEvent {
    var method: String
    var params: JSONObject
    var sessionId: String?
}

/// A headless Chromium spoken to over `--remote-debugging-pipe`: the child reads commands
/// on its fd 3 and writes replies and events on its fd 4, each message JSON ending in a NUL
/// byte. Synchronous: a command blocks until its reply, and events that arrive meanwhile
/// are kept in order for ``nextEvent(timeout:where:)``. Not thread-safe; one owner.
final class DevToolsConnection {
    private let process: pid_t
    private let commands: Int32
    private let replies: Int32
    private let profile: URL
    private var buffer: [UInt8] = []
    /// Where the next message starts in `buffer`, and how far it was searched for its end.
    private var start = 0, scanned = 0
    private var nextID = 0
    private(set) var events: [DevToolsEvent] = []
    private var closed = false

    /// Finds Chromium: `$CHROMIUM`, else `chromium`, `chromium-browser`, `google-chrome` on the PATH.
    static func findBrowser() -> String? {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["CHROMIUM"], FileManager.default.isExecutableFile(atPath: path) { return path }
        let names = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"]
        for directory in (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            for name in names where FileManager.default.isExecutableFile(atPath: "\(directory)/\(name)") {
                return "\(directory)/\(name)"
            }
        }
        return nil
    }

    /// Starts a headless Chromium with an empty profile in a temporary directory. Ignores
    /// SIGPIPE for the whole process, so that a browser that dies cannot kill the host.
    init(executable: String? = nil) throws(DevToolsError) {
        guard let path = executable ?? Self.findBrowser() else { throw .browserNotFound }
        profile = FileManager.default.temporaryDirectory.appendingPathComponent("scratchpad-ink-chromium-\(UUID().uuidString)")
        var toChild: [Int32] = [0, 0], fromChild: [Int32] = [0, 0]
        guard pipe(&toChild) == 0, pipe(&fromChild) == 0 else { throw .launchFailed("pipe: \(String(cString: strerror(errno)))") }
        // pipe() may hand out 3 and 4 themselves: move every end to 10 or above first.
        func high(_ fd: Int32) -> Int32 {
            let moved = fcntl(fd, F_DUPFD_CLOEXEC, 10)
            close(fd)
            return moved
        }
        let childReads = high(toChild[0]), parentWrites = high(toChild[1])
        let parentReads = high(fromChild[0]), childWrites = high(fromChild[1])
        guard childReads >= 0, parentWrites >= 0, parentReads >= 0, childWrites >= 0 else {
            for fd in [childReads, parentWrites, parentReads, childWrites] where fd >= 0 { close(fd) }
            throw .launchFailed("fcntl: \(String(cString: strerror(errno)))")
        }

        var arguments = [path, "--headless", "--disable-gpu", "--remote-debugging-pipe", "--no-first-run",
                         "--no-default-browser-check", "--hide-scrollbars", "--mute-audio", "--disable-extensions",
                         "--user-data-dir=\(profile.path)", "about:blank"]
        if getuid() == 0 { arguments.insert("--no-sandbox", at: 1) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, childReads, 3)
        posix_spawn_file_actions_adddup2(&actions, childWrites, 4)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var pid: pid_t = 0
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let status = posix_spawn(&pid, path, &actions, nil, argv, environ)
        close(childReads)
        close(childWrites)
        guard status == 0 else {
            close(parentWrites)
            close(parentReads)
            throw .launchFailed(String(cString: strerror(status)))
        }
        process = pid
        commands = parentWrites
        replies = parentReads
        signal(SIGPIPE, SIG_IGN)
    }

    deinit { shutDown() }

    /// Closes the browser and removes its profile.
    func shutDown() {
        guard !closed else { return }
        closed = true
        _ = try? call("Browser.close", timeout: 2)
        close(commands)
        close(replies)
        var status: Int32 = 0
        for _ in 0..<40 {
            if waitpid(process, &status, WNOHANG) == process { break }
            usleep(50_000)
        }
        if waitpid(process, &status, WNOHANG) == 0 {
            kill(process, SIGKILL)
            waitpid(process, &status, 0)
        }
        try? FileManager.default.removeItem(at: profile)
    }

    /// Sends a command and waits for its reply; returns the reply's `result`.
    @discardableResult
    func call(_ method: String, _ params: JSONObject = JSONObject(), session: String? = nil,
              timeout: Double = 15) throws(DevToolsError) -> JSONObject {
        nextID += 1
        let id = nextID
        var message = JSONObject()
        message.append("id", .number(Double(id)))
        message.append("method", .string(method))
        message.append("params", .object(params))
        if let session { message.append("sessionId", .string(session)) }
        var bytes = Array(JSONValue.object(message).serialized().utf8)
        bytes.append(0)
        var written = 0
        while written < bytes.count {
            let n = bytes[written...].withUnsafeBytes { write(commands, $0.baseAddress, $0.count) }
            if n <= 0 {
                if n < 0 && errno == EINTR { continue }
                throw .disconnected
            }
            written += n
        }
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let object = try readMessage(until: deadline, method: method)
            // `Int(exactly:)`: an id of 1e300 or 0.5 from the browser is no reply of ours, not a trap.
            if case let .number(replyID)? = object["id"], Int(exactly: replyID) == id {
                if case let .object(error)? = object["error"] {
                    if case let .string(text)? = error["message"] { throw .commandFailed(method: method, message: text) }
                    throw .commandFailed(method: method, message: JSONValue.object(error).serialized())
                }
                if case let .object(result)? = object["result"] { return result }
                return JSONObject()
            }
            keepEvent(object)
        }
    }

    /// Removes and returns the first event (already received, or arriving before `timeout`)
    /// that matches; `nil` when none came in time.
    func nextEvent(timeout: Double, where matches: (DevToolsEvent) -> Bool) throws(DevToolsError) -> DevToolsEvent? {
        if let index = events.firstIndex(where: matches) { return events.remove(at: index) }
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let object: JSONObject
            do { object = try readMessage(until: deadline, method: "waiting for an event") } catch {
                if case .timeout = error { return nil }
                throw error
            }
            keepEvent(object)
            if let index = events.firstIndex(where: matches) { return events.remove(at: index) }
        }
    }

    /// The events anything here waits for; the rest (console messages, network, a page's
    /// floods of them) are read and dropped, so a page cannot fill memory through the pipe.
    static let keptEvents: Set<String> = ["Page.loadEventFired"]
    /// The most events kept unread; beyond it the oldest go.
    static let maxKeptEvents = 1_000

    private func keepEvent(_ object: JSONObject) {
        guard case let .string(method)? = object["method"], Self.keptEvents.contains(method) else { return }
        var params = JSONObject()
        if case let .object(p)? = object["params"] { params = p }
        var session: String?
        if case let .string(s)? = object["sessionId"] { session = s }
        events.append(DevToolsEvent(method: method, params: params, sessionId: session))
        if events.count > Self.maxKeptEvents { events.removeFirst(events.count - Self.maxKeptEvents) }
    }

    /// An event nothing waits for, told by its first bytes (`{"method":"…"`), so a flood of
    /// large console or network events costs no parsing.
    private static func isUnwantedEvent(_ message: [UInt8]) -> Bool {
        let prefix = Array(#"{"method":""#.utf8)
        guard message.count > prefix.count, message.starts(with: prefix) else { return false }
        let rest = message[prefix.count...]
        guard let quote = rest.firstIndex(of: UInt8(ascii: "\"")) else { return false }
        return !keptEvents.contains(String(decoding: rest[..<quote], as: UTF8.self))
    }

    private func readMessage(until deadline: Date, method: String) throws(DevToolsError) -> JSONObject {
        while true {
            if let end = buffer[scanned...].firstIndex(of: 0) {
                let message = Array(buffer[start..<end])
                start = end + 1
                scanned = start
                if start > 1 << 20 || start == buffer.count {  // compact now and then: reading stays linear
                    buffer.removeFirstBounded(start)   // a large message's storage is not kept
                    start = 0
                    scanned = 0
                }
                if Self.isUnwantedEvent(message) { continue }  // not even parsed
                let value: JSONValue
                do { value = try JSONParser.parse(message, maxDepth: 64) } catch {
                    throw .malformedMessage(String(decoding: message, as: UTF8.self))
                }
                guard case let .object(object) = value else { throw .malformedMessage(String(decoding: message, as: UTF8.self)) }
                return object
            }
            let remaining = deadline.timeIntervalSinceNow
            if remaining < -0.001 { throw .timeout(method: method, seconds: 0) }  // a stream that never pauses
            var descriptor = pollfd(fd: replies, events: Int16(POLLIN), revents: 0)
            let ready = Glibc.poll(&descriptor, 1, Int32(max(0, min(remaining, 60)) * 1000))
            if ready < 0 {
                if errno == EINTR { continue }
                throw .disconnected
            }
            if ready == 0 {
                throw .timeout(method: method, seconds: (remaining * 1000).rounded() / 1000)
            }
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let n = chunk.withUnsafeMutableBytes { read(replies, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw .disconnected }
            scanned = buffer.count
            buffer.append(contentsOf: chunk[..<n])
        }
    }
}
#endif
