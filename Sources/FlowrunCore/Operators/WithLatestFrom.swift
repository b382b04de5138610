/// `withLatestFrom: signal(s)`: each source value with the latest value of every other input, as
/// a list `[source, other…]`, once every other input has sent (RxJS 7).
///
/// The other inputs are subscribed first, left to right, then the source. Their completion is
/// ignored, their error fails the result; the source's terminal event ends it.
///
/// ```
/// source:         ---a---b-|
/// other:          -x---y----
/// withLatestFrom: ---p---q-|   (p = [a, x], q = [b, y])
/// ```
extension Source {
  public func withLatestFrom(_ others: [any Source]) -> any Source {
    OperatorSource(self) { WithLatestFromSubscription(downstream: $0, others: others) }
  }
}

private final class WithLatestFromSubscription: OperatorSubscription, MultiInputSink {
  let downstream: any Observer
  let others: [any Source]
  let links: InputLinks
  /// Slot 0 is unused; slot i holds the latest value of other input i.
  var latest: [Value?]
  var missing: Int
  var isDone = false

  init(downstream: any Observer, others: [any Source]) {
    self.downstream = downstream
    self.others = others
    links = InputLinks(count: others.count + 1)
    latest = Array(repeating: nil, count: others.count + 1)
    missing = others.count
  }

  /// The other inputs first, left to right, then the source.
  func start(_ upstream: any Source) {
    for (index, other) in others.enumerated() {
      guard !isDone else { return }
      links.attach(other.subscribe(InputObserver(sink: self, index: index + 1)), to: index + 1)
    }
    guard !isDone else { return }
    links.attach(upstream.subscribe(InputObserver(sink: self, index: 0)), to: 0)
  }

  func receive(_ event: Event, from input: Int) {
    guard !isDone else { return }
    switch event {
    case .next(let value) where input == 0:
      guard missing == 0 else { return }
      downstream.receive(.next(.list([value] + latest.dropFirst().map { $0 ?? .null })))
    case .next(let value):
      if latest[input] == nil { missing -= 1 }
      var values = latest.take()  // changed moved out (Exclusivity.swift)
      values[input] = value
      swap(&values, &latest)
    case .completed where input != 0:
      links.finish(input)
    case .error, .completed:
      isDone = true
      links.finish(input)
      let links = self.links
      downstream.receive(event)
      links.disposeAll()
    }
  }

  func dispose() {
    isDone = true
    links.disposeAll()
  }
}
