// The one place where ink-replay differs between Linux and Apple platforms: reading the
// process's own memory, and whether standard error is a terminal. Everything else in the
// tool is portable Foundation.
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
#if !canImport(Darwin)
import Foundation
#endif

/// The process's resident memory, for the soak's memory check and the peak it prints.
enum ProcessMemory {
    #if canImport(Darwin)
    /// The task's own port, asked of the kernel once through `task_self_trap()` (a function;
    /// the C library fills `mach_task_self_` the same way at start). Not `mach_task_self_`
    /// itself: it is a C global variable, which Swift 6 refuses to read ("reference to var
    /// 'mach_task_self_' is not concurrency-safe") with an SDK before macOS 15.4, where it
    /// gained its concurrency annotation (Xcode 16.0-16.2, which the manifest allows; see
    /// apple/swift-system issue 373 and pull request 369). Not type-checked here: the Apple
    /// type-check has no Darwin module; check with Xcode 16.0-16.2.
    private static let machTask: mach_port_t = task_self_trap()
    #endif

    /// Resident memory now, bytes: `task_info(MACH_TASK_BASIC_INFO)` on Darwin,
    /// `/proc/self/statm` on Linux. `nil` only when the system refuses to say.
    @Sendable static func residentBytes() -> Int? {
        #if canImport(Darwin)
        var info = mach_task_basic_info()
        var count = mach_msg_type_number_t(MemoryLayout<mach_task_basic_info>.size / MemoryLayout<natural_t>.size)
        let result = withUnsafeMutablePointer(to: &info) { pointer in
            pointer.withMemoryRebound(to: integer_t.self, capacity: Int(count)) {
                task_info(machTask, task_flavor_t(MACH_TASK_BASIC_INFO), $0, &count)
            }
        }
        return result == KERN_SUCCESS ? Int(info.resident_size) : nil
        #else
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
        #endif
    }

    /// The process's peak resident memory so far, bytes. `getrusage`'s `ru_maxrss` is in
    /// bytes on Darwin and in kilobytes on Linux.
    static func peakResidentBytes() -> Int {
        var usage = rusage()
        #if canImport(Darwin)
        getrusage(RUSAGE_SELF, &usage)
        return usage.ru_maxrss
        #else
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss * 1_024
        #endif
    }
}

/// The terminal the tool may be writing to.
enum Terminal {
    /// Whether standard error (file descriptor 2) is a terminal: `isatty(2)` (Darwin, Glibc
    /// and Musl alike). Progress is shown there by default.
    static var standardErrorIsTerminal: Bool {
        #if canImport(Darwin) || canImport(Glibc) || canImport(Musl)
        return isatty(2) == 1
        #else
        return false
        #endif
    }
}
