@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkCore

/// Whether a real page's answers agree with its own region snapshot: the page is asked at
/// every point of a grid over the viewport, and each answer is compared with what the
/// snapshot says there. The check the browser integrations (headless Chromium, WebKitGTK)
/// run on every exercise page, written once.
///
/// ```swift
/// let result = try GridAgreement.check(snapshot, width: 1024, height: 768) { request in
///     try page.hitTest(request).message.decoded
/// }
/// print(result.disagreements)   // empty when the page and its snapshot agree
/// ```
public struct GridAgreement: Sendable, Hashable {
    /// Questions asked.
    public var questions = 0
    /// Answers saying an interactive element is there.
    public var pageAnswers = 0
    /// The first disagreements (at most 20), each as a sentence naming the point.
    public var disagreements: [String] = []
    /// Disagreements in all, answers that were not answers included.
    public var disagreementCount = 0

    /// Asks at every point `(offset + i·step, offset + j·step)` inside `width` × `height`,
    /// with a token of its own and the snapshot's generation.
    /// - Parameters:
    ///   - snapshot: The page's region snapshot, page coordinates (the view unscrolled).
    ///   - width: The viewport's width, CSS pixels.
    ///   - height: The viewport's height.
    ///   - step: The grid's spacing (32: 768 questions over 1024 × 768).
    ///   - offset: The first row's and column's coordinate.
    ///   - ask: Asks the page; returns its reply as decoded (or why it was refused).
    @_spi(Tooling) public static func check(_ snapshot: RegionSnapshot, width: Double, height: Double, step: Double = 32, offset: Double = 7,
                             ask: (HitTestRequest) throws -> Result<PageMessage, WireMessageError>) rethrows -> GridAgreement {
        var result = GridAgreement()
        var y = offset
        while y < height {
            var x = offset
            while x < width {
                let point = PagePoint(x: x, y: y)
                let request = HitTestRequest(token: QueryToken(high: 1, low: UInt64(result.questions)), pagePoint: point,
                                             generation: snapshot.generation)
                result.questions += 1
                switch try ask(request) {
                case let .success(.answer(answer)) where answer.token == request.token:
                    if answer.verdict == .page { result.pageAnswers += 1 }
                    let truth = snapshot.verdict(at: point)
                    if answer.verdict != truth { result.disagree("(\(x), \(y)): the page says \(answer.verdict), its snapshot \(truth)") }
                case let other:
                    result.disagree("(\(x), \(y)): not the answer asked for: \(other)")
                }
                x += step
            }
            y += step
        }
        return result
    }

    private mutating func disagree(_ sentence: String) {
        disagreementCount += 1
        if disagreements.count < 20 { disagreements.append(sentence) }
    }
}
