@_spi(Tooling) import InkCore

/// The page's background, as a front end learns it to choose an ink that shows on the page.
///
/// A front end evaluates ``probeScript`` in the page (any script world: it only reads computed
/// styles) once the document has loaded and again when the page's layout changes (a new
/// region snapshot generation) or the system's appearance changes; it hands the string the
/// evaluation returns to ``color(fromProbeResult:)`` and picks the ink with
/// `InkColor.contrasting(with:candidates:)`, unless the app set its own colour.
///
/// The script looks at nine points of the viewport (a 3 × 3 grid), walks from the element
/// under each up to the root to the first background that is not transparent, and falls back
/// to the canvas (dark when the root's `color-scheme` allows dark and the system prefers it,
/// else white). The colour most points share is the page's background.
public enum PageBackground {
    /// A JavaScript expression that evaluates to a string: the background colours under nine
    /// points of the viewport, as computed style gives them (`rgb(…)`, `rgba(…)`), or
    /// `canvas-dark` / `canvas-light`, separated by `|`.
    public static let probeScript = """
        (function () {
          var style = window.getComputedStyle, w = window.innerWidth, h = window.innerHeight, out = [];
          function painted(c) {
            if (!c || c === 'transparent') { return false; }
            var m = /rgba?\\(([^)]*)\\)/.exec(c);
            if (!m) { return true; }
            var parts = m[1].split(/[\\s,\\/]+/).filter(function (p) { return p.length > 0; });
            return parts.length < 4 || parseFloat(parts[3]) > 0;
          }
          function canvas() {
            var root = document.documentElement, scheme = root ? String(style(root).colorScheme || '') : '';
            var dark = /dark/.test(scheme) && (!/light/.test(scheme) || window.matchMedia('(prefers-color-scheme: dark)').matches);
            return dark ? 'canvas-dark' : 'canvas-light';
          }
          for (var i = 1; i <= 3; i++) {
            for (var j = 1; j <= 3; j++) {
              var el = document.elementFromPoint(w * j / 4, h * i / 4), found = null;
              for (; el && !found; el = el.parentElement) {
                var c = style(el).backgroundColor;
                if (painted(c)) { found = c; }
              }
              out.push(found || canvas());
            }
          }
          return out.join('|');
        })()
        """

    /// The canvas of a dark colour scheme, where no element paints a background.
    public static let darkCanvas = InkColor(red: 0.12, green: 0.12, blue: 0.12)

    /// The page's background from what ``probeScript`` returned: the colour most of the
    /// points share (on a tie, the one seen first); `nil` when nothing in it is a colour.
    public static func color(fromProbeResult result: String) -> InkColor? {
        var counts: [(color: InkColor, count: Int)] = []
        for part in result.split(separator: "|").prefix(64) {
            guard let color = color(css: part) else { continue }
            if let index = counts.firstIndex(where: { $0.color == color }) {
                counts[index].count += 1
            } else {
                counts.append((color, 1))
            }
        }
        var best: (color: InkColor, count: Int)?
        for entry in counts where best == nil || entry.count > best!.count { best = entry }
        return best?.color
    }

    /// A colour as computed style writes it: `rgb(r, g, b)`, `rgba(r, g, b, a)` or
    /// `rgb(r g b / a)` (components 0...255, alpha 0...1 or a percentage), `canvas-dark`,
    /// `canvas-light`; `nil` for anything else.
    public static func color(css text: Substring) -> InkColor? {
        let trimmed = text.trimmingSpaces
        if trimmed == "canvas-dark" { return darkCanvas }
        if trimmed == "canvas-light" { return .white }
        guard trimmed.hasPrefix("rgb"), let open = trimmed.firstIndex(of: "("), trimmed.last == ")" else { return nil }
        let inner = trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)]
        let parts = inner.split { $0 == "," || $0 == " " || $0 == "/" }.map { $0.trimmingSpaces }.filter { !$0.isEmpty }
        guard parts.count == 3 || parts.count == 4 else { return nil }
        var values: [Double] = []
        for (index, part) in parts.enumerated() {
            let percent = part.hasSuffix("%")
            guard let number = Double(percent ? part.dropLast() : part), number.isFinite else { return nil }
            values.append(percent ? number / 100 : (index < 3 ? number / 255 : number))
        }
        return InkColor(red: values[0], green: values[1], blue: values[2], alpha: values.count == 4 ? values[3] : 1)
    }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        var s = self
        while s.first?.isWhitespace == true { s.removeFirst() }
        while s.last?.isWhitespace == true { s.removeLast() }
        return s
    }
}
