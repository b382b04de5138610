// swift-tools-version:6.1
import PackageDescription

let package = Package(
  name: "flowrun",
  products: [
    .executable(name: "flowrun", targets: ["flowrun"]),
    .library(name: "Flowrun", targets: ["Flowrun"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
    // The playground's HTTP server: small, Swift concurrency, no SwiftNIO.
    .package(url: "https://github.com/swhitty/FlyingFox", exact: "0.27.1"),
  ],
  targets: [
    .systemLibrary(
      name: "CLibYAML",
      pkgConfig: "yaml-0.1",
      providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
    ),
    .target(name: "FlowrunYAML", dependencies: ["CLibYAML"]),
    .target(
      name: "FlowrunCore",
      dependencies: [
        "FlowrunYAML",
        .product(name: "HeapModule", package: "swift-collections"),
        .product(name: "OrderedCollections", package: "swift-collections"),
      ]
    ),
    .target(
      name: "FlowrunMarbles",
      dependencies: [
        "FlowrunCore", .product(name: "OrderedCollections", package: "swift-collections"),
      ]
    ),
    .target(
      name: "FlowrunExpressions",
      dependencies: [
        "FlowrunCore", .product(name: "OrderedCollections", package: "swift-collections"),
      ]
    ),
    .target(
      name: "FlowrunScenario",
      dependencies: [
        "FlowrunYAML", "FlowrunCore", "FlowrunMarbles", "FlowrunExpressions",
        .product(name: "OrderedCollections", package: "swift-collections"),
      ]
    ),
    .target(name: "FlowrunReport", dependencies: ["FlowrunScenario"]),
    // `flowrun explore`: generated inputs, shrinking, same-frame orders (docs/explore.md).
    .target(name: "FlowrunExplore", dependencies: ["FlowrunScenario", "FlowrunReport"]),
    .target(name: "Flowrun", dependencies: ["FlowrunReport", "FlowrunScenario", "FlowrunExplore"]),
    // The language server of `flowrun lsp`, over the loader (FlowrunLSP/LanguageServer.swift).
    .target(name: "FlowrunLSP", dependencies: ["FlowrunScenario"]),
    // `flowrun playground`: a local web page that edits a scenario and redraws it as you type.
    .target(
      name: "FlowrunPlayground",
      dependencies: [
        "FlowrunReport", "FlowrunScenario", "FlowrunYAML",
        .product(name: "FlyingFox", package: "FlyingFox"),
      ]
    ),
    // Golden-file helpers shared by the test targets (not a product).
    .target(name: "FlowrunTestSupport"),
    .executableTarget(
      name: "flowrun",
      dependencies: [
        "FlowrunReport", "FlowrunScenario",
        "FlowrunExplore", "FlowrunLSP", "FlowrunPlayground",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .testTarget(name: "FlowrunYAMLTests", dependencies: ["FlowrunYAML"]),
    .testTarget(name: "FlowrunCoreTests", dependencies: ["FlowrunCore"]),
    .testTarget(
      name: "FlowrunMarblesTests",
      dependencies: [
        "FlowrunMarbles", .product(name: "OrderedCollections", package: "swift-collections"),
      ]
    ),
    .testTarget(
      name: "FlowrunExpressionsTests",
      dependencies: [
        "FlowrunExpressions", .product(name: "OrderedCollections", package: "swift-collections"),
      ]
    ),
    .testTarget(
      name: "FlowrunScenarioTests",
      dependencies: ["FlowrunTestSupport", "FlowrunScenario", "FlowrunExpressions"],
      exclude: ["Golden", "Libraries"]
    ),
    .testTarget(
      name: "FlowrunReportTests",
      dependencies: ["FlowrunTestSupport", "FlowrunReport", "FlowrunYAML"],
      exclude: ["ReporterGolden", "Golden"]
    ),
    .testTarget(name: "FlowrunExploreTests", dependencies: ["FlowrunTestSupport", "FlowrunExplore"]),
    .testTarget(name: "FlowrunLibraryTests", dependencies: ["Flowrun"]),
    .testTarget(name: "FlowrunLSPTests", dependencies: ["FlowrunLSP", "FlowrunScenario"]),
    .testTarget(name: "FlowrunPlaygroundTests", dependencies: ["FlowrunPlayground"]),
    .testTarget(
      name: "flowrunTests", dependencies: ["FlowrunTestSupport", "flowrun"], exclude: ["Golden", "LibraryGolden"]),
  ]
)

for target in package.targets where target.type != .system {
  target.swiftSettings = (target.swiftSettings ?? []) + [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
  ]
}
