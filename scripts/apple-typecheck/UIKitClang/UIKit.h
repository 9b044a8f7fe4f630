/* UIKit stand-in (scripts/apple-typecheck): the declarations are in UIKit.swift. */
