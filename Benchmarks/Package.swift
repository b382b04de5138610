// swift-tools-version:6.1
// flowrun's benchmark suite: a plain release executable over the Flowrun library product.
// From the project root: swift build -c release --package-path Benchmarks --scratch-path .build-bench
import PackageDescription

let package = Package(
  name: "FlowrunBenchmarks",
  dependencies: [
    .package(name: "flowrun", path: ".."),
    // BindingBench: the example view models under FlowrunTesting and combine-schedulers.
    .package(name: "FlowrunExamples", path: "../Examples"),
    .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
    .package(url: "https://github.com/pointfreeco/combine-schedulers", exact: "1.2.2"),
  ],
  targets: [
    .executableTarget(
      name: "FlowrunBench",
      dependencies: [.product(name: "Flowrun", package: "flowrun")]
    ),
    .executableTarget(
      name: "BindingBench",
      dependencies: [
        .product(name: "FlowrunTesting", package: "flowrun"),
        .product(name: "ViewModels", package: "FlowrunExamples"),
        .product(name: "OpenCombineShim", package: "OpenCombine"),
        .product(name: "CombineSchedulers", package: "combine-schedulers"),
      ]
    ),
  ]
)
