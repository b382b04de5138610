/// `takeUntil: signal`: the source's values until the notifier's first value, then completed.
///
/// The notifier is subscribed before the source; its completion is ignored and its error fails
/// the result (`takeUntilRAC`, RAC2's `-takeUntil:`, completes on the completion and ignores
/// the error).
///
/// ```
/// source:    -a-b-c-d-|
/// notifier:  -----x
/// takeUntil: -a-b-|
/// ```
extension Source {
  /// With `completesWithNotifier` (`takeUntilRAC`) the notifier's completion completes it too;
  /// with `ignoresNotifierError` (`takeUntilRAC`, Combine's `prefix(untilOutputFrom:)`) a
  /// failing notifier is only unsubscribed. With `keepsNotifier` (Combine's
  /// `prefix(untilOutputFrom:)`) the notifier's first value cancels the source but not the
  /// notifier, which stays subscribed until it terminates or the result is cancelled (OpenCombine
  /// `Publishers.PrefixUntilOutput.swift` `Inner.terminationReceive(_:)` cancels only
  /// `prefixState`'s subscription; `PrefixUntilOutputTests.testCancelsUpstreamWhenTerminatorSendsValue`).
  public func takeUntil(
    _ notifier: any Source, completesWithNotifier: Bool = false, ignoresNotifierError: Bool = false,
    keepsNotifier: Bool = false
  ) -> any Source {
    OperatorSource(self) {
      TakeUntilSubscription(
        downstream: $0, notifier: notifier, completesWithNotifier: completesWithNotifier,
        ignoresNotifierError: ignoresNotifierError, keepsNotifier: keepsNotifier)
    }
  }
}

private final class TakeUntilSubscription: OperatorSubscription, MultiInputSink {
  let downstream: any Observer
  let notifier: any Source
  let completesWithNotifier: Bool
  let ignoresNotifierError: Bool
  let keepsNotifier: Bool
  /// The notifier's subscription once kept (never disposed by this operator).
  var keptNotifier: (any Disposable)?
  let sourceLink = UpstreamLink()
  let notifierLink = UpstreamLink()
  var isDone = false

  init(
    downstream: any Observer, notifier: any Source, completesWithNotifier: Bool, ignoresNotifierError: Bool,
    keepsNotifier: Bool
  ) {
    self.downstream = downstream
    self.notifier = notifier
    self.completesWithNotifier = completesWithNotifier
    self.ignoresNotifierError = ignoresNotifierError
    self.keepsNotifier = keepsNotifier
  }

  /// The notifier first, then the source.
  func start(_ upstream: any Source) {
    notifierLink.attach(notifier.subscribe(InputObserver(sink: self, index: 1)))
    if !isDone {
      sourceLink.attach(upstream.subscribe(InputObserver(sink: self, index: 0)))
    }
  }

  func receive(_ event: Event, from input: Int) {
    guard !isDone else {
      // A kept notifier that terminates ends its subscription.
      if input == 1, event.isTerminal { notifierLink.finish() }
      return
    }
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
      finish(with: .completed, keepingNotifier: keepsNotifier)
    case .error:
      notifierLink.finish()
      if !ignoresNotifierError { finish(with: event) }
    case .completed:
      notifierLink.finish()
      if completesWithNotifier { finish(with: .completed) }
    }
  }

  private func finish(with event: Event, keepingNotifier: Bool = false) {
    isDone = true
    let source = sourceLink.detach()
    // A kept notifier is out of reach of a later dispose: Combine's `Inner` forgets it
    // (`terminationState = .terminal` without cancelling), so it runs until it terminates.
    if keepingNotifier, let notifier = notifierLink.detach() { keptNotifier = notifier }
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
