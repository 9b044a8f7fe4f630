// libFuzzer target: the session log reader on arbitrary bytes (scripts/fuzz.sh sessionlog).
// Never a crash; what it reads writes back and reads again to the same log.
import InkCore
import HitTestBridge
import InkRecording

@_cdecl("LLVMFuzzerTestOneInput")
public func sessionLogFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let result = SessionLog.parse(Array(UnsafeBufferPointer(start: data, count: size)))
    if let log = result.log {
        let again = SessionLog.parse(log.jsonLines())
        precondition(again.failure == nil)
        precondition(again.log?.events == log.events)
    }
    return 0
}
