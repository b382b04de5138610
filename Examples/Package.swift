// swift-tools-version:6.1
// Real Combine view models of the teaching flows, checked against the very scenarios under
// ../scenarios with FlowrunTesting (docs/testing-real-code.md). On Apple platforms they use
// Combine; on Linux OpenCombine, through OpenCombineShim. The Async… view models are the same
// flows with async/await, swift-async-algorithms and @Observable.
//   swift test --package-path Examples
import PackageDescription

let package = Package(
  name: "FlowrunExamples",
  platforms: [.macOS(.v14), .iOS(.v17)],
  products: [
    // For Benchmarks/ (BindingBench): the view models driven under two schedulers.
    .library(name: "ViewModels", targets: ["ViewModels"])
  ],
  dependencies: [
    .package(name: "flowrun", path: ".."),
    .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
    // The async view models' debounce and throttle.
    .package(url: "https://github.com/apple/swift-async-algorithms", from: "1.1.4"),
  ],
  targets: [
    .target(
      name: "ViewModels",
      dependencies: [
        .product(name: "OpenCombineShim", package: "OpenCombine"),
        .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
      ]
    ),
    .testTarget(
      name: "ViewModelsTests",
      dependencies: [
        "ViewModels",
        .product(name: "FlowrunTesting", package: "flowrun"),
        .product(name: "OpenCombineShim", package: "OpenCombine"),
      ]
    ),
    // flowrun's `library: async` against the real package on the deterministic runtime
    // (docs/libraries.md, "The differential").
    .testTarget(
      name: "AsyncDifferentialTests",
      dependencies: [
        .product(name: "FlowrunTesting", package: "flowrun"),
        .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
      ]
    ),
  ]
)

for target in package.targets {
  target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("ExistentialAny")]
}
