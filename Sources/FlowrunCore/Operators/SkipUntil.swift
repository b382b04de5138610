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
///
/// `rule: .rxSwift` (RxSwift `Observables/SkipUntil.swift`, `SkipUntilSink.run` and
/// `synchronized_on`): the source is subscribed before the notifier, and a source that completes
/// before the notifier's first value ends **without** a completion (`if forwardElements`).
extension Source {
  public func skipUntil(_ notifier: any Source, rule: CombiningRule = .standard) -> any Source {
    OperatorSource(self) { SkipUntilSubscription(downstream: $0, notifier: notifier, rule: rule) }
  }
}

private final class SkipUntilSubscription: OperatorSubscription, MultiInputSink {
  let downstream: any Observer
  let notifier: any Source
  let sourceLink = UpstreamLink()
  let notifierLink = UpstreamLink()
  var isDone = false
  var isOpen = false
  let rule: CombiningRule

  init(downstream: any Observer, notifier: any Source, rule: CombiningRule) {
    self.downstream = downstream
    self.notifier = notifier
    self.rule = rule
  }

  /// The notifier first, then the source (RxSwift: the source first).
  func start(_ upstream: any Source) {
    if rule == .rxSwift {
      sourceLink.attach(upstream.subscribe(InputObserver(sink: self, index: 0)))
      if !isDone { notifierLink.attach(notifier.subscribe(InputObserver(sink: self, index: 1))) }
      return
    }
    notifierLink.attach(notifier.subscribe(InputObserver(sink: self, index: 1)))
    if !isDone {
      sourceLink.attach(upstream.subscribe(InputObserver(sink: self, index: 0)))
    }
  }

  func receive(_ event: Event, from input: Int) {
    guard !isDone else { return }
    if input == 0 {
      switch event {
      case .next:
        if isOpen { downstream.receive(event) }
      case .completed where rule == .rxSwift && !isOpen:
        sourceLink.finish()
        isDone = true
        notifierLink.dispose()
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
