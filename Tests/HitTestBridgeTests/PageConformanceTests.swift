import HitTestBridge
import InkCore
import InkTesting
import Testing

/// `PageConformance` (InkTesting) fails on each way a platform's page operations can break
/// the contract, and passes a page that keeps it. The real pages are checked where they run:
/// the GTK window's operations on a real WebKitGTK page (Integrations/GTK, `PageConformanceGTKTests`).
@Suite("PageConformance: the check a platform's page operations run")
struct PageConformanceTests {
    /// A platform page modelled in memory: the page script's world answers the check's
    /// scripts the way a browser would, and the DOM counts the events `inject` gives it.
    final class ModelPage {
        var counts: [String: Int] = [:]
        var scrollY = 0.0
        var listening = false
        var pending: [() -> Void] = []
        /// Faults a platform can have.
        var doneTwice = false, doneNever = false, scriptWorldMissing = false, readsAnyResultAsTrue = false
        var cancelAsLift = false, scrollIgnored = false, injectsTwice = false
        /// No cancel of its own: lifts a cancelled touch outside the view (WebKitGTK's way).
        var cancelLiftsOutside = false

        var liftOutside = false
        var clicksBefore = 0, liftsBefore = 0
        func count(_ type: String) -> Int { counts[type, default: 0] }

        func evaluate(_ script: String) -> Bool {
            if script == PageScript.pushRegionsInvocation { return !scriptWorldMissing }
            if script.contains("__inkPageConformance = {") {
                listening = true
                return true
            }
            if script.contains("c.clicksBefore = c.click") {
                clicksBefore = count("click")
                liftsBefore = count("pointerup")
                return true
            }
            if script.contains("window.__inkPageConformance") {
                guard listening else { return false }
                if script.contains("c.pointerdown === 1 ||") { return count("pointerdown") == 1 }
                if script.contains("c.pointerup === 1 ||") { return count("pointerup") == 1 }
                if script.contains("c.pointerdown === 2 ||") { return count("pointerdown") == 2 }
                if script.contains("c.click === c.clicksBefore") { return count("click") == clicksBefore }
                if script.contains("c.pointercancel + c.touchcancel > 0") {
                    return count("pointercancel") > 0 || (count("pointerup") > liftsBefore && liftOutside)
                }
            }
            if script == "window.scrollY > 0" { return scrollY > 0 }
            if script.hasPrefix("(window.scrollTo(0, 0)") { scrollY = 0; return true }
            return false
        }

        var operations: PageSide.Page {
            PageSide.Page(
                evaluate: { [self] script, done in
                    let result = evaluate(script)
                    guard !doneNever else { return }
                    pending.append { done(self.readsAnyResultAsTrue ? true : result) }
                    if doneTwice { pending.append { done(result) } }
                },
                scroll: { [self] _, dy in if !scrollIgnored { scrollY += dy } },
                inject: { [self] touch in
                    guard listening else { return }
                    for _ in 0..<(injectsTwice ? 2 : 1) {
                        switch touch.phase {
                        case .began: counts["pointerdown", default: 0] += 1
                        case .moved: counts["pointermove", default: 0] += 1
                        case .ended:
                            counts["pointerup", default: 0] += 1
                            counts["click", default: 0] += 1
                            liftOutside = false
                        case .cancelled where cancelAsLift:
                            counts["pointerup", default: 0] += 1
                            counts["click", default: 0] += 1
                            liftOutside = false
                        case .cancelled where cancelLiftsOutside:
                            counts["pointerup", default: 0] += 1
                            liftOutside = true
                        case .cancelled: counts["pointercancel", default: 0] += 1
                        }
                    }
                })
        }

        func settle() {
            while !pending.isEmpty { pending.removeFirst()() }
        }

        func check() -> [String] {
            PageConformance.check(operations, touchingAt: CanvasPoint(x: 40, y: 700), now: 10, scrolls: true) { settle() }
        }
    }

    @Test("a page that keeps the contract passes, whether it cancels a touch or lifts it outside the view")
    func keeps() {
        #expect(ModelPage().check() == [])
        let liftsOutside = ModelPage()
        liftsOutside.cancelLiftsOutside = true
        #expect(liftsOutside.check() == [])
    }

    @Test("each broken operation is named", arguments: [
        ("done twice", "called done 2 times"),
        ("done never", "never called done"),
        ("no script world", "pushRegions"),
        ("any result read as true", "which evaluates to false"),
        ("cancel delivered as a lift", "a cancelled touch clicked"),
        ("cancel delivered as a lift", "neither cancelled in the page nor lifted outside"),
        ("each event injected twice", "went down once"),
        ("scroll ignored", "did not move"),
    ])
    func broken(fault: String, expected: String) {
        let page = ModelPage()
        switch fault {
        case "done twice": page.doneTwice = true
        case "done never": page.doneNever = true
        case "no script world": page.scriptWorldMissing = true
        case "any result read as true": page.readsAnyResultAsTrue = true
        case "cancel delivered as a lift": page.cancelAsLift = true
        case "each event injected twice": page.injectsTwice = true
        default: page.scrollIgnored = true
        }
        let problems = page.check()
        #expect(problems.contains { $0.contains(expected) }, "\(fault): \(problems)")
    }
}
