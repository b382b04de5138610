/// `flatMapLatest: template` (`switchMap`) and `switchToLatest` (`switchAll`): each outer value
/// becomes an inner signal; a newer one disposes the previous inner.
///
/// The result completes when the outer signal has completed and the current inner has too; it
/// fails on the first error of either.
///
/// ```
/// outer:          -a---b------|
/// inner (per v):  --v-v|
/// flatMapLatest:  ---a---b-b--|
/// ```
extension Source {
  public func switchMap(_ project: @escaping Projection) -> any Source {
    OperatorSource(self) { SwitchSubscription(downstream: $0, project: project) }
  }
}

private final class SwitchSubscription: OperatorSubscription, MultiInputSink {
  let downstream: any Observer
  let project: Projection
  let outer = UpstreamLink()
  var inner: UpstreamLink?
  var innerIndex = -1
  var outerIndex = 0
  var outerIsDone = false
  var isDone = false

  init(downstream: any Observer, project: @escaping Projection) {
    self.downstream = downstream
    self.project = project
  }

  func start(_ upstream: any Source) {
    outer.attach(upstream.subscribe(InputObserver(sink: self, index: -1)))
  }

  func receive(_ event: Event, from input: Int) {
    guard !isDone else { return }
    if input < 0 {
      receiveOuter(event)
    } else if input == innerIndex {
      receiveInner(event)
    }
  }

  private func receiveOuter(_ event: Event) {
    switch event {
    case .next(let value):
      let source: any Source
      do throws(StepFailure) {
        source = try project(value, outerIndex)
      } catch {
        return finish(with: .error(error.value))
      }
      outerIndex += 1
      inner?.dispose()
      innerIndex += 1
      let link = UpstreamLink()
      inner = link
      link.attach(source.subscribe(InputObserver(sink: self, index: innerIndex)))
    case .error:
      outer.finish()
      finish(with: event)
    case .completed:
      outer.finish()
      outerIsDone = true
      if inner == nil { finish(with: .completed) }
    }
  }

  private func receiveInner(_ event: Event) {
    switch event {
    case .next:
      downstream.receive(event)
    case .error:
      inner?.finish()
      inner = nil
      finish(with: event)
    case .completed:
      inner?.finish()
      inner = nil
      if outerIsDone { finish(with: .completed) }
    }
  }

  private func finish(with event: Event) {
    isDone = true
    let outerUpstream = outer.detach()
    let innerUpstream = inner?.detach()
    inner = nil
    downstream.receive(event)
    innerUpstream?.dispose()
    outerUpstream?.dispose()
  }

  func dispose() {
    guard !isDone else { return }
    isDone = true
    inner?.dispose()
    inner = nil
    outer.dispose()
  }
}
