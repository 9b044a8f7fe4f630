// swift-tools-version: 6.0
// ScratchpadInk: a native ink canvas over an exercise web page that never drops a point.
// Zero package dependencies: the Swift toolchain, Foundation and the standard library only.
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "ScratchpadInk",
    // The deployment targets the Apple type-check (scripts/apple-typecheck.sh) holds the
    // sources to; ContinuousClock, SuspendingClock and Task.sleep(for:) need iOS 16 / macOS 13.
    platforms: [.iOS(.v17), .macOS(.v14)],
    products: [
        .library(name: "InkCore", targets: ["InkCore"]),
        .library(name: "HitTestBridge", targets: ["HitTestBridge"]),
        .library(name: "ChromiumBridge", targets: ["ChromiumBridge"]),
        // The UIKit front end over a WKWebView: builds (empty) where UIKit or WebKit is missing.
        .library(name: "InkUIKit", targets: ["InkUIKit"]),
        // For an app's tests, not for the app: a manual clock and the fake page's messages.
        .library(name: "InkTesting", targets: ["InkTesting"]),
        // Tooling, not for apps: session logs and interchange formats; simulated-time replay.
        .library(name: "InkRecording", targets: ["InkRecording"]),
        .library(name: "SessionReplay", targets: ["SessionReplay"]),
        .executable(name: "ink-replay", targets: ["ink-replay"]),
    ],
    targets: [
        .target(
            name: "InkCore",
            swiftSettings: strictSettings,
            linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux]))]
        ),
        .target(
            name: "HitTestBridge",
            dependencies: ["InkCore"],
            resources: [.copy("Resources/scratchpad-ink-page.js"), .copy("Resources/scratchpad-ink-capture.js"),
                        .copy("Resources/PrivacyInfo.xcprivacy")],
            swiftSettings: strictSettings
        ),
        // The iOS front end: overlay view, observing recognizer, WKWebView oracle. Every file but
        // InkTileZoom.swift (plain Swift, the tile zoom rules, tested on Linux) is
        // `#if canImport(UIKit) && canImport(WebKit)`; type-checked by scripts/apple-typecheck.sh
        // against UIKit/WebKit stand-ins, never run on a device.
        .target(
            name: "InkUIKit",
            dependencies: ["InkCore", "HitTestBridge"],
            resources: [.copy("Resources/PrivacyInfo.xcprivacy")],
            swiftSettings: strictSettings
        ),
        // An app's test support: `ManualClock` (deadlines fire when the test moves time) and
        // `FakePage` (the page script's messages as JSON text).
        .target(
            name: "InkTesting",
            dependencies: ["InkCore", "HitTestBridge"],
            swiftSettings: strictSettings
        ),
        // Session logs, JSON Lines, InkML, Quick, Draw!, page layouts, synthetic sessions,
        // output files: what records and converts ink. Not embedded by apps.
        .target(
            name: "InkRecording",
            dependencies: ["InkCore", "HitTestBridge"],
            // stat(2) is a required-reason API (File timestamp, C617.1) for an app that links it.
            resources: [.copy("Resources/PrivacyInfo.xcprivacy")],
            swiftSettings: strictSettings
        ),
        // The replayer (simulated time around InkEngine), the soak and the strategy benchmark.
        .target(
            name: "SessionReplay",
            dependencies: ["InkCore", "HitTestBridge", "InkRecording"],
            swiftSettings: strictSettings
        ),
        // `ink-replay host`'s line protocol as a library (`HostProtocolSession`): JSON lines in,
        // JSON lines out, over the live loop on a manual clock; the executable is a shell over
        // it, and its tests drive it without a process. Tooling: its API is `package`.
        .target(
            name: "InkHost",
            dependencies: ["InkCore", "HitTestBridge", "InkRecording", "InkTesting"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "ChromiumBridge",
            dependencies: ["InkCore", "HitTestBridge", "InkRecording", "SessionReplay"],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "ink-replay",
            dependencies: ["InkCore", "HitTestBridge", "InkRecording", "SessionReplay", "ChromiumBridge", "InkHost"],
            swiftSettings: strictSettings
        ),
        // The one file of InkUIKit that is not UIKit-only: its tile zoom rules (InkTileZoom).
        .testTarget(
            name: "InkUIKitTests",
            dependencies: ["InkUIKit", "InkCore"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "InkCoreTests",
            dependencies: ["InkCore"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "HitTestBridgeTests",
            dependencies: ["HitTestBridge", "InkCore", "InkTesting"],
            swiftSettings: strictSettings
        ),
        // Shaped like an app: InkCore and HitTestBridge only, never the tooling (and the
        // testing product, as an app's tests would use it).
        .testTarget(
            name: "AppEmbeddingTests",
            dependencies: ["InkCore", "HitTestBridge", "InkTesting"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "InkRecordingTests",
            dependencies: ["InkRecording", "HitTestBridge", "InkCore"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "SessionReplayTests",
            dependencies: ["SessionReplay", "InkRecording", "HitTestBridge", "InkCore", "InkTesting"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "InkHostTests",
            dependencies: ["InkHost", "InkRecording", "HitTestBridge", "InkCore"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ChromiumBridgeTests",
            dependencies: ["ChromiumBridge", "SessionReplay", "InkRecording", "HitTestBridge", "InkCore"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "InkReplayTests",
            dependencies: ["ink-replay", "InkCore", "HitTestBridge", "InkRecording", "SessionReplay", "ChromiumBridge", "InkHost"],
            swiftSettings: strictSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
