/// `catch: template` and `catchAndReturn: value`: on an error, continue with the signal the
/// error makes (the name `error` is bound to it) instead of failing.
///
/// ```
/// source:                 -a--#
/// catchAndReturn: x       -a--(x|)
/// ```
public final class CatchSource: Source {
  /// Makes the signal to continue with from the error value.
  public typealias Recover = (Value) throws(StepFailure) -> any Source

  private let upstream: any Source
  private let recover: Recover

  public init(_ upstream: any Source, recover: @escaping Recover) {
    self.upstream = upstream
    self.recover = recover
  }

  public func subscribe(_ observer: any Observer) -> any Disposable {
    let catcher = CatchObserver(downstream: observer, recover: recover)
    catcher.link.attach(upstream.subscribe(catcher))
    return catcher
  }
}

private final class CatchObserver: Observer, Disposable {
  let downstream: any Observer
  let recover: CatchSource.Recover
  let link = UpstreamLink()
  var fallback: UpstreamLink?
  var isDisposed = false

  init(downstream: any Observer, recover: @escaping CatchSource.Recover) {
    self.downstream = downstream
    self.recover = recover
  }

  func receive(_ event: Event) {
    guard !link.isFinished, !isDisposed else { return }
    guard case .error(let error) = event else {
      if event.isTerminal { link.finish() }
      return downstream.receive(event)
    }
    link.finish()
    let source: any Source
    do throws(StepFailure) {
      source = try recover(error)
    } catch {
      return downstream.receive(.error(error.value))
    }
    let fallback = UpstreamLink()
    self.fallback = fallback
    fallback.attach(source.subscribe(Forward(downstream: downstream, link: fallback)))
  }

  func dispose() {
    isDisposed = true
    link.dispose()
    fallback?.dispose()
  }

  private final class Forward: Observer {
    let downstream: any Observer
    unowned let link: UpstreamLink

    init(downstream: any Observer, link: UpstreamLink) {
      self.downstream = downstream
      self.link = link
    }

    func receive(_ event: Event) {
      guard !link.isFinished else { return }
      if event.isTerminal { link.finish() }
      downstream.receive(event)
    }
  }
}
