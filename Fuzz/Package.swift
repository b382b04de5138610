// swift-tools-version:6.1
// libFuzzer targets for flowrun, kept out of the main package so its build stays light.
// Build and run one with `Fuzz/run.sh <target> <seconds>` (release, -sanitize=fuzzer,address).
import PackageDescription

let package = Package(
  name: "flowrun-fuzz",
  dependencies: [.package(name: "flowrun", path: "..")],
  targets: [
    .target(name: "CFuzzDriver"),
    .target(name: "FuzzSupport", dependencies: ["CFuzzDriver", .product(name: "Flowrun", package: "flowrun")]),
    .executableTarget(name: "yaml", dependencies: ["FuzzSupport"]),
    .executableTarget(name: "marbles", dependencies: ["FuzzSupport"]),
    .executableTarget(name: "expressions", dependencies: ["FuzzSupport"]),
    .executableTarget(name: "scenario", dependencies: ["FuzzSupport"]),
  ]
)
