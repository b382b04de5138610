import FlowrunScenario
import SwiftSyntax

/// The rows that read one call of a chain into steps, by the call's name and labels.
enum OperatorRows {
  /// Types whose static members start a chain (`Observable.combineLatest`, `Publishers.Merge`).
  static let sourceTypes: Set<String> = [
    "Observable", "Publishers", "Driver", "Signal", "Single", "Infallible", "AsyncStream",
  ]

  /// Calls that only change a type, print or keep a subscription alive: steps the loader
  /// passes on unchanged, by library (nil: no step at all).
  static func passThrough(_ name: String, library: ImportedLibrary) -> String?? {
    switch name {
    case "store", "disposed", "cancel": return .some(nil)
    case "eraseToAnySequence": return .some(nil)  // async: a type change, no step
    case "eraseToAnyPublisher", "setFailureType", "print", "debug", "asObservable":
      return .some(name)
    case "filterSuccessfulStatusCodes", "filterSuccessfulStatusAndRedirectCodes", "mapJSON", "mapString":
      return .some(nil)  // Moya's response checks and decoding: the stub's value is the model
    default: return nil
    }
  }

  /// Durations: `.milliseconds(300)`, `.seconds(1)`, `0.3` (seconds), `RxTimeInterval`s.
  static func milliseconds(_ expr: ExprSyntax) -> Int? {
    if let call = expr.as(FunctionCallExprSyntax.self),
      let access = call.calledExpression.as(MemberAccessExprSyntax.self),
      let argument = call.arguments.first?.expression, let literal = ExpressionTranslator.literal(argument),
      let number = Double(literal)
    {
      switch access.declName.baseName.text {
      case "milliseconds": return Int(number)
      case "seconds": return Int(number * 1000)
      case "microseconds": return Int(number / 1000)
      case "nanoseconds": return Int(number / 1_000_000)
      default: return nil
      }
    }
    if let literal = ExpressionTranslator.literal(expr), let seconds = Double(literal) { return Int(seconds * 1000) }
    return nil
  }

  /// Schedulers and clocks that run on real time: each stops virtual time, with how to inject one.
  static func realTimeScheduler(_ expr: ExprSyntax) -> (name: String, advice: String)? {
    let text = expr.trimmedDescription
    let advice: String
    switch text {
    case "DispatchQueue.main", "RunLoop.main", "DispatchQueue.global()", "OperationQueue.main":
      advice = "take a 'scheduler: S' (S: Scheduler) in the initializer and pass flow.scheduler in the test"
    case "MainScheduler.instance", "MainScheduler.asyncInstance", "MainScheduler()":
      advice = "take a 'scheduler: SchedulerType' in the initializer and pass a virtual-time scheduler in the test"
    case "ContinuousClock()", "SuspendingClock()", ".continuous", ".suspending":
      advice = "take a 'clock: some Clock<Duration>' in the initializer and pass a virtual-time clock in the test"
    default: return nil
    }
    return (text, advice)
  }
}
