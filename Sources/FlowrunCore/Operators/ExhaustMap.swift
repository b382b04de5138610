/// `exhaustMap: template`: each outer value becomes an inner signal, unless an inner is still
/// running, in which case the value is dropped.
///
/// ```
/// outer:        -a-b---c---|
/// inner:        --v--|
/// exhaustMap:   ---a-----c-|   (b arrived while a's inner ran)
/// ```
public final class ExhaustMapSource: Source {
  private let upstream: any Source
  private let project: FlatMapSource.Project

  public init(_ upstream: any Source, project: @escaping FlatMapSource.Project) {
    self.upstream = upstream
    self.project = project
  }

  public func subscribe(_ observer: any Observer) -> any Disposable {
    let flatten = Flatten(observer: observer, concurrent: 1)
    let outer = ExhaustOuter(flatten: flatten, project: project)
    flatten.outer.attach(upstream.subscribe(outer))
    return flatten
  }
}

private final class ExhaustOuter: Observer {
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
      guard !flatten.isBusy else { return }
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
