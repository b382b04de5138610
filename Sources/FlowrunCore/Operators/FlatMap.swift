/// `flatMap: template` (+ `concurrent: n`), `concatMap`, `mergeAll`, `concatAll`: each outer
/// value becomes an inner signal whose values are merged into the result.
///
/// At most `concurrent` inners run at once; the rest wait in order (`concatMap` is
/// `concurrent: 1`). The result completes when the outer signal and every inner have completed,
/// and fails on the first error.
///
/// ```
/// outer:            -a-----b---|
/// inner (per v):    --v|
/// flatMap:          ---a-----b-|
/// ```
public final class FlatMapSource: Source {
  /// Makes the inner signal of an outer value and its index.
  public typealias Project = (Value, Int) throws(StepFailure) -> any Source

  private let upstream: any Source
  private let concurrent: Int
  private let project: Project

  public init(_ upstream: any Source, concurrent: Int = .max, project: @escaping Project) {
    self.upstream = upstream
    self.concurrent = max(concurrent, 1)
    self.project = project
  }

  public func subscribe(_ observer: any Observer) -> any Disposable {
    let flatten = Flatten(observer: observer, concurrent: concurrent)
    flatten.outer.attach(upstream.subscribe(FlatMapOuter(flatten: flatten, project: project)))
    return flatten
  }
}

private final class FlatMapOuter: Observer {
  let flatten: Flatten
  let project: FlatMapSource.Project
  var index = 0

  init(flatten: Flatten, project: @escaping FlatMapSource.Project) {
    self.flatten = flatten
    self.project = project
  }

  func receive(_ event: Event) {
    guard !flatten.isDone else { return }
    switch event {
    case .next(let value):
      do throws(StepFailure) {
        let inner = try project(value, index)
        index += 1
        flatten.enqueue(inner)
      } catch {
        flatten.fail(error.value)
      }
    case .error(let error):
      flatten.outer.finish()
      flatten.fail(error)
    case .completed:
      flatten.outerCompleted()
    }
  }
}

/// The inner signal a higher-order value carries, or a failure when it is not a signal.
public func innerSignal(of value: Value, operator name: String) throws(StepFailure) -> any Source {
  if case .signal(let signal) = value, let source = signal.source { return source }
  if case .signal(let signal) = value, let events = signal.events {
    return RecordedSource(events: events)
  }
  throw StepFailure(.string("'\(name)' needs signal values, got \(value.kindName)"))
}

/// A signal known only by its recorded events, replayed synchronously (a recorded `!cold`
/// value cannot be scheduled without a runtime).
final class RecordedSource: Source {
  let events: [Recorded]

  init(events: [Recorded]) {
    self.events = events
  }

  func subscribe(_ observer: any Observer) -> any Disposable {
    ImmediateSource(events: events.map(\.event)).subscribe(observer)
  }
}
