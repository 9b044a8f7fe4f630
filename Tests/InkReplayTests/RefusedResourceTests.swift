import Foundation
import Testing

/// Issue 53, class 2: every resource a command asks for can be refused, and a refusal is an
/// error or a smaller pool, never a wait. Each test runs the built tool as a child process
/// under a `ulimit` (each run is bounded by `timeout`, so a hang fails the test instead of
/// stopping the suite).
@Suite("refused resources: threads, file descriptors and memory refused make an error or a smaller pool, never a wait")
struct RefusedResourceTests {
    /// A directory of `count` copies of a small fixture.
    static func corpus(_ count: Int) throws -> URL {
        let directory = try CLITests.temporaryDirectory()
        let log = try Data(contentsOf: URL(fileURLWithPath: CLITests.fixtures).appendingPathComponent("decimal-point.jsonl"))
        for i in 0..<count { try log.write(to: directory.appendingPathComponent("s\(i).jsonl")) }
        return directory
    }

    static var isRoot: Bool { getuid() == 0 }
    /// A user id with no account and no process, for the process-limit test run as root.
    static let unusedUser = 61_234
    static var setpriv: String? { ["/usr/bin/setpriv", "/bin/setpriv"].first { FileManager.default.isExecutableFile(atPath: $0) } }

    /// Address-space limits, in KiB, from a little above what the tool needs at rest to above
    /// what 200 stacks of 8 MiB take. Where the limit cuts the pool decides how little room is
    /// left for the replays' own allocations: before the threads not admitted were joined, 300,
    /// 700, 800 MB and 1.2 GB crashed or hung here, and CI's 1 GB run crashed (stop 56).
    static let addressSpaceLimits = [300_000, 500_000, 700_000, 800_000, 1_048_576, 1_200_000]

    @Test("verify --jobs 200 under address-space limits from 300 MB to 1.2 GB: the threads that started replay every session, and it says so (it waited forever; then crashed on the replays' first allocations)",
          arguments: RefusedResourceTests.addressSpaceLimits)
    func threadsRefusedForAddressSpace(kibibytes: Int) throws {
        let directory = try Self.corpus(250)
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try CLITests.shell(#"ulimit -v \#(kibibytes); exec timeout -k 5 120 "$0" verify --jobs 200 "$1""#, [directory.path])
        #expect(result.status == 0, "exit \(result.status) (124: it hung): \(result.stderr.suffix(300))")
        #expect(result.stdout.contains("verified 250 sessions"), "\(result.stdout.suffix(300))")
        #expect(result.stderr.contains("Note: --jobs 200: the system refused a thread ("), "\(result.stderr.suffix(300))")
    }

    @Test("verify --jobs 64 under a 30-process limit as an unprivileged user: a smaller pool, said on standard error (it waited forever)",
          .enabled(if: !RefusedResourceTests.isRoot || RefusedResourceTests.setpriv != nil, "root ignores ulimit -u, and setpriv is missing"))
    func threadsRefusedForProcessLimit() throws {
        let directory = try Self.corpus(100)
        defer { try? FileManager.default.removeItem(at: directory) }
        // Root is not held to RLIMIT_NPROC: the run drops to a user id nothing else runs as
        // (the limit counts every process of the user: `nobody`'s would count too).
        let drop = Self.isRoot ? "\(Self.setpriv!) --reuid=\(Self.unusedUser) --regid=\(Self.unusedUser) --clear-groups " : ""
        let result = try CLITests.shell(#"ulimit -u 30; exec \#(drop)timeout -k 5 120 "$0" verify --jobs 64 "$1""#, [directory.path])
        #expect(result.status == 0, "exit \(result.status) (124: it hung): \(result.stderr.suffix(300))")
        #expect(result.stdout.contains("verified 100 sessions"), "\(result.stdout.suffix(300))")
        #expect(result.stderr.contains("Note: --jobs 64: the system refused a thread ("), "\(result.stderr.suffix(300))")
    }

    @Test("verify --jobs 8 of 250 logs under ulimit -n 9, and fixtures under ulimit -n 8: an error naming the refusal, nothing left behind")
    func descriptorsRefused() throws {
        let directory = try Self.corpus(250)
        defer { try? FileManager.default.removeItem(at: directory) }
        let verify = try CLITests.shell(#"ulimit -n 9; exec timeout -k 5 120 "$0" verify --jobs 8 "$1""#, [directory.path])
        #expect(verify.status == 1, "exit \(verify.status) (124: it hung): \(verify.stderr.suffix(300))")
        #expect(verify.stderr.contains("cannot open the file for reading: Too many open files"), "\(verify.stderr.prefix(300))")
        let target = directory.appendingPathComponent("fixtures")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        let fixtures = try CLITests.shell(#"ulimit -n 8; exec timeout -k 5 120 "$0" fixtures "$1""#, [target.path])
        #expect(fixtures.status == 1, "exit \(fixtures.status): \(fixtures.stderr.suffix(300))")
        #expect(fixtures.stderr.contains("cannot create a file beside it (Too many open files)"), "\(fixtures.stderr.prefix(300))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: target.path).isEmpty)
    }
}
