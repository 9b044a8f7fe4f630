// libFuzzer target: the page-message decoder on arbitrary bytes, then the bridge taking what
// it decoded (scripts/fuzz.sh wire). Never a crash; an accepted message is sane (finite
// regions of non-negative size, a non-negative finite max age), and the bridge either takes
// it or refuses it with a typed error and keeps what it had.
@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkCore


@_cdecl("LLVMFuzzerTestOneInput")
public func wireFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let message: PageMessage
    do {
        message = try PageMessage.decode(bytes, maxBytes: 1 << 16)
    } catch {
        _ = error.description  // every refusal can be described
        return 0
    }
    if let document = message.document {
        // An accepted id is one PageDocumentID validates: 1 to 64 ASCII letters, digits, '-', '_'.
        precondition((try? PageDocumentID(document.text)) == document, "document id \(document)")
    }
    switch message {
    case let .answer(answer):
        precondition(QueryToken(hex: answer.token.description) == answer.token, "token does not round-trip")
    case let .regions(snapshot):
        if let maxAge = snapshot.maxAge { precondition(maxAge.isFinite && maxAge >= 0, "max age \(maxAge)") }
        for region in snapshot.regions {
            precondition(region.x.isFinite && region.y.isFinite && region.width.isFinite && region.height.isFinite)
            precondition(region.width >= 0 && region.height >= 0)
        }
    }
    // The bridge takes it (or refuses it, counted) with a query waiting, and still answers.
    var configuration = InkEngineConfiguration()
    configuration.limits = .init(regions: 64)
    var engine = InkEngine(configuration: configuration, seed: 7)
    var output: [EngineEvent] = []
    let down = TouchSample(x: 10, y: 10, timestamp: 0)
    engine.take(.touch(TouchEvent(touch: PlatformTouchID(1), phase: .began, samples: [down])), now: 0, into: &output)
    engine.take(.decodedPageMessage(message), now: 0.01, into: &output)
    engine.take(.touch(TouchEvent(touch: PlatformTouchID(1), phase: .ended, samples: [])), now: 0.02, into: &output)
    engine.advance(to: 10, into: &output)
    // A new document and the same message again: taken (or refused as the replaced
    // document's, when it names one), never a refused input.
    engine.take(.newDocument(.identity), now: 10.5, into: &output)
    engine.take(.decodedPageMessage(message), now: 10.6, into: &output)
    if let document = message.document {
        precondition(output.last.map { if case .pageMessage(_, .oldDocument(document)?) = $0.kind { true } else { false } } == true,
                     "a replaced document's message was not refused: \(output.last.map { "\($0)" } ?? "")")
    }
    precondition(!output.contains { if case .refused = $0.kind { true } else { false } }, "\(output)")
    let ledger = engine.ledger
    precondition(ledger.received == 1 && ledger.pending == 0 && ledger.dropped == 0, "\(ledger)")
    return 0
}
