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
    // RxSwift view models (the RxSwift + Moya login, an RxSwift search, an Action login), whose
    // `flowrun-import` drafts and binding tests are under Imported/ and Tests/RxViewModelsTests.
    .target(name: "RxViewModels", dependencies: ["RxSwift", "RxRelay", "RxCocoa", "Action", "Moya", "RxMoya"]),
    .testTarget(
      name: "RxViewModelsTests",
      dependencies: [
        "RxViewModels", "RxSwift", "RxRelay", "RxCocoa", "Action", "Moya", "RxMoya",
        .product(name: "FlowrunTesting", package: "flowrun"),
        .product(name: "OpenCombineShim", package: "OpenCombine"),
      ]
    ),
    // RxSwift, RxRelay, RxCocoa, Action, Moya and RxMoya are not in this machine's package
    // mirror. StandIns/ holds modules of those names with the part of their public API that the
    // RxSwift view models and their tests use, written to the libraries' documented behaviour
    // (StandIns/README.md): with the real packages, these six targets give way to
    // `.package(url:)` lines and nothing else changes.
    .target(name: "RxSwift", path: "StandIns/RxSwift"),
    .target(name: "RxRelay", dependencies: ["RxSwift"], path: "StandIns/RxRelay"),
    .target(name: "RxCocoa", dependencies: ["RxSwift", "RxRelay"], path: "StandIns/RxCocoa"),
    .target(name: "Action", dependencies: ["RxSwift", "RxRelay", "RxCocoa"], path: "StandIns/Action"),
    .target(name: "Moya", path: "StandIns/Moya"),
    .target(name: "RxMoya", dependencies: ["Moya", "RxSwift"], path: "StandIns/RxMoya"),
    .testTarget(
      name: "StandInsTests", dependencies: ["RxSwift", "RxRelay", "RxCocoa", "Action", "Moya", "RxMoya"],
      path: "StandIns/Tests"),
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
