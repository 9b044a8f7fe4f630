// libFuzzer target: the session log reader on arbitrary bytes (scripts/fuzz.sh sessionlog).
// Never a crash; what it reads writes back and reads again to the same log; and every line
// after the first reads the same through the reader's fast path (SessionLineDecoder, tried
// first) as through the general reader alone (issue 40: a number whose exponent the fast
// path had clamped was read as 1.0 where the general reader refused it).
@_spi(Tooling) import InkCore
@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkRecording

@_cdecl("LLVMFuzzerTestOneInput")
public func sessionLogFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let result = SessionLog.parse(bytes)
    if let log = result.log {
        let again = SessionLog.parse(log.jsonLines())
        precondition(again.failure == nil)
        precondition(again.log?.events == log.events)
    }
    let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
    guard let header = lines.first else { return 0 }
    for line in lines.dropFirst().prefix(64) {
        // The same reader twice, the reference without its fast path: every other check (the
        // chain, what the header says a line can be) is the same on both sides.
        var reader = SessionLogLineReader(file: nil)
        var reference = SessionLogLineReader(file: nil)
        reference.usesFastPath = false
        guard case .header = reader.take(line: header, number: 1) else { return 0 }
        _ = reference.take(line: header, number: 1)
        let expected: Result<SessionEvent, SessionLogError>
        switch reference.take(line: line, number: 2) {
        case let .event(event): expected = .success(event)
        case .failed: expected = .failure(reference.firstFailure!)
        case .blank, .header: continue
        }
        switch reader.take(line: line, number: 2) {
        case let .event(event): precondition(expected == .success(event), "the fast path read a line the general reader reads otherwise")
        case .failed: precondition(expected == .failure(reader.firstFailure!), "the fast path refused a line otherwise")
        case .blank, .header: preconditionFailure("the fast path read a line as blank that the general reader does not")
        }
    }
    return 0
}
