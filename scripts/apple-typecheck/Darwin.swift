// A stand-in for Apple's Darwin module, for scripts/apple-typecheck.sh only: never linked, never
// run. It declares only what ScratchpadInk's sources use, with the shapes Swift imports them
// in from Apple's C headers on Darwin (which differ from Glibc's: `RUSAGE_SELF` is a plain
// `Int32` macro, not an enum case with a `rawValue`). Everything here predates iOS 17 and
// macOS 14 unless annotated. Where Darwin and Glibc differ in shape, the shape is Darwin's.

func standIn() -> Never { fatalError("apple-typecheck stand-in: never run") }

// MARK: math.h
@discardableResult public func sin(_ x: Double) -> Double { standIn() }
@discardableResult public func cos(_ x: Double) -> Double { standIn() }
@discardableResult public func tan(_ x: Double) -> Double { standIn() }
@discardableResult public func atan2(_ y: Double, _ x: Double) -> Double { standIn() }
@discardableResult public func acos(_ x: Double) -> Double { standIn() }
@discardableResult public func asin(_ x: Double) -> Double { standIn() }
@discardableResult public func atan(_ x: Double) -> Double { standIn() }
@discardableResult public func exp(_ x: Double) -> Double { standIn() }
@discardableResult public func log(_ x: Double) -> Double { standIn() }
@discardableResult public func log2(_ x: Double) -> Double { standIn() }
@discardableResult public func log10(_ x: Double) -> Double { standIn() }
@discardableResult public func pow(_ x: Double, _ y: Double) -> Double { standIn() }
@discardableResult public func hypot(_ x: Double, _ y: Double) -> Double { standIn() }
@discardableResult public func sqrt(_ x: Double) -> Double { standIn() }
@discardableResult public func floor(_ x: Double) -> Double { standIn() }
@discardableResult public func ceil(_ x: Double) -> Double { standIn() }
@discardableResult public func round(_ x: Double) -> Double { standIn() }
@discardableResult public func fabs(_ x: Double) -> Double { standIn() }
@discardableResult public func fmod(_ x: Double, _ y: Double) -> Double { standIn() }

// MARK: errno.h, string.h, unistd.h, stdlib.h, fcntl.h
public var errno: Int32 { get { standIn() } set {} }
@discardableResult public func strerror(_ errnum: Int32) -> UnsafeMutablePointer<CChar>! { standIn() }
@discardableResult public func usleep(_ microseconds: UInt32) -> Int32 { standIn() }
@discardableResult public func isatty(_ fd: Int32) -> Int32 { standIn() }
public func exit(_ status: Int32) -> Never { standIn() }
@discardableResult public func close(_ fd: Int32) -> Int32 { standIn() }
@discardableResult public func open(_ path: UnsafePointer<CChar>, _ oflag: Int32) -> Int32 { standIn() }
@discardableResult public func open(_ path: UnsafePointer<CChar>, _ oflag: Int32, _ mode: mode_t) -> Int32 { standIn() }
public typealias mode_t = UInt16
public var O_RDONLY: Int32 { standIn() }
public var O_WRONLY: Int32 { standIn() }
public var O_RDWR: Int32 { standIn() }
public var O_CREAT: Int32 { standIn() }
public var O_EXCL: Int32 { standIn() }
public var O_TRUNC: Int32 { standIn() }
public var O_NONBLOCK: Int32 { standIn() }
public var O_NOFOLLOW: Int32 { standIn() }
public var O_CLOEXEC: Int32 { standIn() }
public var EINTR: Int32 { standIn() }
public var EAGAIN: Int32 { standIn() }
public var ENOENT: Int32 { standIn() }
public var EEXIST: Int32 { standIn() }
public var ENOTDIR: Int32 { standIn() }
public var ELOOP: Int32 { standIn() }
public var EPIPE: Int32 { standIn() }
public var EIO: Int32 { standIn() }
public var EBADF: Int32 { standIn() }
public var EINVAL: Int32 { standIn() }
public var EROFS: Int32 { standIn() }
public var _SC_PAGESIZE: Int32 { standIn() }
/// `pathconf(2)` names and `PATH_MAX`: macros, imported as `Int32`.
public var _PC_NAME_MAX: Int32 { standIn() }
public var PATH_MAX: Int32 { standIn() }
public typealias off_t = Int64
public typealias uid_t = UInt32
public var SEEK_SET: Int32 { standIn() }
public var F_GETFD: Int32 { standIn() }
@discardableResult public func write(_ fd: Int32, _ buf: UnsafeRawPointer!, _ nbyte: Int) -> Int { standIn() }
@discardableResult public func read(_ fd: Int32, _ buf: UnsafeMutableRawPointer!, _ nbyte: Int) -> Int { standIn() }
@discardableResult public func pathconf(_ path: UnsafePointer<CChar>!, _ name: Int32) -> Int { standIn() }
@discardableResult public func ftruncate(_ fd: Int32, _ length: off_t) -> Int32 { standIn() }
@discardableResult public func lseek(_ fd: Int32, _ offset: off_t, _ whence: Int32) -> off_t { standIn() }
@discardableResult public func fsync(_ fd: Int32) -> Int32 { standIn() }
@discardableResult public func dup2(_ fd: Int32, _ fd2: Int32) -> Int32 { standIn() }
/// Darwin's overlay declares the two-argument form of the variadic `fcntl`.
@discardableResult public func fcntl(_ fd: Int32, _ cmd: Int32) -> Int32 { standIn() }
@discardableResult public func geteuid() -> uid_t { standIn() }
@discardableResult public func realpath(_ path: UnsafePointer<CChar>!, _ resolved: UnsafeMutablePointer<CChar>!) -> UnsafeMutablePointer<CChar>! { standIn() }
public func free(_ pointer: UnsafeMutableRawPointer?) { standIn() }
@discardableResult public func sysconf(_ name: Int32) -> Int { standIn() }

// MARK: sys/stat.h
/// Darwin's `struct stat` (the fields used here, with Darwin's types: `st_dev` is an
/// `Int32`, `st_mode` a `UInt16`, `st_ino` a `UInt64`). `stat(2)` has the struct's name, as
/// on Darwin (declared in the Foundation stand-in, which re-exports this module: a Swift
/// source cannot declare a function and a struct of one name, as C can); the `S_IF…`
/// file-type bits are `mode_t` values.
public struct timespec { public var tv_sec: Int = 0; public var tv_nsec: Int = 0; public init() {} }
@discardableResult public func link(_ path1: UnsafePointer<CChar>, _ path2: UnsafePointer<CChar>) -> Int32 { standIn() }
public typealias dev_t = Int32
public typealias ino_t = UInt64
public struct stat {
    public var st_dev: dev_t = 0
    public var st_mode: mode_t = 0
    public var st_ino: ino_t = 0
    public var st_uid: uid_t = 0
    public var st_size: Int64 = 0
    public var st_mtimespec = timespec()
    public init() {}
}
@discardableResult public func lstat(_ path: UnsafePointer<CChar>, _ buf: UnsafeMutablePointer<stat>) -> Int32 { standIn() }
@discardableResult public func fstat(_ fd: Int32, _ buf: UnsafeMutablePointer<stat>) -> Int32 { standIn() }
public var S_IFMT: mode_t { standIn() }
public var S_IFREG: mode_t { standIn() }
public var S_IFIFO: mode_t { standIn() }
public var S_IFDIR: mode_t { standIn() }
public var S_IFCHR: mode_t { standIn() }
public var S_IFBLK: mode_t { standIn() }
public var S_IFSOCK: mode_t { standIn() }
public var S_IFLNK: mode_t { standIn() }
public var S_ISVTX: mode_t { standIn() }

// MARK: sys/resource.h
/// Darwin's `struct rusage`; `ru_maxrss` is in bytes on Darwin (kilobytes on Linux).
public struct timeval { public var tv_sec: Int = 0; public var tv_usec: Int32 = 0; public init() {} }
public struct rusage {
    public var ru_utime = timeval()
    public var ru_stime = timeval()
    public var ru_maxrss: Int = 0
    public init() {}
}
/// A macro on Darwin, so Swift imports it as a plain `Int32`.
public var RUSAGE_SELF: Int32 { standIn() }
@discardableResult public func getrusage(_ who: Int32, _ usage: UnsafeMutablePointer<rusage>!) -> Int32 { standIn() }

// MARK: time.h
public typealias clockid_t = UInt32
/// `CLOCK_UPTIME_RAW`: mach_absolute_time's clock, which does not advance while the system sleeps.
@available(macOS 10.12, iOS 10.0, *) public var CLOCK_UPTIME_RAW: clockid_t { standIn() }
@available(macOS 10.12, iOS 10.0, *) public var CLOCK_MONOTONIC_RAW: clockid_t { standIn() }
@discardableResult @available(macOS 10.12, iOS 10.0, *) public func clock_gettime_nsec_np(_ clock: clockid_t) -> UInt64 { standIn() }

// MARK: mach (mach/task_info.h, mach/mach_init.h, mach/kern_return.h)
public typealias natural_t = UInt32
public typealias integer_t = Int32
public typealias kern_return_t = Int32
public typealias mach_port_t = UInt32
public typealias task_name_t = mach_port_t
public typealias task_flavor_t = natural_t
public typealias task_info_t = UnsafeMutablePointer<integer_t>
public typealias mach_msg_type_number_t = natural_t
public typealias mach_vm_size_t = UInt64
public typealias policy_t = Int32
public struct time_value_t { public var seconds: integer_t = 0; public var microseconds: integer_t = 0; public init() {} }
public struct mach_task_basic_info {
    public var virtual_size: mach_vm_size_t = 0
    public var resident_size: mach_vm_size_t = 0
    public var resident_size_max: mach_vm_size_t = 0
    public var user_time = time_value_t()
    public var system_time = time_value_t()
    public var policy: policy_t = 0
    public var suspend_count: integer_t = 0
    public init() {}
}
/// Macros, imported as `Int32`.
public var MACH_TASK_BASIC_INFO: Int32 { standIn() }
public var KERN_SUCCESS: Int32 { standIn() }
/// `extern mach_port_t mach_task_self_;` (mach/mach_init.h), imported as a stored global
/// `var`: SDKs before macOS 15.4 / iOS 18.4 (Xcode 16.0-16.2, which the manifest allows) do
/// not mark it `__swift_nonisolated_unsafe`, so Swift 6 refuses to read it ("reference to var
/// 'mach_task_self_' is not concurrency-safe"; apple/swift-system#373). Modelled as the older
/// SDK has it, so that a read of it is refused here too.
public var mach_task_self_: mach_port_t = 0
public typealias mach_port_name_t = natural_t
/// `task_self_trap()` (mach/mach_traps.h): the task's own port, from a function.
public func task_self_trap() -> mach_port_name_t { standIn() }
@discardableResult public func task_info(_ target_task: task_name_t, _ flavor: task_flavor_t, _ task_info_out: task_info_t!,
                      _ task_info_outCnt: UnsafeMutablePointer<mach_msg_type_number_t>!) -> kern_return_t { standIn() }

// MARK: stdio.h, unistd.h, signal.h (files the tools write)
@discardableResult public func rename(_ old: UnsafePointer<CChar>, _ new: UnsafePointer<CChar>) -> Int32 { standIn() }
@discardableResult public func unlink(_ path: UnsafePointer<CChar>) -> Int32 { standIn() }
@discardableResult public func mkdir(_ path: UnsafePointer<CChar>, _ mode: mode_t) -> Int32 { standIn() }

// MARK: dirent.h (directory walks by the names' bytes)
/// Darwin's `DIR` is opaque here; `struct dirent`'s `d_name` is a tuple of 1024 `CChar`
/// on Darwin (a shorter tuple here: the code reads it through a pointer, whatever its length).
public struct DIR {}
public struct dirent {
    public var d_ino: UInt64 = 0
    public var d_name: (CChar, CChar, CChar, CChar, CChar, CChar, CChar, CChar) = (0, 0, 0, 0, 0, 0, 0, 0)
    public init() {}
}
@discardableResult public func opendir(_ path: UnsafePointer<CChar>) -> UnsafeMutablePointer<DIR>! { standIn() }
@discardableResult public func readdir(_ dir: UnsafeMutablePointer<DIR>!) -> UnsafeMutablePointer<dirent>! { standIn() }
@discardableResult public func closedir(_ dir: UnsafeMutablePointer<DIR>!) -> Int32 { standIn() }
public typealias sig_t = @convention(c) (Int32) -> Void
public var SIGXFSZ: Int32 { standIn() }
public var SIGPIPE: Int32 { standIn() }
public var SIG_IGN: sig_t! { standIn() }
@discardableResult public func signal(_ signal: Int32, _ handler: sig_t!) -> sig_t! { standIn() }

// MARK: Memory mapping (ink-replay's --jobs workers hold a reserve of address space while
// threads are asked for). Darwin's shapes (sys/mman.h of the macOS 14 SDK): `mmap` returns an
// implicitly unwrapped raw pointer, MAP_FAILED on failure (compared as the pointer -1 here).
public var PROT_NONE: Int32 { standIn() }
public var MAP_PRIVATE: Int32 { standIn() }
public var MAP_ANON: Int32 { standIn() }
@discardableResult public func mmap(_ addr: UnsafeMutableRawPointer!, _ len: Int, _ prot: Int32, _ flags: Int32,
                                    _ fd: Int32, _ offset: off_t) -> UnsafeMutableRawPointer! { standIn() }
@discardableResult public func munmap(_ addr: UnsafeMutableRawPointer!, _ len: Int) -> Int32 { standIn() }

// MARK: POSIX threads (ink-replay's --jobs workers: pthread_create says when a thread is refused;
// InkLoop's debug check: pthread_self, pthread_equal)
/// Darwin's shapes: `pthread_t` is a non-optional pointer to an opaque struct, and
/// `pthread_create` takes a `pthread_t?` out-parameter and a start routine whose argument is
/// non-optional (Apple: "pthread_create", the `pthread` headers of the macOS 14 SDK).
public struct _opaque_pthread_t {}
public typealias pthread_t = UnsafeMutablePointer<_opaque_pthread_t>
public struct _opaque_pthread_attr_t { public var __sig: Int = 0; public init() {} }
public typealias pthread_attr_t = _opaque_pthread_attr_t
@discardableResult public func pthread_attr_init(_ attr: UnsafeMutablePointer<pthread_attr_t>!) -> Int32 { standIn() }
@discardableResult public func pthread_attr_destroy(_ attr: UnsafeMutablePointer<pthread_attr_t>!) -> Int32 { standIn() }
@discardableResult public func pthread_attr_setstacksize(_ attr: UnsafeMutablePointer<pthread_attr_t>!, _ size: Int) -> Int32 { standIn() }
@discardableResult public func pthread_create(_ thread: UnsafeMutablePointer<pthread_t?>!, _ attr: UnsafePointer<pthread_attr_t>?,
                                              _ start: @convention(c) (UnsafeMutableRawPointer) -> UnsafeMutableRawPointer?,
                                              _ arg: UnsafeMutableRawPointer?) -> Int32 { standIn() }
@discardableResult public func pthread_self() -> pthread_t { standIn() }
@discardableResult public func pthread_equal(_ t1: pthread_t!, _ t2: pthread_t!) -> Int32 { standIn() }
@discardableResult public func pthread_join(_ thread: pthread_t, _ value: UnsafeMutablePointer<UnsafeMutableRawPointer?>?) -> Int32 { standIn() }
