// A stand-in for Apple's Foundation, for scripts/apple-typecheck.sh only: never linked, never
// run. It declares only the Foundation API that ScratchpadInk's sources use, each with the
// availability Apple documents for it where that is newer than iOS 13 / macOS 10.15 (older
// API is available on every deployment target SwiftPM accepts for this package). Adding a
// declaration here is a claim about Apple's SDK: check it against Apple's documentation first
// and note the page in scripts/apple-typecheck/README.md.
@_exported import Darwin

func standIn() -> Never { fatalError("apple-typecheck stand-in: never run") }

// MARK: Errors
extension Error {
    /// Apple: `Error.localizedDescription` (bridged from NSError).
    public var localizedDescription: String { standIn() }
}
public struct CocoaError: Error {
    public struct Code: Sendable { public static var fileNoSuchFile: Code { standIn() }
                                   public static var fileReadUnknown: Code { standIn() } }
    public init(_ code: Code) { standIn() }
}
public struct POSIXError: Error {
    public init(_ code: POSIXErrorCode) { standIn() }
}
public struct POSIXErrorCode: RawRepresentable, Sendable {
    public var rawValue: Int32
    public init?(rawValue: Int32) { self.rawValue = rawValue }
}

// MARK: ObjCBool
public struct ObjCBool: ExpressibleByBooleanLiteral, Sendable {
    public init(_ value: Bool) { boolValue = value }
    public init(booleanLiteral value: Bool) { boolValue = value }
    public var boolValue: Bool
}

// MARK: Data
public struct Data: RandomAccessCollection, MutableCollection, RangeReplaceableCollection, Hashable, Sendable {
    public typealias Index = Int
    public typealias Element = UInt8
    public init() {}
    public init<S: Sequence>(_ elements: S) where S.Element == UInt8 { standIn() }
    public init(bytes: UnsafeRawPointer, count: Int) { standIn() }
    public init(contentsOf url: URL) throws { standIn() }
    public var startIndex: Int { standIn() }
    public var endIndex: Int { standIn() }
    public subscript(position: Int) -> UInt8 { get { standIn() } set {} }
    public mutating func replaceSubrange<C: Collection>(_ subrange: Range<Int>, with newElements: C) where C.Element == UInt8 { standIn() }
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R { standIn() }
    public mutating func withUnsafeMutableBytes<R>(_ body: (UnsafeMutableRawBufferPointer) throws -> R) rethrows -> R { standIn() }
    public struct WritingOptions: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static var atomic: WritingOptions { standIn() }
        public static var withoutOverwriting: WritingOptions { standIn() }
    }
    public func write(to url: URL, options: WritingOptions = []) throws { standIn() }
    public func base64EncodedString() -> String { standIn() }
    public init?(base64Encoded string: String) { standIn() }
}

// MARK: URL
public struct URL: Hashable, Sendable, CustomStringConvertible {
    public init(fileURLWithPath path: String) { standIn() }
    public init(fileURLWithPath path: String, isDirectory: Bool) { standIn() }
    public init?(string: String) { standIn() }
    /// Apple: macOS 13, iOS 16.
    @available(macOS 13.0, iOS 16.0, *) public init(filePath path: String) { standIn() }
    public var path: String { standIn() }
    public var absoluteString: String { standIn() }
    public var description: String { standIn() }
    public var lastPathComponent: String { standIn() }
    public var pathExtension: String { standIn() }
    public func appendingPathComponent(_ component: String) -> URL { standIn() }
    public func deletingLastPathComponent() -> URL { standIn() }
    public func deletingPathExtension() -> URL { standIn() }
    public func appendingPathExtension(_ pathExtension: String) -> URL { standIn() }
    public var standardizedFileURL: URL { standIn() }
    public func resolvingSymlinksInPath() -> URL { standIn() }
}

// MARK: String
extension String {
    public struct Encoding: Sendable, Hashable { public static var utf8: Encoding { standIn() } }
    public init(contentsOf url: URL, encoding: Encoding) throws { standIn() }
    public init(contentsOfFile path: String, encoding: Encoding) throws { standIn() }
    public init?(data: Data, encoding: Encoding) { standIn() }
    public init(format: String, _ arguments: any CVarArg...) { standIn() }
    public func data(using encoding: Encoding) -> Data? { standIn() }
    public func write(toFile path: String, atomically: Bool, encoding: Encoding) throws { standIn() }
    public func components(separatedBy separator: String) -> [String] { standIn() }
    public func trimmingCharacters(in set: CharacterSet) -> String { standIn() }
    public func replacingOccurrences(of target: String, with replacement: String) -> String { standIn() }
    public func hasSuffix(_ suffix: String) -> Bool { standIn() }
}
extension StringProtocol {
    public func contains<T: StringProtocol>(_ other: T) -> Bool { standIn() }
    public func range<T: StringProtocol>(of string: T) -> Range<Index>? { standIn() }
}
public struct CharacterSet: Sendable {
    public static var whitespaces: CharacterSet { standIn() }
    public static var whitespacesAndNewlines: CharacterSet { standIn() }
}

// MARK: Date
public struct Date: Sendable, Comparable {
    public init() { standIn() }
    public var timeIntervalSince1970: Double { standIn() }
    public var timeIntervalSinceReferenceDate: Double { standIn() }
    public func timeIntervalSince(_ other: Date) -> Double { standIn() }
    public static func < (lhs: Date, rhs: Date) -> Bool { standIn() }
}

// MARK: Locks
public protocol NSLocking {
    func lock()
    func unlock()
}
extension NSLocking {
    /// Apple lists `NSLocking.withLock(_:)` back to iOS 8 and macOS 10.10 (it is emitted into
    /// the client from the iOS 17 / macOS 14 SDKs on).
    public func withLock<R>(_ body: () throws -> R) rethrows -> R { standIn() }
}
open class NSLock: NSLocking, @unchecked Sendable {
    public init() {}
    open func lock() {}
    open func unlock() {}
}

/// Apple: `NSCondition` (https://developer.apple.com/documentation/foundation/nscondition;
/// iOS 2, macOS 10.5): `lock()`, `unlock()`, `wait()`, `broadcast()`; ink-replay's --jobs pool
/// holds its workers until it is settled.
open class NSCondition: NSLocking, @unchecked Sendable {
    public init() {}
    open func lock() {}
    open func unlock() {}
    open func wait() { standIn() }
    open func broadcast() { standIn() }
}

// MARK: Threads
/// Apple: `Thread.init(block:)` (iOS 10, macOS 10.12), `stackSize`, `start()`.
open class Thread: @unchecked Sendable {
    public init(block: @escaping @Sendable () -> Void) { standIn() }
    open var stackSize: Int { get { standIn() } set { standIn() } }
    open func start() { standIn() }
    /// Apple: https://developer.apple.com/documentation/foundation/thread/ismainthread-swift.type.property
    /// (class var, iOS 2, macOS 10.5).
    open class var isMainThread: Bool { standIn() }
}
/// Apple: Dispatch's `DispatchQueue` (re-exported by Foundation): `main`, `async(execute:)`
/// (https://developer.apple.com/documentation/dispatch/dispatchqueue/main,
/// https://developer.apple.com/documentation/dispatch/dispatchqueue/async(execute:); iOS 8, macOS 10.10).
public final class DispatchQueue: @unchecked Sendable {
    public class var main: DispatchQueue { standIn() }
    public func async(execute work: @escaping @Sendable @convention(block) () -> Void) { standIn() }
}
/// Apple: Dispatch's `DispatchSemaphore` (re-exported by Foundation): `init(value:)`,
/// `signal()` (returns whether a thread was woken, discardable), `wait()`.
public final class DispatchSemaphore: @unchecked Sendable {
    public init(value: Int) { standIn() }
    @discardableResult public func signal() -> Int { standIn() }
    public func wait() { standIn() }
}

// MARK: ProcessInfo
open class ProcessInfo: @unchecked Sendable {
    open class var processInfo: ProcessInfo { standIn() }
    open var environment: [String: String] { standIn() }
    open var arguments: [String] { standIn() }
    /// Apple: "The amount of time the system has been awake since the last time it was
    /// restarted", seconds; the timebase of `UITouch.timestamp`.
    open var systemUptime: Double { standIn() }
    open var processIdentifier: Int32 { standIn() }
    open var activeProcessorCount: Int { standIn() }
}

// MARK: Bundle
open class Bundle: @unchecked Sendable {
    open class var main: Bundle { standIn() }
    public init?(path: String) { standIn() }
    public init?(url: URL) { standIn() }
    open var bundleURL: URL { standIn() }
    open var bundlePath: String { standIn() }
    open var resourceURL: URL? { standIn() }
    open func url(forResource name: String?, withExtension ext: String?) -> URL? { standIn() }
    open func path(forResource name: String?, ofType ext: String?) -> String? { standIn() }
}

// MARK: FileManager
public struct FileAttributeKey: Hashable, Sendable, RawRepresentable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static var size: FileAttributeKey { standIn() }
    public static var type: FileAttributeKey { standIn() }
    public static var posixPermissions: FileAttributeKey { standIn() }
}
public struct FileAttributeType: Hashable, Sendable, RawRepresentable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static var typeRegular: FileAttributeType { standIn() }
    public static var typeDirectory: FileAttributeType { standIn() }
    public static var typeSymbolicLink: FileAttributeType { standIn() }
}
open class FileManager: @unchecked Sendable {
    open class var `default`: FileManager { standIn() }
    public init() {}
    open func fileExists(atPath path: String) -> Bool { standIn() }
    open func fileExists(atPath path: String, isDirectory: UnsafeMutablePointer<ObjCBool>?) -> Bool { standIn() }
    open func isExecutableFile(atPath path: String) -> Bool { standIn() }
    open func isReadableFile(atPath path: String) -> Bool { standIn() }
    open func contents(atPath path: String) -> Data? { standIn() }
    open func createFile(atPath path: String, contents data: Data?, attributes attr: [FileAttributeKey: Any]? = nil) -> Bool { standIn() }
    open func removeItem(atPath path: String) throws { standIn() }
    open func removeItem(at url: URL) throws { standIn() }
    open func moveItem(atPath srcPath: String, toPath dstPath: String) throws { standIn() }
    open func copyItem(atPath srcPath: String, toPath dstPath: String) throws { standIn() }
    open func createDirectory(atPath path: String, withIntermediateDirectories createIntermediates: Bool,
                              attributes: [FileAttributeKey: Any]? = nil) throws { standIn() }
    open func createDirectory(at url: URL, withIntermediateDirectories createIntermediates: Bool,
                              attributes: [FileAttributeKey: Any]? = nil) throws { standIn() }
    open func contentsOfDirectory(atPath path: String) throws -> [String] { standIn() }
    open func attributesOfItem(atPath path: String) throws -> [FileAttributeKey: Any] { standIn() }
    open var temporaryDirectory: URL { standIn() }
    open func enumerator(atPath path: String) -> DirectoryEnumerator? { standIn() }
    /// `NSDirectoryEnumerator`, an `NSEnumerator`: yields paths relative to the enumerated
    /// directory, as `Any` (https://developer.apple.com/documentation/foundation/filemanager/directoryenumerator).
    open class DirectoryEnumerator: NSEnumerator {}
    open var currentDirectoryPath: String { standIn() }
}

// MARK: FileHandle
open class FileHandle: @unchecked Sendable {
    public init(fileDescriptor fd: Int32, closeOnDealloc closeopt: Bool) { standIn() }
    public convenience init(fileDescriptor fd: Int32) { standIn() }
    public convenience init?(forReadingAtPath path: String) { standIn() }
    public convenience init?(forWritingAtPath path: String) { standIn() }
    public convenience init(forReadingFrom url: URL) throws { standIn() }
    open class var standardInput: FileHandle { standIn() }
    open class var standardOutput: FileHandle { standIn() }
    open class var standardError: FileHandle { standIn() }
    open var fileDescriptor: Int32 { standIn() }
    open var availableData: Data { standIn() }
    /// Deprecated by Apple in favour of `write(contentsOf:)`, still available.
    open func write(_ data: Data) { standIn() }
    open func readDataToEndOfFile() -> Data { standIn() }
    open func readData(ofLength length: Int) -> Data { standIn() }
    /// Apple: macOS 10.15, iOS 13.
    @available(macOS 10.15, iOS 13.0, *) open func close() throws { standIn() }
    /// Apple: macOS 10.15, iOS 13.
    @available(macOS 10.15, iOS 13.0, *) open func synchronize() throws { standIn() }
    /// Apple: macOS 10.15, iOS 13.
    @available(macOS 10.15, iOS 13.0, *) open func seek(toOffset offset: UInt64) throws { standIn() }
    /// Apple: macOS 10.15.4, iOS 13.4.
    @available(macOS 10.15.4, iOS 13.4, *) open func write<T: DataProtocol>(contentsOf data: T) throws { standIn() }
    /// Apple: macOS 10.15.4, iOS 13.4.
    @available(macOS 10.15.4, iOS 13.4, *) open func readToEnd() throws -> Data? { standIn() }
    /// Apple: macOS 10.15.4, iOS 13.4.
    @available(macOS 10.15.4, iOS 13.4, *) open func read(upToCount count: Int) throws -> Data? { standIn() }
    /// Apple: macOS 10.15.4, iOS 13.4.
    @available(macOS 10.15.4, iOS 13.4, *) open func offset() throws -> UInt64 { standIn() }
    /// Apple: macOS 10.15.4, iOS 13.4.
    @available(macOS 10.15.4, iOS 13.4, *) @discardableResult open func seekToEnd() throws -> UInt64 { standIn() }
}
public protocol DataProtocol: RandomAccessCollection where Element == UInt8 {}
extension Data: DataProtocol {}
extension Array: DataProtocol where Element == UInt8 {}

// MARK: Objective-C runtime roots (the ObjectiveC module, re-exported by Foundation), for the
// UIKit and WebKit stand-ins. Plain Swift here: Objective-C interop is off in the type-check.
// https://developer.apple.com/documentation/objectivec/nsobject-swift.class
// https://developer.apple.com/documentation/objectivec/nsobjectprotocol
public protocol NSObjectProtocol: AnyObject {}
/// `NSObject`: nonisolated, not `Sendable`, `Hashable` by `isEqual(_:)`/`hash` (identity by default).
open class NSObject: NSObjectProtocol, Hashable {
    public init() {}
    open func isEqual(_ object: Any?) -> Bool { standIn() }
    open var hash: Int { standIn() }
    public static func == (lhs: NSObject, rhs: NSObject) -> Bool { standIn() }
    public func hash(into hasher: inout Hasher) { standIn() }
}
/// `Selector` (`SEL`); only ever passed as `nil` by our sources.
public struct Selector: Hashable, Sendable {}
// https://developer.apple.com/documentation/foundation/nscoder
open class NSCoder: NSObject {}
// https://developer.apple.com/documentation/foundation/nsenumerator: a `Sequence` through the
// Foundation overlay's `makeIterator()`, whose iterator is `NSFastEnumerationIterator`
// (https://developer.apple.com/documentation/foundation/nsfastenumerationiterator, `next() -> Any?`).
// The enumerator is not itself an `IteratorProtocol`.
open class NSEnumerator: NSObject {
    open func nextObject() -> Any? { standIn() }
}
extension NSEnumerator: Sequence {
    public func makeIterator() -> NSFastEnumerationIterator { standIn() }
}
public struct NSFastEnumerationIterator: IteratorProtocol {
    public mutating func next() -> Any? { standIn() }
}
// https://developer.apple.com/documentation/foundation/nsnumber (uint64Value)
open class NSNumber: NSObject, @unchecked Sendable {
    open var uint64Value: UInt64 { standIn() }
}
// https://developer.apple.com/documentation/foundation/timeinterval
public typealias TimeInterval = Double

// MARK: Timer and RunLoop
// https://developer.apple.com/documentation/foundation/timer/init(timeinterval:repeats:block:)
// (iOS 10, macOS 10.12; the block is `@Sendable` in the Swift 6 SDKs)
// https://developer.apple.com/documentation/foundation/runloop/add(_:formode:)
// https://developer.apple.com/documentation/foundation/runloop/current
open class Timer: NSObject {
    @available(macOS 10.12, iOS 10.0, *)
    public init(timeInterval interval: TimeInterval, repeats: Bool, block: @escaping @Sendable (Timer) -> Void) { standIn() }
    open func invalidate() { standIn() }
    open var isValid: Bool { standIn() }
}
open class RunLoop: NSObject {
    open class var main: RunLoop { standIn() }
    open class var current: RunLoop { standIn() }
    open func add(_ timer: Timer, forMode mode: RunLoop.Mode) { standIn() }
    public struct Mode: Hashable, Sendable, RawRepresentable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static var common: Mode { standIn() }
        public static var `default`: Mode { standIn() }
    }
}

// MARK: stat(2), named like Darwin's `struct stat` (declared in the Darwin stand-in)
@discardableResult public func stat(_ path: UnsafePointer<CChar>, _ buf: UnsafeMutablePointer<Darwin.stat>) -> Int32 { standIn() }

// MARK: Key-value observing in Swift (Foundation's overlay)
// https://developer.apple.com/documentation/objectivec/nsobject-swift.class/observe(_:options:changehandler:) (iOS 8):
//   `@preconcurrency func observe<Value>(_ keyPath: KeyPath<Self, Value>, options: NSKeyValueObservingOptions = [],
//    changeHandler: @escaping @Sendable (Self, NSKeyValueObservedChange<Value>) -> Void) -> NSKeyValueObservation`
//   "when the returned NSKeyValueObservation is deinited or invalidated, it will stop observing"
// https://developer.apple.com/documentation/foundation/nskeyvalueobservation (iOS 8)
// https://developer.apple.com/documentation/foundation/nskeyvalueobservedchange (iOS 8)
// https://developer.apple.com/documentation/foundation/nskeyvalueobservingoptions
public protocol _KeyValueCodingAndObserving {}
extension NSObject: _KeyValueCodingAndObserving {}
extension _KeyValueCodingAndObserving {
    @preconcurrency public func observe<Value>(_ keyPath: KeyPath<Self, Value>, options: NSKeyValueObservingOptions = [],
                                               changeHandler: @escaping @Sendable (Self, NSKeyValueObservedChange<Value>) -> Void)
        -> NSKeyValueObservation { standIn() }
}
open class NSKeyValueObservation: NSObject {
    open func invalidate() { standIn() }
}
public struct NSKeyValueObservedChange<Value> {
    public let newValue: Value?
    public let oldValue: Value?
}
extension NSKeyValueObservedChange: Sendable where Value: Sendable {}
public struct NSKeyValueObservingOptions: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let new = NSKeyValueObservingOptions(rawValue: 1)
    public static let old = NSKeyValueObservingOptions(rawValue: 2)
    public static let initial = NSKeyValueObservingOptions(rawValue: 4)
    public static let prior = NSKeyValueObservingOptions(rawValue: 8)
}
