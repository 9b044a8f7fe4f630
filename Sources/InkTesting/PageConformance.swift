import HitTestBridge
import InkCore

/// The contract a platform's page operations (`PageSide.Page`) keep, checked against the
/// platform's real page: what a new front end (AppKit, a new WebKit port) runs in its own
/// tests before it trusts its shell.
///
/// `PageSide` does the page side's work; the platform supplies five operations. Four of them
/// can be got wrong in ways no type catches, and each is checked here on a page that has
/// loaded with the page script installed:
///
/// - **`evaluate`** runs its script in the page script's world and calls `done` exactly
///   once: `true` for a script that evaluates to `true` (`PageScript.pushRegionsInvocation`,
///   which only the page script's world can run), `false` for `false` and for a script that
///   throws. A `done` never called leaves a replay's samples in no ledger; one called twice
///   counts a failed send after a good one.
/// - **`inject`** (hand-over routing) gives each touch to the page once, whole: a finger
///   that goes down, moves and lifts reaches the page's DOM as one `pointerdown` and one
///   `pointerup` (or `touchstart` and `touchend`). A cancelled touch never clicks: it ends in
///   a `pointercancel` or `touchcancel`, or, on a platform that has no cancel to give the
///   page, it is lifted outside the view, never where it was pressed.
/// - **`scroll`** moves the page's view (checked with `scrolls`, on a page taller than its
///   view).
///
/// The check listens to the page's DOM from the page script's world through `evaluate`, so
/// `evaluate` is checked first and the rest only when it holds.
///
/// ```swift
/// let problems = PageConformance.check(window.pageOperations, touchingAt: CanvasPoint(x: 40, y: 700),
///                                      now: clock.now, scrolls: true) { GTK.spin(for: 0.3) }
/// #expect(problems.isEmpty, "\(problems)")
/// ```
public enum PageConformance {
    /// Checks `page` against the contract; returns what it breaks, as sentences (empty when it
    /// keeps it).
    /// - Parameters:
    ///   - page: The platform's operations, over a loaded page with the page script installed.
    ///   - point: Where the check's two touches go down, canvas points: a place on the page
    ///     where a tap does nothing (scratch paper), since the page gets them.
    ///   - now: The platform clock's time now, seconds (the touches are stamped from it).
    ///   - scrolls: Whether the page is taller than its view, so that `scroll` is checked.
    ///   - settle: Runs the platform's event loop until the page has done what it was given
    ///     (a WebKit evaluation, a synthesized event). Called after each step.
    public static func check(_ page: PageSide.Page, touchingAt point: CanvasPoint, now: Double, scrolls: Bool = false,
                             settle: () -> Void) -> [String] {
        var problems: [String] = []

        /// Evaluates `script`, settles, and returns every `done` it got.
        func evaluate(_ script: String) -> [Bool] {
            var results: [Bool] = []
            page.evaluate(script) { results.append($0) }
            settle()
            return results
        }
        func expect(_ script: String, _ expected: Bool, _ what: String) -> Bool {
            let results = evaluate(script)
            switch results.count {
            case 0: problems.append("evaluate never called done for \(what)")
            case 1 where results[0] != expected:
                problems.append("evaluate gave \(results[0]) for \(what), which evaluates to \(expected)")
            case 1: return true
            default: problems.append("evaluate called done \(results.count) times for \(what): \(results)")
            }
            return false
        }

        // evaluate: the page script's world, true only for true, once.
        guard expect(PageScript.pushRegionsInvocation, true,
                     "the page script's pushRegions (is the script installed in the world evaluate runs in?)") else {
            return problems
        }
        let calm = expect("false", false, "a script that evaluates to false")
            && expect("(function () { throw new Error('PageConformance') })()", false, "a script that throws")
            && expect("1", false, "a script that evaluates to 1")
        guard calm else { return problems }

        // inject: a whole touch once; a cancelled touch cancelled, or at least never lifted
        // where it was pressed (a platform with no cancel of its own, WebKitGTK's, lifts it
        // outside the view, so nothing is clicked).
        guard expect(Self.listen, true, "the check's DOM listeners") else { return problems }
        let lift = CanvasPoint(x: point.x + 4, y: point.y + 2)
        func touch(_ phase: TouchPhase, _ pointer: UInt64, _ at: CanvasPoint, _ time: Double) -> PageTouch {
            PageTouch(phase: phase, pointer: pointer, tool: .finger, point: at, pagePoint: PagePoint(x: at.x, y: at.y), time: time)
        }
        for event in [touch(.began, 1, point, now), touch(.moved, 1, lift, now + 0.008), touch(.ended, 1, lift, now + 0.016)] {
            page.inject(event)
            settle()
        }
        let whole = [
            ("c.pointerdown === 1 || c.touchstart === 1", "a touch went down once, but the page did not see one pointerdown or touchstart"),
            ("c.pointerup === 1 || c.touchend === 1", "a touch lifted once, but the page did not see one pointerup or touchend"),
        ]
        for (condition, sentence) in whole where !holds(condition, evaluate) { problems.append("inject: \(sentence)") }
        _ = evaluate("(function (c) { c.clicksBefore = c.click; c.liftsBefore = c.pointerup + c.touchend; return true; })(window.__inkPageConformance)")
        for event in [touch(.began, 2, point, now + 0.05), touch(.cancelled, 2, point, now + 0.06)] {
            page.inject(event)
            settle()
        }
        if !holds("c.pointerdown === 2 || c.touchstart === 2", evaluate) {
            problems.append("inject: a second touch went down, but the page did not see a second pointerdown or touchstart")
        }
        if !holds("c.click === c.clicksBefore", evaluate) {
            problems.append("inject: a cancelled touch clicked what it was pressed on")
        }
        if !holds("c.pointercancel + c.touchcancel > 0 || (c.pointerup + c.touchend > c.liftsBefore && c.liftOutside)", evaluate) {
            problems.append("inject: a cancelled touch was neither cancelled in the page nor lifted outside the view "
                + "(it ended where it was pressed, as a lift)")
        }

        // scroll: the view moves.
        if scrolls {
            _ = evaluate("(window.scrollTo(0, 0), true)")
            page.scroll(0, 120)
            settle()
            if evaluate("window.scrollY > 0") != [true] {
                problems.append("scroll(0, 120) did not move the page's view (window.scrollY is still 0)")
            }
            _ = evaluate("(window.scrollTo(0, 0), true)")
        }
        return problems
    }

    /// Whether `condition` (JavaScript over the counts `c`) holds in the page.
    private static func holds(_ condition: String, _ evaluate: (String) -> [Bool]) -> Bool {
        evaluate("(function (c) { return !!c && (\(condition)); })(window.__inkPageConformance)") == [true]
    }

    /// Counts the page's pointer and touch events and clicks, and notes whether the last
    /// lift was outside the view, in the page script's world (the DOM is shared; the
    /// listeners capture, so the page's own handlers cannot hide an event).
    static let listen = """
        (function () {
          var c = window.__inkPageConformance = { liftOutside: false };
          ['pointerdown', 'pointerup', 'pointercancel', 'touchstart', 'touchend', 'touchcancel', 'click'].forEach(function (type) {
            c[type] = 0;
            document.addEventListener(type, function (event) {
              c[type] += 1;
              var at = event.changedTouches ? event.changedTouches[0] : event;
              if ((type === 'pointerup' || type === 'touchend') && at) {
                c.liftOutside = at.clientX < 0 || at.clientY < 0 || at.clientX > window.innerWidth || at.clientY > window.innerHeight;
              }
            }, true);
          });
          return true;
        })()
        """
}
