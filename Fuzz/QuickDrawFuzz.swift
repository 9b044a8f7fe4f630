// libFuzzer target: the streaming Quick, Draw! reader and the session encoder on arbitrary
// bytes (scripts/fuzz.sh quickdraw). Never a crash; a drawing the reader accepted encodes,
// or is refused by the encoder with a typed error (absurd times, found by this target).
@_spi(Tooling) import InkCore
@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkRecording

@_cdecl("LLVMFuzzerTestOneInput")
public func quickDrawFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let (drawings, _) = QuickDrawReader.read(bytes)
    for drawing in drawings {
        do {
            let log = try SessionLog(quickDraw: drawing, answerLatency: 0.016)
            precondition(log.sampleCount == drawing.strokes.reduce(0) { $0 + $1.x.count })
        } catch {
            precondition(error.message.contains("too far"), "unexpected refusal: \(error)")
        }
    }
    return 0
}
