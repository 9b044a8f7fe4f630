/// A colour in sRGB, each component 0...1: the ink's, or the page's background.
///
/// The front ends choose ink that shows on the page (``contrasting(with:candidates:)``): the
/// default dark ink on a light page, a light ink on a dark one, by the WCAG contrast ratio of
/// each candidate against the page's background.
public struct InkColor: Sendable, Hashable {
    /// Red, 0...1 (sRGB).
    public var red: Double
    /// Green, 0...1 (sRGB).
    public var green: Double
    /// Blue, 0...1 (sRGB).
    public var blue: Double
    /// Opacity, 0 (transparent) ... 1.
    public var alpha: Double

    /// Creates a colour; components are clamped to 0...1, and one that is not a number is 0.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        func clamp(_ value: Double) -> Double { value.isNaN ? 0 : min(max(value, 0), 1) }
        self.red = clamp(red)
        self.green = clamp(green)
        self.blue = clamp(blue)
        self.alpha = clamp(alpha)
    }

    /// The default ink: a dark navy, for light pages.
    public static let darkInk = InkColor(red: 0.08, green: 0.16, blue: 0.55)
    /// The ink for dark pages: a pale chalk yellow.
    public static let lightInk = InkColor(red: 0.99, green: 0.88, blue: 0.42)
    /// White: what a page shows where nothing paints its background.
    public static let white = InkColor(red: 1, green: 1, blue: 1)

    /// The colour with another opacity.
    public func withAlpha(_ alpha: Double) -> InkColor { InkColor(red: red, green: green, blue: blue, alpha: alpha) }

    /// The colour as seen laid over `backdrop` (which is taken as opaque): the result is opaque.
    public func over(_ backdrop: InkColor) -> InkColor {
        InkColor(red: red * alpha + backdrop.red * (1 - alpha), green: green * alpha + backdrop.green * (1 - alpha),
                 blue: blue * alpha + backdrop.blue * (1 - alpha))
    }

    /// The relative luminance of the colour's opaque form, 0 (black) ... 1 (white), as WCAG 2
    /// defines it from linearized sRGB.
    public var relativeLuminance: Double {
        func linear(_ c: Double) -> Double { c <= 0.04045 ? c / 12.92 : Self.power((c + 0.055) / 1.055) }
        return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
    }

    /// The WCAG 2 contrast ratio of the two colours' opaque forms: 1 (none) ... 21 (black on
    /// white). Symmetric.
    public func contrastRatio(with other: InkColor) -> Double {
        let a = relativeLuminance, b = other.relativeLuminance
        return (max(a, b) + 0.05) / (min(a, b) + 0.05)
    }

    /// Whether the colour, laid over white, is dark (luminance below that of the mid grey
    /// whose contrast with black equals its contrast with white).
    public var isDark: Bool { over(.white).relativeLuminance < 0.179 }

    /// The candidate with the highest contrast against `background` (laid over white when it
    /// is not opaque); on a tie, the earlier candidate. Returns ``darkInk`` when `candidates`
    /// is empty.
    public static func contrasting(with background: InkColor, candidates: [InkColor] = [.darkInk, .lightInk]) -> InkColor {
        let backdrop = background.over(.white)
        var best: (color: InkColor, ratio: Double)?
        for candidate in candidates {
            let ratio = candidate.over(backdrop).contrastRatio(with: backdrop)
            if best == nil || ratio > best!.ratio { best = (candidate, ratio) }
        }
        return best?.color ?? .darkInk
    }

    /// `x^2.4` for x in 0...1, with no dependency on a maths library (exp2/log2 are not in the
    /// standard library): `x^2.4 = x^2 · x^0.4`, and `x^0.4 = (x^2)^(1/5)` by Newton's method.
    static func power(_ x: Double) -> Double {
        guard x > 0 else { return 0 }
        let square = x * x
        var root = 1.0  // the fifth root of `square`, which lies in (0, 1]
        for _ in 0..<100 {
            let r4 = root * root * root * root
            let next = root - (r4 * root - square) / (5 * r4)
            if abs(next - root) < 1e-12 { root = next; break }
            root = next > 0 ? next : root / 2
        }
        return square * root
    }
}
