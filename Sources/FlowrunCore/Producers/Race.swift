/// `race`: the first input to send anything (a value or its end) wins; the others are
/// unsubscribed (RxJS `race`, RAC `amb`).
///
/// ```
/// a:     ---a-|
/// b:     -b---|
/// race:  -b---|
/// ```
public final class RaceSource: Source {
  fileprivate let inputs: [any Source]

  public init(_ inputs: [any Source]) {
    self.inputs = inputs
  }

  public func subscribe(_ observer: any Observer) -> any Disposable {
    let race = RaceSubscription(observer: observer, count: inputs.count)
    for (index, input) in inputs.enumerated() {
      guard race.winner == nil || race.winner == index else { break }
      race.links.attach(input.subscribe(InputObserver(sink: race, index: index)), to: index)
    }
    if inputs.isEmpty { observer.receive(.completed) }
    return race
  }
}

private final class RaceSubscription: MultiInputSink, Disposable {
  let observer: any Observer
  let links: InputLinks
  let count: Int
  var winner: Int?

  init(observer: any Observer, count: Int) {
    self.observer = observer
    self.count = count
    links = InputLinks(count: count)
  }

  func receive(_ event: Event, from input: Int) {
    if winner == nil {
      winner = input
      for other in 0..<count where other != input { links.dispose(other) }
    }
    guard winner == input else { return }
    if event.isTerminal { links.finish(input) }
    observer.receive(event)
  }

  func dispose() {
    links.disposeAll()
  }
}
