/* UIKit.UIGestureRecognizerSubclass stand-in (scripts/apple-typecheck): the subclass members are declared in UIKit.swift. */
