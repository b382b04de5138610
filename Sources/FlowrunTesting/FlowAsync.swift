// The clock and runtime types are part of FlowrunTesting's API (`FrameClock` in a view model's type).
@_exported public import FlowrunAsyncRuntime
import FlowrunCore
import FlowrunScenario
public import Observation

/// Swift concurrency in the run: a virtual clock, `AsyncSequence` outputs, `@Observable`
/// properties and `async` services, all on the run's ``AsyncRuntime`` (its jobs one at a time,
/// first in, first out, on the scenario's frames).
extension Flow {
  /// The clock to give the code (`any Clock<Duration>`): its instant is the scenario's frame,
  /// so `Task.sleep(for:clock:)`, `debounce(for:clock:)` and `AsyncTimerSequence` run in
  /// virtual time.
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  public var clock: FrameClock { runtime.clock }

  /// Answers the expectation `name` with the elements of `sequence`, iterated by a task started
  /// when the expectation starts recording: the sequence's end is the lane's completion, an
  /// error its error event, and a `CancellationError` the lane's cancellation, `(;|)`, as the
  /// model records a task cancelled by the expectation's `;` (docs/libraries.md,
  /// `async-task-cancellation`). The task is cancelled when the expectation stops recording or
  /// its `;` frame comes.
  public func observe<S: AsyncSequence>(
    _ name: String, _ sequence: S, fileID: String = #fileID, filePath: String = #filePath, line: Int = #line,
    column: Int = #column
  ) where S.Element: Encodable, S: SendableMetatype {
    guard check(output: name, fileID: fileID, filePath: filePath, line: line, column: column) else { return }
    observedTypes[name] = "\(S.Element.self)"
    bound.bind(name, to: AsyncSequenceSource(sequence: sequence, name: name, bound: bound))
  }

  /// Answers the expectation `name` with the values of `model`'s `@Observable` property
  /// `keyPath`, as `Observations` (SE-0475) delivers them: the current value when the
  /// expectation starts recording, then one value per transaction — the changes made until the
  /// next suspension, which is the end of the frame's same-instant work here — with
  /// intermediate values skipped.
  @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, *)
  public func observe<Model: Observable & AnyObject & SendableMetatype, Property: Encodable & Sendable>(
    _ name: String, of model: Model, _ keyPath: KeyPath<Model, Property>, fileID: String = #fileID,
    filePath: String = #filePath, line: Int = #line, column: Int = #column
  ) {
    let reader = Unchecked((model, keyPath))
    let observations = Observations { reader.value.0[keyPath: reader.value.1] }
    observe(name, observations, fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// The scenario's service `name` as an `async throws` function: each call logs the request
  /// on `<name>.calls` and returns the first value of the response the scenario declares for
  /// it, in virtual time; an error response throws ``ServiceError``, a response that ends
  /// without a value throws ``ServiceError`` with the value `"no value"`, and cancelling the
  /// calling task ends the call with `CancellationError`.
  public func asyncService<Response: Decodable>(
    _ name: String, returning type: Response.Type = Response.self, fileID: String = #fileID,
    filePath: String = #filePath, line: Int = #line, column: Int = #column
  ) -> AsyncFlowService<Response> {
    AsyncFlowService(
      service: service(name, returning: type, fileID: fileID, filePath: filePath, line: line, column: column))
  }
}

/// A service of the scenario as an `async throws` function
/// (``Flow/asyncService(_:returning:fileID:filePath:line:column:)``).
public struct AsyncFlowService<Response: Decodable>: @unchecked Sendable {
  let service: FlowService<Response>

  /// Calls the service with `request` and waits, in virtual time, for its response.
  public func callAsFunction<Request: Encodable>(_ request: Request) async throws -> Response {
    let value: Value
    do throws(ConversionError) {
      value = try FlowValues.value(of: request)
    } catch {
      service.bound.fail(
        "'\(service.name)' was called with a request that does not convert: \(error.reason)", at: service.name)
      throw CancellationError()
    }
    return try await call(value)
  }

  /// Calls the service without a request (`null` in its call log).
  public func callAsFunction() async throws -> Response {
    try await call(.null)
  }

  private func call(_ request: Value) async throws -> Response {
    let waiter = Unchecked(ServiceWaiter())
    let service = self.service
    let value: Value = try await withTaskCancellationHandler {
      try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Value, any Error>) in
        guard !waiter.value.isCancelled else {
          return continuation.resume(throwing: CancellationError())  // cancelled before the call
        }
        waiter.value.continuation = continuation
        guard service.isDeclared, let response = service.bound.call(service.name, with: request) else {
          return  // an undeclared service never answers (its failure is at the line of the binding)
        }
        waiter.value.onEnd = service.inFlight()
        waiter.value.start(response)
      }
    } onCancel: {
      waiter.value.cancel()
    }
    do throws(ConversionError) {
      return try FlowValues.swift(Response.self, from: value)
    } catch {
      service.bound.fail(
        "'\(service.name)' answered \(value), which does not convert to Swift type \(Response.self): \(error.reason)",
        at: service.name)
      throw ServiceError(value)
    }
  }
}

/// One pending call of an async service: resumes its caller at the response's first event.
private final class ServiceWaiter: Observer {
  var continuation: UnsafeContinuation<Value, any Error>?
  /// Notes the end of the call (``PendingWork``).
  var onEnd: (() -> Void)?
  private var subscription: (any Disposable)?
  private(set) var isCancelled = false

  func start(_ response: any Source) {
    let subscription = response.subscribe(self)
    if continuation == nil { subscription.dispose() } else { self.subscription = subscription }
  }

  func receive(_ event: Event) {
    guard let continuation else { return }
    self.continuation = nil
    subscription?.dispose()
    subscription = nil
    onEnd?()
    onEnd = nil
    switch event {
    case .next(let value): continuation.resume(returning: value)
    case .error(let value): continuation.resume(throwing: ServiceError(value))
    case .completed: continuation.resume(throwing: ServiceError(.string("no value")))
    }
  }

  func cancel() {
    guard let continuation else {
      isCancelled = true
      return
    }
    self.continuation = nil
    subscription?.dispose()
    subscription = nil
    onEnd?()
    onEnd = nil
    continuation.resume(throwing: CancellationError())
  }
}

/// A value handed between the run's jobs, which all run on the run's thread (the runtime checks
/// it), so the compiler's `Sendable` checking is vouched for by hand.
struct Unchecked<T>: @unchecked Sendable {
  var value: T
  init(_ value: T) { self.value = value }
}

/// An `AsyncSequence` as a flowrun source: each subscription starts a task that iterates the
/// sequence and hands its elements, converted, to the observer; disposing cancels the task.
final class AsyncSequenceSource<S: AsyncSequence>: Source where S.Element: Encodable, S: SendableMetatype {
  let sequence: S
  let name: String
  let bound: BoundRun

  init(sequence: S, name: String, bound: BoundRun) {
    self.sequence = sequence
    self.name = name
    self.bound = bound
  }

  func subscribe(_ observer: any Observer) -> any Disposable {
    let subscription = TaskSubscription()
    let state = Unchecked((sequence: sequence, observer: observer, subscription: subscription, self))
    subscription.task = Task {
      let (sequence, observer, subscription, source) = state.value
      do {
        for try await element in sequence {
          guard !subscription.isDisposed else { return }
          do throws(ConversionError) {
            observer.receive(.next(try FlowValues.value(of: element)))
          } catch {
            source.bound.fail(
              "'\(source.name)': the code sent a Swift \(S.Element.self) that does not convert: \(error.reason)",
              at: source.name)
          }
        }
        guard !subscription.isDisposed else { return }
        observer.receive(.completed)
      } catch is CancellationError {
        guard !subscription.isDisposed else { return }
        // The iteration ended by a cancellation: the lane's `;`, then its end.
        guard let recorder = observer as? Recorder else { return observer.receive(.completed) }
        recorder.cancel()
      } catch {
        guard !subscription.isDisposed else { return }
        observer.receive(.error(errorValue(error)))
      }
    }
    return subscription
  }
}

/// Cancels the iterating task of an ``AsyncSequenceSource`` subscription.
final class TaskSubscription: Disposable {
  var task: Task<Void, Never>?
  private(set) var isDisposed = false

  func dispose() {
    isDisposed = true
    task?.cancel()
    task = nil
  }
}
