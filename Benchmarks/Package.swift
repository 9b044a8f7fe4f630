// swift-tools-version: 6.1
// The benchmarks, as their own package: the root package stays free of dependencies.
// Run: cd Benchmarks && swift package --allow-writing-to-package-directory benchmark
import PackageDescription

let package = Package(
    name: "ScratchpadInkBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "ScratchpadInk", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "InkBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "InkCore", package: "ScratchpadInk"),
                .product(name: "HitTestBridge", package: "ScratchpadInk"),
                .product(name: "InkRecording", package: "ScratchpadInk"),
                .product(name: "SessionReplay", package: "ScratchpadInk"),
            ],
            path: "Benchmarks/InkBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
