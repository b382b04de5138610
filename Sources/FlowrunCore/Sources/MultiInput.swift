/// An operator subscription with several inputs (combineLatest, zip, merge …).
protocol MultiInputSink: AnyObject {
  func receive(_ event: Event, from input: Int)
}

/// Forwards one input's events to a `MultiInputSink`, tagged with the input's index.
final class InputObserver: Observer {
  private unowned let sink: any MultiInputSink
  private let index: Int

  init(sink: any MultiInputSink, index: Int) {
    self.sink = sink
    self.index = index
  }

  func receive(_ event: Event) {
    sink.receive(event, from: index)
  }
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
}
