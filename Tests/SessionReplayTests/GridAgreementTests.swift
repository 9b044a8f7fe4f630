@_spi(Tooling) import HitTestBridge
@_spi(Tooling) import InkCore
@_spi(Tooling) import SessionReplay
import Testing

@Suite("Grid agreement between a page and its snapshot")
struct GridAgreementTests {
    let snapshot = RegionSnapshot(generation: 3, regions: [PageRegion(x: 100, y: 100, width: 64, height: 64, element: "button")])

    func page(_ regions: RegionSnapshot) -> (HitTestRequest) -> Result<PageMessage, WireMessageError> {
        { request in .success(.answer(PageAnswer(token: request.token, verdict: regions.verdict(at: request.pagePoint), generation: request.generation))) }
    }

    @Test("a page answering from its own snapshot agrees at every point; the grid covers the viewport")
    func agrees() {
        let result = GridAgreement.check(snapshot, width: 320, height: 256, ask: page(snapshot))
        #expect(result.questions == 10 * 8 && result.disagreementCount == 0)
        #expect(result.pageAnswers == 4)  // (103|135, 103|135)
    }

    @Test("a page whose element moved disagrees where it moved; wrong tokens and refused replies are counted")
    func disagrees() {
        let moved = RegionSnapshot(generation: 3, regions: [PageRegion(x: 164, y: 100, width: 64, height: 64)])
        let result = GridAgreement.check(snapshot, width: 320, height: 256, ask: page(moved))
        #expect(result.disagreementCount == 8 && result.disagreements.first?.contains("(103.0, 103.0)") == true, "\(result.disagreements)")
        let forged = GridAgreement.check(snapshot, width: 64, height: 64) { _ in
            .success(.answer(PageAnswer(token: QueryToken(high: 9, low: 9), verdict: .ink, generation: 3)))
        }
        #expect(forged.questions == 4 && forged.disagreementCount == 4 && forged.pageAnswers == 0)
        let refused = GridAgreement.check(snapshot, width: 32, height: 32) { _ in .failure(.shape(field: "type", message: "missing")) }
        #expect(refused.disagreementCount == 1)
    }
}
