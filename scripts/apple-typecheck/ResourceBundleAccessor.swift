// What SwiftPM generates on Darwin for a target with resources (`Bundle.module`), so the
// HitTestBridge type-check sees the same declaration an Xcode or `swift build` on a Mac does.
import Foundation

extension Foundation.Bundle {
    static let module: Bundle = {
        let mainPath = Bundle.main.bundleURL.appendingPathComponent("ScratchpadInk_HitTestBridge.bundle").path
        guard let bundle = Bundle(path: mainPath) else {
            fatalError("could not load resource bundle: from \(mainPath)")
        }
        return bundle
    }()
}
