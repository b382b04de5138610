/// `startWith: value` (a list means several values): the values at subscription, then the
/// source (RxJS 7 `concat(of(values), source)`).
///
/// ```
/// source:            ---a-|
/// startWith: [x, y]  (xy)a-|
/// ```
extension Source {
  public func startWith(_ values: [Value]) -> any Source {
    OperatorSource(self) { StartWithObserver(downstream: $0, values: values) }
  }
}

private final class StartWithObserver: UnaryOperator {
  let downstream: any Observer
  let values: [Value]
  let link = UpstreamLink()

  init(downstream: any Observer, values: [Value]) {
    self.downstream = downstream
    self.values = values
  }

  /// Sends the values, then subscribes upstream (unless disposed meanwhile).
  func start(_ upstream: any Source) {
    for value in values {
      guard !link.isFinished else { return }
      downstream.receive(.next(value))
    }
    guard !link.isFinished else { return }
    link.attach(upstream.subscribe(self))
  }

  func receive(_ event: Event) {
    link.forward(event, to: downstream)
  }

  func dispose() {
    link.dispose()
  }
}
