// swift-tools-version:6.1
// Combine differential harness: runs graphs described in JSON on OpenCombine 0.14.0 with
// combine-schedulers' TestScheduler and prints each graph's output events. Kept out of flowrun's
// package so the main build stays light. Driven by Tests/Conformance/combine_diff.py; by hand:
//   swift build -c release --package-path Tests/CombineDifferential --scratch-path .build-combine
//   .build-combine/release/CombineDiff graphs.json
// (combine-schedulers enables its OpenCombineSchedulers trait by default on Linux.)
import PackageDescription

let package = Package(
  name: "CombineDifferential",
  dependencies: [
    .package(url: "https://github.com/OpenCombine/OpenCombine", exact: "0.14.0"),
    .package(url: "https://github.com/pointfreeco/combine-schedulers", exact: "1.2.2"),
  ],
  targets: [
    .executableTarget(
      name: "CombineDiff",
      dependencies: [
        .product(name: "OpenCombine", package: "OpenCombine"),
        .product(name: "CombineSchedulers", package: "combine-schedulers"),
      ]
    )
  ]
)
