/// An operator subscription with several inputs (combineLatest, zip, merge …).
protocol MultiInputSink: AnyObject {
  func receive(_ event: Event, from input: Int)
  /// Whether input `index` may still deliver (a Combine `prepend` asks, `DemandingObserver`).
  func accepts(from input: Int) -> Bool
}

extension MultiInputSink {
  func accepts(from input: Int) -> Bool { true }
}

/// Forwards one input's events to a `MultiInputSink`, tagged with the input's index.
///
/// The reference is weak: an input may go on sending in the same call after the subscription
/// ended and was released (`last`, `reduce`, `takeLast`, `elementAt`, `debounce` send a value
/// then their completion; the value can make a `zip` complete, or a `flatMapLatest` inner
/// fail). Such events are dropped, as a closed subscriber drops them in Rx.
final class InputObserver: Observer {
  private weak var sink: (any MultiInputSink)?
  private let index: Int

  init(sink: any MultiInputSink, index: Int) {
    self.sink = sink
    self.index = index
  }

  func receive(_ event: Event) {
    sink?.receive(event, from: index)
  }
}

/// A released or ended sink wants nothing more: a Combine `prepend` feeding it does not
/// subscribe its source (a `first` after a `merge` ended the merge while it was subscribing).
extension InputObserver: DemandingObserver {
  var wantsValue: Bool { isOpen }
  var isOpen: Bool { sink?.accepts(from: index) ?? false }
  func whenWanting(_ resume: @escaping () -> Void) {}
}

/// The disposables of a multi-input subscription, one per input.
struct InputLinks {
  private let links: [UpstreamLink]

  init(count: Int) {
    links = (0..<count).map { _ in UpstreamLink() }
  }

  func attach(_ disposable: any Disposable, to input: Int) {
    links[input].attach(disposable)
  }

  func finish(_ input: Int) {
    links[input].finish()
  }

  func dispose(_ input: Int) {
    links[input].dispose()
  }

  func disposeAll() {
    for link in links { link.dispose() }
  }

  /// Whether every input but `input` has finished.
  func othersFinished(besides input: Int) -> Bool {
    links.indices.allSatisfy { $0 == input || links[$0].isFinished }
  }
}
