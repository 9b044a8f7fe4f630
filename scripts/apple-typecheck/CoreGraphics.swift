// A stand-in for Apple's CoreGraphics geometry types, for scripts/apple-typecheck.sh only:
// never linked, never run. Only what InkUIKit uses.
// https://developer.apple.com/documentation/corefoundation/cgfloat
// https://developer.apple.com/documentation/corefoundation/cgpoint
// https://developer.apple.com/documentation/corefoundation/cgsize
// https://developer.apple.com/documentation/corefoundation/cgrect
@_exported import Foundation

func standIn() -> Never { fatalError("apple-typecheck stand-in: never run") }

/// `CGFloat`: a 64-bit floating-point value on every 64-bit Apple platform. Only the
/// conversions InkUIKit uses (it converts to `Double` at once).
@frozen public struct CGFloat: Sendable, Hashable, Comparable, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral {
    public var native: Double
    public init(_ value: Double) { native = value }
    public init(_ value: Int) { native = Double(value) }
    public init(floatLiteral value: Double) { native = value }
    public init(integerLiteral value: Int) { native = Double(value) }
    public static func < (lhs: CGFloat, rhs: CGFloat) -> Bool { lhs.native < rhs.native }
}
extension Double {
    public init(_ value: CGFloat) { self = value.native }
}

public struct CGPoint: Sendable, Hashable {
    public var x: CGFloat
    public var y: CGFloat
    public init() { x = 0; y = 0 }
    public init(x: CGFloat, y: CGFloat) { self.x = x; self.y = y }
    public init(x: Double, y: Double) { self.x = CGFloat(x); self.y = CGFloat(y) }
    public static var zero: CGPoint { CGPoint() }
}

public struct CGSize: Sendable, Hashable {
    public var width: CGFloat
    public var height: CGFloat
    public init(width: Double, height: Double) { self.width = CGFloat(width); self.height = CGFloat(height) }
}

public struct CGRect: Sendable, Hashable {
    public var origin: CGPoint
    public var size: CGSize
    public init(x: Double, y: Double, width: Double, height: Double) { standIn() }
    public static var zero: CGRect { standIn() }
    public var minX: CGFloat { standIn() }
    public var minY: CGFloat { standIn() }
    public var maxX: CGFloat { standIn() }
    public var maxY: CGFloat { standIn() }
    public var width: CGFloat { standIn() }
    public var height: CGFloat { standIn() }
    public func insetBy(dx: CGFloat, dy: CGFloat) -> CGRect { standIn() }
    public func intersects(_ rect2: CGRect) -> Bool { standIn() }
}

// https://developer.apple.com/documentation/corefoundation/cgaffinetransform
// https://developer.apple.com/documentation/corefoundation/cgaffinetransform/init(a:b:c:d:tx:ty:)
public struct CGAffineTransform: Sendable, Hashable {
    public var a: CGFloat, b: CGFloat, c: CGFloat, d: CGFloat, tx: CGFloat, ty: CGFloat
    public init(a: CGFloat, b: CGFloat, c: CGFloat, d: CGFloat, tx: CGFloat, ty: CGFloat) { standIn() }
    public static var identity: CGAffineTransform { standIn() }
}

// https://developer.apple.com/documentation/coregraphics/cgpath (a Core Foundation type, a class in Swift)
// https://developer.apple.com/documentation/coregraphics/cgmutablepath
// https://developer.apple.com/documentation/coregraphics/cgmutablepath/addlines(between:transform:)
// https://developer.apple.com/documentation/coregraphics/cgmutablepath/closesubpath()
open class CGPath {
    init() {}
}
public class CGMutablePath: CGPath {
    public override init() { standIn() }
    public func addLines(between points: [CGPoint], transform: CGAffineTransform = .identity) { standIn() }
    public func closeSubpath() { standIn() }
}

// https://developer.apple.com/documentation/coregraphics/cgpathfillrule
public enum CGPathFillRule: Int, Sendable {
    case winding = 0, evenOdd = 1
}

// https://developer.apple.com/documentation/coregraphics/cgcontext
// https://developer.apple.com/documentation/coregraphics/cgcontext/savegstate()
// https://developer.apple.com/documentation/coregraphics/cgcontext/restoregstate()
// https://developer.apple.com/documentation/coregraphics/cgcontext/translateby(x:y:)
// https://developer.apple.com/documentation/coregraphics/cgcontext/scaleby(x:y:)
// https://developer.apple.com/documentation/coregraphics/cgcontext/addpath(_:)
// https://developer.apple.com/documentation/coregraphics/cgcontext/fillpath(using:)
public class CGContext {
    init() { standIn() }
    public func saveGState() { standIn() }
    public func restoreGState() { standIn() }
    public func translateBy(x tx: CGFloat, y ty: CGFloat) { standIn() }
    public func scaleBy(x sx: CGFloat, y sy: CGFloat) { standIn() }
    public func addPath(_ path: CGPath) { standIn() }
    public func fillPath(using rule: CGPathFillRule = .winding) { standIn() }
}
