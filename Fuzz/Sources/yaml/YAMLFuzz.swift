import FlowrunYAML
import FuzzSupport

/// The YAML layer: any bytes parse to a tree or diagnostics, never a crash.
@main
enum Main {
  static func main() { runFuzzer(fuzz) }
}

func fuzz(_ pointer: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  guard let data = pointer else { return 0 }
  let input = bytes(data, size)
  let (file, diagnostics) = YAMLFile.parse(
    path: "fuzz.yaml", bytes: input, limits: YAMLLimits(maxFileSize: 1 << 20, maxNodes: 100_000, aliasExpansion: 10_000))
  for diagnostic in diagnostics { _ = diagnostic.description }
  _ = file
  return 0
}
