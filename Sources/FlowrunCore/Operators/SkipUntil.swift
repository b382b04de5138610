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
  /// `combineRules` (Combine's `drop(untilOutputFrom:)`, OpenCombine
  /// `Publishers.DropUntilOutput.swift` `Inner.receiveOther(_:)` / `receiveOther(completion:)`):
  /// the notifier's value does not cancel the notifier, and a notifier that terminates before
  /// its first value cancels the source and ends the result with its completion.
  public func skipUntil(_ notifier: any Source, rule: CombiningRule = .standard, combineRules: Bool = false)
    -> any Source
  {
    OperatorSource(self) {
      SkipUntilSubscription(downstream: $0, notifier: notifier, rule: rule, combineRules: combineRules)
    }
  }
}

private final class SkipUntilSubscription: OperatorSubscription, MultiInputSink {
  let downstream: any Observer
  let notifier: any Source
  let combineRules: Bool
  /// The notifier's subscription once kept (never disposed by this operator).
  var keptNotifier: (any Disposable)?
  let sourceLink = UpstreamLink()
  let notifierLink = UpstreamLink()
  var isDone = false
  var isOpen = false
  let rule: CombiningRule

  init(downstream: any Observer, notifier: any Source, rule: CombiningRule, combineRules: Bool) {
    self.downstream = downstream
    self.notifier = notifier
    self.rule = rule
    self.combineRules = combineRules
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
        // Combine's `Inner.receive(completion:)` forwards the end without cancelling the
        // notifier, which runs until it terminates.
        if combineRules { keep() }
        finish(with: event)
      }
      return
    }
    guard !notifierLink.isFinished else { return }
    if isOpen { return }
    switch event {
    case .next:
      isOpen = true
      if combineRules { keep() } else { notifierLink.dispose() }
    case .error:
      notifierLink.finish()
      finish(with: event)
    case .completed:
      notifierLink.finish()
      if combineRules { finish(with: event) }
    }
  }

  /// Puts the notifier's subscription out of reach of `dispose` (Combine's `Inner` sets
  /// `otherSubscription = nil` without cancelling it): it runs until it terminates.
  private func keep() {
    if let notifier = notifierLink.detach() { keptNotifier = notifier }
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
