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
  ],
  targets: [
    .systemLibrary(
      name: "CLibYAML",
      pkgConfig: "yaml-0.1",
      providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
    ),
    .target(name: "FlowrunDiagnostics"),
    .target(name: "FlowrunYAML", dependencies: ["CLibYAML", "FlowrunDiagnostics"]),
    .target(
      name: "FlowrunCore",
      dependencies: [
        "FlowrunDiagnostics",
        .product(name: "HeapModule", package: "swift-collections"),
        .product(name: "OrderedCollections", package: "swift-collections"),
      ]
    ),
    .target(
      name: "FlowrunMarbles",
      dependencies: [
        "FlowrunDiagnostics", "FlowrunCore", .product(name: "OrderedCollections", package: "swift-collections"),
      ]
    ),
    .target(
      name: "FlowrunExpressions",
      dependencies: [
        "FlowrunDiagnostics", "FlowrunCore", .product(name: "OrderedCollections", package: "swift-collections"),
      ]
    ),
    .target(
      name: "FlowrunScenario",
      dependencies: [
        "FlowrunDiagnostics", "FlowrunYAML", "FlowrunCore", "FlowrunMarbles", "FlowrunExpressions",
        .product(name: "OrderedCollections", package: "swift-collections"),
      ]
    ),
    .target(
      name: "FlowrunReport",
      dependencies: ["FlowrunDiagnostics", "FlowrunCore", "FlowrunMarbles", "FlowrunScenario"]
    ),
    .target(
      name: "FlowrunApp",
      dependencies: ["FlowrunDiagnostics", "FlowrunYAML", "FlowrunCore", "FlowrunMarbles", "FlowrunScenario", "FlowrunReport"]
    ),
    .target(name: "Flowrun", dependencies: ["FlowrunApp", "FlowrunReport", "FlowrunScenario"]),
    // Golden files and running scenarios, shared by the test targets (not a product).
    .target(name: "FlowrunTestSupport", dependencies: ["FlowrunDiagnostics", "FlowrunCore", "FlowrunMarbles", "FlowrunScenario"]),
    .executableTarget(
      name: "flowrun",
      dependencies: [
        "FlowrunApp", "FlowrunReport",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .testTarget(name: "FlowrunDiagnosticsTests", dependencies: ["FlowrunDiagnostics"]),
    .testTarget(name: "FlowrunYAMLTests", dependencies: ["FlowrunDiagnostics", "FlowrunYAML"]),
    .testTarget(
      name: "FlowrunCoreTests",
      dependencies: [
        "FlowrunCore", .product(name: "OrderedCollections", package: "swift-collections"),
      ]
    ),
    .testTarget(
      name: "FlowrunMarblesTests",
      dependencies: [
        "FlowrunDiagnostics", "FlowrunCore", "FlowrunMarbles", .product(name: "OrderedCollections", package: "swift-collections"),
      ]
    ),
    .testTarget(
      name: "FlowrunExpressionsTests",
      dependencies: [
        "FlowrunDiagnostics", "FlowrunCore", "FlowrunExpressions", .product(name: "OrderedCollections", package: "swift-collections"),
      ]
    ),
    .testTarget(
      name: "FlowrunScenarioTests",
      dependencies: [
        "FlowrunTestSupport", "FlowrunDiagnostics", "FlowrunCore", "FlowrunScenario",
      ],
      exclude: ["Golden"]
    ),
    .testTarget(
      name: "FlowrunReportTests",
      dependencies: ["FlowrunTestSupport", "FlowrunCore", "FlowrunScenario", "FlowrunReport"],
      exclude: ["ReporterGolden", "Golden"]
    ),
    .testTarget(name: "FlowrunAppTests", dependencies: ["FlowrunApp"]),
    .testTarget(name: "FlowrunLibraryTests", dependencies: ["Flowrun"]),
    .testTarget(name: "flowrunTests", dependencies: ["FlowrunTestSupport", "flowrun"], exclude: ["Golden"]),
  ]
)

for target in package.targets where target.type != .system {
  target.swiftSettings = (target.swiftSettings ?? []) + [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
  ]
}
