// Fuzz builds compile HitTestBridge with swiftc, outside SwiftPM, which normally generates
// `Bundle.module`. The fuzz targets never load the page script, so the main bundle stands in.
import Foundation

extension Foundation.Bundle {
    static var module: Bundle { Bundle.main }
}
