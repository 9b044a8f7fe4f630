#if canImport(Glibc)
@_spi(Tooling) import ChromiumBridge
import Foundation
import Testing

/// A browser that misbehaves gets a typed error, not a hang or a crash. These stand-ins run
/// without Chromium: tiny shell scripts in the browser's place.
@Suite("DevTools connection: a misbehaving browser")
struct DevToolsErrorTests {
    /// A stand-in browser (Tests/Fakes/fake-browser.sh) run through a fresh symbolic link
    /// whose name picks its behaviour.
    private static func fakeBrowser(_ behaviour: String) throws -> String {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fakes/fake-browser.sh").path
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("\(behaviour)-\(UUID().uuidString)").path
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: script)
        return path
    }

    private static let page = URL(fileURLWithPath: "/nonexistent/page.html")

    @Test("a browser that cannot be started is a launch failure")
    func cannotStart() {
        #expect {
            _ = try ChromiumPage(url: Self.page, executable: "/nonexistent/chromium")
        } throws: { error in
            if case .launchFailed = error as? DevToolsError { return true }
            return false
        }
    }

    @Test("a browser that exits at once is a disconnection")
    func exitsAtOnce() throws {
        let browser = try Self.fakeBrowser("exits-at-once")
        defer { try? FileManager.default.removeItem(atPath: browser) }
        #expect {
            _ = try ChromiumPage(url: Self.page, executable: browser)
        } throws: { error in
            if case .disconnected = error as? DevToolsError { return true }
            return false
        }
    }

    @Test("a browser that answers with something that is not JSON is a malformed message")
    func answersGarbage() throws {
        let browser = try Self.fakeBrowser("sends-garbage")
        defer { try? FileManager.default.removeItem(atPath: browser) }
        #expect {
            _ = try ChromiumPage(url: Self.page, executable: browser)
        } throws: { error in
            if case .malformedMessage = error as? DevToolsError { return true }
            return false
        }
    }

    @Test("a browser that refuses a command gives its message")
    func refusesCommand() throws {
        let browser = try Self.fakeBrowser("refuses")
        defer { try? FileManager.default.removeItem(atPath: browser) }
        #expect {
            _ = try ChromiumPage(url: Self.page, executable: browser)
        } throws: { error in
            if case let .commandFailed(method, message) = error as? DevToolsError {
                return method == "Target.createTarget" && message == "no targets today"
            }
            return false
        }
    }

    @Test("a reply whose id is no whole number (1e300, 0.5) is no reply of ours: skipped, not a trap")
    func hugeReplyID() throws {
        let browser = try Self.fakeBrowser("huge-reply-id")
        defer { try? FileManager.default.removeItem(atPath: browser) }
        #expect {
            _ = try ChromiumPage(url: Self.page, executable: browser)
        } throws: { error in
            if case let .commandFailed(method, message) = error as? DevToolsError {
                return method == "Target.createTarget" && message == "no targets today"
            }
            return false
        }
    }
}
#endif
