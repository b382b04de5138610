// swift-tools-version:6.1
// An app's package as a team has it: a view model and a test target that adds FlowrunTesting,
// with the CarriedLibYAML trait (libyaml from Yams' own copy, as an iOS Simulator test target
// needs: it cannot link a system library). Tests/flowrunTests/ConsumerPackageTests.swift builds
// and runs it, and reads its dependency graph.
//   swift test --package-path Tests/Consumer --scratch-path .build-consumer
import PackageDescription

let package = Package(
  name: "FlowrunConsumer",
  dependencies: [
    .package(name: "flowrun", path: "../..", traits: ["CarriedLibYAML"]),
    .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
  ],
  targets: [
    .target(name: "Counter", dependencies: [.product(name: "OpenCombineShim", package: "OpenCombine")]),
    .testTarget(
      name: "CounterTests",
      dependencies: [
        "Counter", .product(name: "FlowrunTesting", package: "flowrun"),
        .product(name: "OpenCombineShim", package: "OpenCombine"),
      ]
    ),
  ]
)
