// swift-tools-version:6.1
// flowrun's benchmark suite: a plain release executable over the Flowrun library product.
// From the project root: swift build -c release --package-path Benchmarks --scratch-path .build-bench
import PackageDescription

let package = Package(
  name: "FlowrunBenchmarks",
  dependencies: [
    .package(name: "flowrun", path: "..")
  ],
  targets: [
    .executableTarget(
      name: "FlowrunBench",
      dependencies: [.product(name: "Flowrun", package: "flowrun")]
    )
  ]
)
