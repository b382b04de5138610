// swift-tools-version:6.1
import PackageDescription

/// Where the system's libyaml serves (by default); Apple platforms take the carried copy.
let systemLibYAMLPlatforms: [Platform] = [.linux, .android, .openbsd, .wasi, .windows]
let appleOnly: [Platform] = [.macOS, .macCatalyst, .iOS, .tvOS, .watchOS, .visionOS]

let package = Package(
  name: "flowrun",
  products: [
    .executable(name: "flowrun", targets: ["flowrun"]),
    .library(name: "Flowrun", targets: ["Flowrun"]),
    // Scenarios against real Swift code (docs/testing-real-code.md); the executable never links it.
    .library(name: "FlowrunTesting", targets: ["FlowrunTesting", "FlowrunAsyncRuntime"]),
    // `flowrun-import`: drafts a scenario and its binding test from Swift source (docs/import.md).
    // Its own product, so that building `flowrun` never builds swift-syntax.
    .executable(name: "flowrun-import", targets: ["flowrun-import"]),
  ],
  traits: [
    .trait(
      name: "SystemLibYAML",
      description: "Parse YAML with the system's libyaml (pkg-config yaml-0.1; Debian's libyaml-dev) on Linux."),
    .trait(
      name: "CarriedLibYAML",
      description:
        "Parse YAML with the copy of libyaml that Yams carries (its CYaml target), where no system libyaml exists. "
        + "Apple platforms always take it (an iOS test target cannot link a system library)."),
    .default(enabledTraits: ["SystemLibYAML"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
    // The playground's HTTP server: small, Swift concurrency, no SwiftNIO.
    .package(url: "https://github.com/swhitty/FlyingFox", exact: "0.27.1"),
    // Combine on Linux for FlowrunTesting only (Apple's Combine on Apple platforms).
    .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
    // libyaml's C sources (Yams' CYaml target) where the system has none (the CarriedLibYAML trait).
    .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    // Reading view models for `flowrun-import` only (FlowrunImport).
    .package(url: "https://github.com/swiftlang/swift-syntax", "602.0.0"..<"604.0.0"),
  ],
  targets: [
    .systemLibrary(
      name: "CLibYAML",
      pkgConfig: "yaml-0.1",
      providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
    ),
    // Yams' copy of libyaml, for FlowrunYAML under the CarriedLibYAML trait (CarriedYAML.swift).
    .target(name: "CarriedYAML", dependencies: [.product(name: "Yams", package: "Yams")]),
    .target(name: "FlowrunDiagnostics"),
    .target(
      name: "FlowrunYAML",
      dependencies: [
        "FlowrunDiagnostics",
        .target(name: "CLibYAML", condition: .when(platforms: systemLibYAMLPlatforms, traits: ["SystemLibYAML"])),
        .product(name: "Yams", package: "Yams", condition: .when(platforms: appleOnly)),
        .target(name: "CarriedYAML", condition: .when(traits: ["CarriedLibYAML"])),
      ]
    ),
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
    // The engine of `flowrun explore`: generated inputs, shrinking, same-frame orders (docs/explore.md).
    .target(
      name: "FlowrunExplore",
      dependencies: ["FlowrunDiagnostics", "FlowrunYAML", "FlowrunCore", "FlowrunMarbles", "FlowrunScenario"]
    ),
    .target(
      name: "FlowrunReport",
      dependencies: [
        "FlowrunDiagnostics", "FlowrunYAML", "FlowrunCore", "FlowrunMarbles", "FlowrunScenario", "FlowrunExplore",
      ]
    ),
    .target(
      name: "FlowrunApp",
      dependencies: [
        "FlowrunDiagnostics", "FlowrunYAML", "FlowrunCore", "FlowrunMarbles", "FlowrunScenario", "FlowrunExplore",
        "FlowrunReport",
      ]
    ),
    .target(name: "Flowrun", dependencies: ["FlowrunApp", "FlowrunReport", "FlowrunScenario", "FlowrunExplore"]),
    // The language server of `flowrun lsp`, over the loader (FlowrunLSP/LanguageServer.swift).
    .target(
      name: "FlowrunLSP",
      dependencies: ["FlowrunDiagnostics", "FlowrunCore", "FlowrunYAML", "FlowrunMarbles", "FlowrunScenario"]),
    // `flowrun playground`: a local web page that edits a scenario and redraws it as you type.
    .target(
      name: "FlowrunPlayground",
      dependencies: [
        "FlowrunDiagnostics", "FlowrunApp", "FlowrunReport", "FlowrunScenario", "FlowrunYAML",
        .product(name: "FlyingFox", package: "FlyingFox"),
        .product(name: "FlyingSocks", package: "FlyingFox"),
      ]
    ),
    // Swift concurrency in virtual time for bound code: a frame Clock and a serial job queue.
    .target(name: "FlowrunAsyncRuntime", dependencies: ["FlowrunCore"]),
    // Real Combine code checked against scenarios: bindings, a virtual-time Scheduler, services.
    .target(
      name: "FlowrunTesting",
      dependencies: [
        "FlowrunDiagnostics", "FlowrunCore", "FlowrunMarbles", "FlowrunScenario", "FlowrunReport",
        "FlowrunExplore", "FlowrunAsyncRuntime", .product(name: "OrderedCollections", package: "swift-collections"),
        .product(name: "OpenCombineShim", package: "OpenCombine"),
      ]
    ),
    // `flowrun-import`: view models read with swift-syntax, drafted as a scenario + binding test.
    .target(
      name: "FlowrunImport",
      dependencies: [
        "FlowrunDiagnostics", "FlowrunScenario", "FlowrunApp",
        .product(name: "SwiftSyntax", package: "swift-syntax"),
        .product(name: "SwiftParser", package: "swift-syntax"),
      ]
    ),
    .executableTarget(name: "flowrun-import", dependencies: ["FlowrunDiagnostics", "FlowrunImport"]),
    // Golden files and running scenarios, shared by the test targets (not a product).
    .target(
      name: "FlowrunTestSupport",
      dependencies: ["FlowrunDiagnostics", "FlowrunCore", "FlowrunMarbles", "FlowrunScenario"]),
    .executableTarget(
      name: "flowrun",
      dependencies: [
        "FlowrunDiagnostics", "FlowrunCore", "FlowrunApp", "FlowrunReport", "FlowrunScenario",
        "FlowrunExplore", "FlowrunLSP", "FlowrunPlayground",
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
        "FlowrunDiagnostics", "FlowrunCore", "FlowrunMarbles",
        .product(name: "OrderedCollections", package: "swift-collections"),
      ]
    ),
    .testTarget(
      name: "FlowrunExpressionsTests",
      dependencies: [
        "FlowrunDiagnostics", "FlowrunCore", "FlowrunExpressions",
        .product(name: "OrderedCollections", package: "swift-collections"),
      ]
    ),
    .testTarget(
      name: "FlowrunScenarioTests",
      dependencies: [
        "FlowrunTestSupport", "FlowrunDiagnostics", "FlowrunYAML", "FlowrunCore", "FlowrunScenario",
        "FlowrunExpressions",
      ],
      exclude: ["Golden", "Libraries/differences.yaml", "Ports"]
    ),
    .testTarget(
      name: "FlowrunReportTests",
      dependencies: [
        "FlowrunTestSupport", "FlowrunDiagnostics", "FlowrunYAML", "FlowrunCore", "FlowrunMarbles", "FlowrunScenario",
        "FlowrunReport", "FlowrunApp",
      ],
      exclude: ["ReporterGolden", "Golden"]
    ),
    .testTarget(name: "FlowrunAppTests", dependencies: ["FlowrunApp", "FlowrunScenario"]),
    .testTarget(
      name: "FlowrunExploreTests",
      dependencies: [
        "FlowrunDiagnostics", "FlowrunYAML", "FlowrunCore", "FlowrunScenario", "FlowrunReport", "FlowrunApp",
        "FlowrunExplore",
      ]
    ),
    .testTarget(name: "FlowrunLibraryTests", dependencies: ["Flowrun"]),
    .testTarget(
      name: "FlowrunTestingTests",
      dependencies: [
        "FlowrunTesting", "FlowrunCore", "FlowrunScenario", .product(name: "OpenCombineShim", package: "OpenCombine"),
      ],
      exclude: ["Scenarios"]
    ),
    .testTarget(name: "FlowrunAsyncRuntimeTests", dependencies: ["FlowrunAsyncRuntime", "FlowrunCore"]),
    .testTarget(
      name: "FlowrunImportTests",
      dependencies: [
        "FlowrunImport", "FlowrunDiagnostics", "FlowrunScenario", "FlowrunTestSupport", "flowrun", "flowrun-import",
      ],
      // View models the importer reads as text (CorpusImportTests): they import RxSwift, Action,
      // CombineSchedulers and services of modules this package does not have, so never compiled.
      exclude: ["Corpus"]
    ),
    .testTarget(
      name: "FlowrunLSPTests", dependencies: ["FlowrunDiagnostics", "FlowrunYAML", "FlowrunLSP", "FlowrunScenario"]),
    .testTarget(name: "FlowrunPlaygroundTests", dependencies: ["FlowrunDiagnostics", "FlowrunPlayground"]),
    .testTarget(
      name: "flowrunTests", dependencies: ["FlowrunTestSupport", "FlowrunApp", "flowrun"],
      exclude: ["Golden", "LibraryGolden", "SkeletonGolden"]),
  ]
)

for target in package.targets where target.type != .system {
  target.swiftSettings =
    (target.swiftSettings ?? []) + [
      .enableUpcomingFeature("ExistentialAny"),
      .enableUpcomingFeature("MemberImportVisibility"),
    ]
}
