import FlowrunTesting

#if canImport(Combine)
  import Combine
#else
  import OpenCombineShim
#endif

/// The teaching scenarios, in the repository's `scenarios/` beside this package.
enum Teaching {
  static func path(_ scenario: String) -> String { "../scenarios/" + scenario }
}

extension FlowService {
  /// The service as the view models take it: a publisher that may fail with any error.
  var anyError: (Int) -> AnyPublisher<Response, any Error> {
    { self($0).mapError { $0 as any Error }.eraseToAnyPublisher() }
  }
}

extension ScenarioCheck.Failure {
  /// The diff's lines, without their indentation.
  var lines: [String] {
    message.split(separator: "\n").map { $0.trimmingPrefix("  ") }.map(String.init)
  }
}
