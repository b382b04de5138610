import FlowrunAsyncRuntime
public import FlowrunCore
import FlowrunMarbles
public import FlowrunScenario
import Foundation
public import OpenCombineShim

/// The scenario's run as the code under test sees it: its virtual-time scheduler, its inputs to
/// drive into the code, its expectations to answer from the code, its services to call.
///
/// Made by ``ScenarioCheck`` for each scenario of a file and handed to the binding closure,
/// which runs once, at frame 0, before the scenario's graph connects:
///
/// ```swift
/// try ScenarioCheck.run("scenarios/login/enable-button.yaml", root: #filePath) { flow in
///   let vm = LoginViewModel(scheduler: flow.scheduler)
///   flow.drive("vm.account") { vm.account = $0 }
///   flow.observe("loginButton.enabled", vm.$isLoginEnabled)
/// }
/// ```
///
/// A name the scenario does not declare is a test failure at the line of the call, naming the
/// closest declared name.
public final class Flow {
  let bound: BoundRun
  let frames: FlowClock
  let runtime: AsyncRuntime
  /// The scheduler to give the code: its clock is the scenario's frames.
  public let scheduler: FlowScheduler
  var problems: [ScenarioCheck.Failure] = []
  /// The timers and service calls the code has started and not seen end (``Exhaustivity``).
  let pending = PendingWork()
  /// Names the binding may observe though this run does not record them: an explored run's
  /// file has them (its expectations, which a generated run does not check), so observing
  /// them is no mistake of the binding and is ignored.
  var tolerated: Set<String> = []
  /// The Swift type of each bound output's values, named in a failure whose values are of
  /// another kind than the scenario's.
  var observedTypes: [String: String] = [:]

  init(bound: BoundRun, runtime: AsyncRuntime) {
    self.bound = bound
    frames = FlowClock(scheduler: bound.scheduler, tick: Int64(bound.scenario.tick.nanoseconds), pending: pending)
    scheduler = FlowScheduler(clock: frames)
    self.runtime = runtime
    runtime.attach(to: bound.scheduler, tick: frames.tick)
  }

  /// The scenario being run.
  public var scenario: Scenario { bound.scenario }

  /// The current frame.
  public var frame: Int { scheduler.frame }

  // MARK: - Inputs

  /// Calls `body` with each value the scenario's input `name` receives, at its frame: a
  /// `hot`/`cold` signal's values, a subject's sends, a property's sets (its value at setup is
  /// the code's own initial state, so it is not driven), a command's executes. The value is
  /// converted to `T` (``FlowValueConvertible`` or `Decodable`); one that does not convert
  /// fails the run, naming the input, the frame and `T`.
  public func drive<T: Decodable>(
    _ name: String, as type: T.Type = T.self, fileID: String = #fileID, filePath: String = #filePath,
    line: Int = #line, column: Int = #column, _ body: @escaping (T) -> Void
  ) {
    guard check(input: name, fileID: fileID, filePath: filePath, line: line, column: column) else { return }
    let bound = self.bound
    let read = FlowValues.reader(of: T.self)
    let generic: (Value) -> Void = { value in
      do throws(ConversionError) {
        body(try read(value))
      } catch {
        bound.fail("'\(name)' sent \(value), which does not convert to Swift type \(T.self): \(error.reason)", at: name)
      }
    }
    // A scalar type's values are converted by a closure written for it; one that does not
    // convert fails through the generic path, with its message. (Not `scalar ?? generic`: the
    // generic `??` would keep the closure at its most general abstraction, and every value
    // would then go through two more reabstraction thunks.)
    if let scalar = FlowValues.scalarDrive(body, otherwise: generic) {
      bound.drive(name, scalar)
    } else {
      bound.drive(name, generic)
    }
  }

  /// Calls `body` at each value of the input `name`, ignoring the value (a command executed
  /// without an input, a signal of taps).
  public func drive(
    _ name: String, fileID: String = #fileID, filePath: String = #filePath, line: Int = #line,
    column: Int = #column, _ body: @escaping () -> Void
  ) {
    guard check(input: name, fileID: fileID, filePath: filePath, line: line, column: column) else { return }
    bound.drive(name) { _ in body() }
  }

  // MARK: - Outputs

  /// Answers the expectation `name` with what `publisher` sends (subscribed when the
  /// expectation starts recording): its declared chain is replaced by the code, and a declared
  /// signal of that name reads the code wherever it is referred to. Values convert from
  /// `Output` (``FlowValueConvertible`` or `Encodable`); a failure becomes the error event of
  /// its value (a ``ServiceError`` its scenario value).
  public func observe<P: Publisher>(
    _ name: String, _ publisher: P, fileID: String = #fileID, filePath: String = #filePath, line: Int = #line,
    column: Int = #column
  ) where P.Output: Encodable {
    guard check(output: name, fileID: fileID, filePath: filePath, line: line, column: column) else { return }
    observedTypes[name] = "\(P.Output.self)"
    bound.bind(name, to: PublisherSource(publisher: publisher, name: name, bound: bound))
  }

  /// Answers the expectation `name` with what the code sends to the returned output by hand:
  /// for callback-style code, or code of another reactive library (an RxSwift `subscribe`
  /// calling `output.send`). What is sent before the expectation starts recording is kept for
  /// it.
  public func output<T: Encodable>(
    _ name: String, as type: T.Type = T.self, fileID: String = #fileID, filePath: String = #filePath,
    line: Int = #line, column: Int = #column
  ) -> FlowOutput<T> {
    let output = FlowOutput<T>(name: name, bound: bound)
    guard check(output: name, fileID: fileID, filePath: filePath, line: line, column: column) else { return output }
    bound.bind(name, to: output.source)
    return output
  }

  // MARK: - Services

  /// The scenario's service `name` for the code: calling it logs the request on
  /// `<name>.calls` and answers with the response the scenario declares for that call, in
  /// virtual time. A service the scenario does not declare is a failure at this line, and its
  /// calls never answer.
  public func service<Response: Decodable>(
    _ name: String, returning type: Response.Type = Response.self, fileID: String = #fileID,
    filePath: String = #filePath, line: Int = #line, column: Int = #column
  ) -> FlowService<Response> {
    let declared = bound.serviceNames
    if !bound.useService(name) {
      problem(
        unknown: name, kind: "service", candidates: declared, fileID: fileID, filePath: filePath, line: line,
        column: column)
    }
    return FlowService(
      name: name, bound: bound, isDeclared: declared.contains(name), read: FlowValues.reader(of: Response.self),
      pending: pending)
  }

  // MARK: - Checking names

  private func check(input name: String, fileID: String, filePath: String, line: Int, column: Int) -> Bool {
    guard bound.input(named: name) == nil else { return true }
    problem(
      unknown: name, kind: "input (signal, subject, property or command)", candidates: bound.inputNames,
      fileID: fileID, filePath: filePath, line: line, column: column)
    return false
  }

  func check(output name: String, fileID: String, filePath: String, line: Int, column: Int) -> Bool {
    let invariantNames = bound.invariantNames
    if bound.outputNames.contains(name) || bound.input(named: name) == .signal || invariantNames.contains(name) {
      return true
    }
    if tolerated.contains(name) { return false }
    problem(
      unknown: name, kind: "expectation", candidates: bound.outputNames + invariantNames, fileID: fileID,
      filePath: filePath,
      line: line, column: column)
    return false
  }

  private func problem(
    unknown name: String, kind: String, candidates: [String], fileID: String, filePath: String, line: Int,
    column: Int
  ) {
    var message = "'\(scenario.name)' (\(scenario.path)) has no \(kind) '\(name)'"
    if let close = ScenarioCheck.closest(to: name, in: candidates) {
      message += "; did you mean '\(close)'?"
    } else if !candidates.isEmpty {
      message += "; it has " + candidates.map { "'\($0)'" }.joined(separator: ", ")
    }
    problems.append(
      ScenarioCheck.Failure(
        message: message, fileID: fileID, filePath: filePath, line: line, column: column, target: name))
  }
}

/// An output the code sends to by hand (``Flow/output(_:as:fileID:filePath:line:column:)``).
public final class FlowOutput<T: Encodable> {
  let source = BufferedSource()
  private let name: String
  private let bound: BoundRun

  init(name: String, bound: BoundRun) {
    self.name = name
    self.bound = bound
  }

  /// Sends a value, at the current frame.
  public func send(_ value: T) {
    do throws(ConversionError) {
      source.receive(.next(try FlowValues.value(of: value)))
    } catch {
      bound.fail("'\(name)' received a Swift \(T.self) that does not convert: \(error.reason)", at: name)
    }
  }

  /// Calls ``send(_:)``, so the output can be passed where a callback is expected.
  public func callAsFunction(_ value: T) {
    send(value)
  }

  /// Ends the output.
  public func finish() {
    source.receive(.completed)
  }

  /// Ends the output with an error (a ``ServiceError``'s scenario value, an `Encodable`
  /// error's value, else the error's description).
  public func fail(_ error: any Error) {
    source.receive(.error(errorValue(error)))
  }
}

/// A flowrun value carried as a Swift error: a service's error response, or a failure the code
/// reports as a scenario value.
public struct ServiceError: Error, Equatable, CustomStringConvertible {
  /// The scenario's value (`#` with the file's `error`, or the marble's own).
  public let value: Value

  /// An error that carries `value`, as a stub's error answer does.
  public init(_ value: Value) {
    self.value = value
  }

  /// The value as a Swift `T` (a model of the API's error body); nil when it does not convert.
  public func decode<T: Decodable>(as type: T.Type = T.self) -> T? {
    try? FlowValues.swift(T.self, from: value)
  }

  /// `ServiceError(<value>)`, the value as flowrun writes it.
  public var description: String { "ServiceError(\(value))" }
}

/// The value of an error sent by the code.
func errorValue(_ error: any Error) -> Value {
  if let service = error as? ServiceError { return service.value }
  if let value = try? FlowValues.value(of: error), !(error is any FlowValueConvertible), error is any Encodable {
    return value
  }
  return .string(String(describing: error))
}

/// A service of the scenario, callable from the code (``Flow/service(_:returning:fileID:filePath:line:column:)``).
public struct FlowService<Response: Decodable> {
  let name: String
  let bound: BoundRun
  let isDeclared: Bool
  /// The conversion of its responses, chosen once for the service (not for every call).
  let read: (Value) throws(ConversionError) -> Response
  let pending: PendingWork

  /// Notes a call in flight; the closure returned notes its end (an answer, or a cancel).
  func inFlight() -> () -> Void {
    let pending = self.pending
    let token = pending.begin(
      PendingWork.Item(since: bound.scheduler.now, what: "a call of service '\(name)' never answered", name: name))
    return { pending.end(token) }
  }

  /// Calls the service with `request` when subscribed: the publisher answers with the
  /// scenario's response for this call, in virtual time (a value that does not decode as
  /// `Response` fails the run, naming the service, the frame and the type).
  public func callAsFunction<Request: Encodable>(_ request: Request) -> ServicePublisher<Response> {
    ServicePublisher(service: self, input: { () throws(ConversionError) in try FlowValues.value(of: request) })
  }

  /// Calls the service without a request (`null` in its call log).
  public func callAsFunction() -> ServicePublisher<Response> {
    ServicePublisher(service: self, input: { .null })
  }
}
