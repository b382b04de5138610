/// `startWith: value` (a list means several values): the values at subscription, then the
/// source (RxJS 7 `concat(of(values), source)`).
///
/// ```
/// source:            ---a-|
/// startWith: [x, y]  (xy)a-|
/// ```
extension Source {
  /// With `pullsOnDemand` (Combine's `prepend`, a `Concatenate` of a `Publishers.Sequence` and
  /// the source) a value is sent only while the downstream wants one (`DemandingObserver`), and
  /// the source is subscribed after the last value was sent, unless the downstream ended
  /// meanwhile: `prepend` then `prefix: 1` never subscribes it.
  public func startWith(_ values: [Value], pullsOnDemand: Bool = false) -> any Source {
    OperatorSource(self) { StartWithObserver(downstream: $0, values: values, pullsOnDemand: pullsOnDemand) }
  }
}

private final class StartWithObserver: UnaryOperator {
  let downstream: any Observer
  let values: [Value]
  let pullsOnDemand: Bool
  let link = UpstreamLink()
  var upstream: (any Source)?
  var sent = 0

  init(downstream: any Observer, values: [Value], pullsOnDemand: Bool) {
    self.downstream = downstream
    self.values = values
    self.pullsOnDemand = pullsOnDemand
  }

  /// Sends the values, then subscribes upstream (unless disposed meanwhile).
  func start(_ upstream: any Source) {
    guard pullsOnDemand else {
      for value in values {
        guard !link.isFinished else { return }
        downstream.receive(.next(value))
      }
      guard !link.isFinished else { return }
      return link.attach(upstream.subscribe(self))
    }
    self.upstream = upstream
    pull()
  }

  /// Sends the values the downstream wants, then subscribes upstream.
  private func pull() {
    while sent < values.count {
      guard !link.isFinished, isOpen(downstream) else { return }
      guard wantsValue(downstream) else {
        (downstream as? any DemandingObserver)?.whenWanting { [weak self] in self?.pull() }
        return
      }
      sent += 1
      downstream.receive(.next(values[sent - 1]))
    }
    guard !link.isFinished, isOpen(downstream), let upstream = self.upstream.take() else { return }
    link.attach(upstream.subscribe(self))
  }

  func receive(_ event: Event) {
    link.forward(event, to: downstream)
  }

  func dispose() {
    link.dispose()
  }
}
