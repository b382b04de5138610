/// `takeUntil: signal`: the source's values until the notifier's first value, then completed.
///
/// The notifier is subscribed before the source; its completion is ignored (`takeUntilRAC`
/// completes on it too). A notifier error fails the result.
///
/// ```
/// source:    -a-b-c-d-|
/// notifier:  -----x
/// takeUntil: -a-b-|
/// ```
public final class TakeUntilSource: Source {
  private let upstream: any Source
  private let notifier: any Source
  private let completesWithNotifier: Bool

  public init(_ upstream: any Source, notifier: any Source, completesWithNotifier: Bool = false) {
    self.upstream = upstream
    self.notifier = notifier
    self.completesWithNotifier = completesWithNotifier
  }

  public func subscribe(_ observer: any Observer) -> any Disposable {
    let take = TakeUntilSubscription(downstream: observer, completesWithNotifier: completesWithNotifier)
    take.notifierLink.attach(notifier.subscribe(InputObserver(sink: take, index: 1)))
    if !take.isDone {
      take.sourceLink.attach(upstream.subscribe(InputObserver(sink: take, index: 0)))
    }
    return take
  }
}

private final class TakeUntilSubscription: MultiInputSink, Disposable {
  let downstream: any Observer
  let completesWithNotifier: Bool
  let sourceLink = UpstreamLink()
  let notifierLink = UpstreamLink()
  var isDone = false

  init(downstream: any Observer, completesWithNotifier: Bool) {
    self.downstream = downstream
    self.completesWithNotifier = completesWithNotifier
  }

  func receive(_ event: Event, from input: Int) {
    guard !isDone else { return }
    if input == 0 {
      if event.isTerminal {
        sourceLink.finish()
        finish(with: event)
      } else {
        downstream.receive(event)
      }
      return
    }
    switch event {
    case .next:
      finish(with: .completed)
    case .error:
      notifierLink.finish()
      finish(with: event)
    case .completed:
      notifierLink.finish()
      if completesWithNotifier { finish(with: .completed) }
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
