/// `skipUntil: signal`: drops the source's values until the notifier's first value, then passes
/// them all (RxJS 7).
///
/// The notifier is subscribed before the source and unsubscribed at its first value; its
/// completion without a value is ignored (nothing passes then), its error fails the result.
///
/// ```
/// source:    -a-b-c-d-|
/// notifier:  ----x
/// skipUntil: -----c-d-|
/// ```
public final class SkipUntilSource: Source {
  private let upstream: any Source
  private let notifier: any Source

  public init(_ upstream: any Source, notifier: any Source) {
    self.upstream = upstream
    self.notifier = notifier
  }

  public func subscribe(_ observer: any Observer) -> any Disposable {
    let skip = SkipUntilSubscription(downstream: observer)
    skip.notifierLink.attach(notifier.subscribe(InputObserver(sink: skip, index: 1)))
    if !skip.isDone {
      skip.sourceLink.attach(upstream.subscribe(InputObserver(sink: skip, index: 0)))
    }
    return skip
  }
}

private final class SkipUntilSubscription: MultiInputSink, Disposable {
  let downstream: any Observer
  let sourceLink = UpstreamLink()
  let notifierLink = UpstreamLink()
  var isDone = false
  var isOpen = false

  init(downstream: any Observer) {
    self.downstream = downstream
  }

  func receive(_ event: Event, from input: Int) {
    guard !isDone else { return }
    if input == 0 {
      switch event {
      case .next:
        if isOpen { downstream.receive(event) }
      case .error, .completed:
        sourceLink.finish()
        finish(with: event)
      }
      return
    }
    guard !notifierLink.isFinished else { return }
    switch event {
    case .next:
      isOpen = true
      notifierLink.dispose()
    case .error:
      notifierLink.finish()
      finish(with: event)
    case .completed:
      notifierLink.finish()
    }
  }

  private func finish(with event: Event) {
    isDone = true
    let source = sourceLink.detach()
    let notifier = notifierLink.detach()
    downstream.receive(event)
    source?.dispose()
    notifier?.dispose()
  }

  func dispose() {
    isDone = true
    sourceLink.dispose()
    notifierLink.dispose()
  }
}
