// swift-tools-version: 6.1
// ScratchpadInk on WebKitGTK: the page oracle in a real WebKit engine, and a native GTK
// scratchpad over a web view. A package of its own, depending on the root by path, so the
// root package keeps zero dependencies and builds where GTK is not installed.
// Needs WebKitGTK 4.1 and GTK 3 (Debian: libwebkit2gtk-4.1-dev, installed by
// scripts/install-test-tools.sh); the tests and the front end need a display (xvfb-run -a).
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

/// What an app embeds (the engine, its audit, the session), and the tooling (session logs,
/// the replay driver, reports).
let app: [Target.Dependency] = [
    .product(name: "InkCore", package: "ScratchpadInk"),
    .product(name: "HitTestBridge", package: "ScratchpadInk"),
]
let recording: [Target.Dependency] = [
    .product(name: "InkRecording", package: "ScratchpadInk"),
]
let tooling: [Target.Dependency] = recording + [
    .product(name: "SessionReplay", package: "ScratchpadInk"),
]

let package = Package(
    name: "ScratchpadInkGTK",
    products: [
        .library(name: "WebKitGTKOracle", targets: ["WebKitGTKOracle"]),
        .library(name: "GTKScratchpad", targets: ["GTKScratchpad"]),
        .library(name: "GTKLogPlayer", targets: ["GTKLogPlayer"]),
        .executable(name: "scratchpad-gtk", targets: ["scratchpad-gtk"]),
    ],
    dependencies: [
        .package(name: "ScratchpadInk", path: "../.."),
    ],
    targets: [
        // WebKitGTK 4.1 and GTK 3 headers through pkg-config, with a few inline C helpers
        // for what Swift cannot call directly (macros, event unions).
        .systemLibrary(
            name: "CWebKitGTK",
            pkgConfig: "webkit2gtk-4.1",
            providers: [.apt(["libwebkit2gtk-4.1-dev"])]
        ),
        // The page oracle: the page script in a WebKitWebView, in its own script world.
        .target(
            name: "WebKitGTKOracle",
            dependencies: ["CWebKitGTK"] + app,
            swiftSettings: strictSettings
        ),
        // The native front end: a window with the page and a drawing overlay on top, a thin
        // loop around InkEngine. What an app embeds only: no session logs, no replay driver.
        .target(
            name: "GTKScratchpad",
            dependencies: ["CWebKitGTK", "WebKitGTKOracle"] + app,
            swiftSettings: strictSettings
        ),
        // Tooling: plays a session log into the window as GDK events (--replay, the tests).
        .target(
            name: "GTKLogPlayer",
            dependencies: ["CWebKitGTK", "WebKitGTKOracle", "GTKScratchpad"] + app + recording,
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "scratchpad-gtk",
            dependencies: ["CWebKitGTK", "WebKitGTKOracle", "GTKScratchpad", "GTKLogPlayer",
                           .product(name: "ChromiumBridge", package: "ScratchpadInk")] + app + tooling,
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "WebKitGTKTests",
            // scratchpad-gtk: its latency measurement, by @testable import.
            dependencies: ["CWebKitGTK", "WebKitGTKOracle", "GTKScratchpad", "GTKLogPlayer", "scratchpad-gtk"] + app + tooling
                + [.product(name: "InkTesting", package: "ScratchpadInk")],
            swiftSettings: strictSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
