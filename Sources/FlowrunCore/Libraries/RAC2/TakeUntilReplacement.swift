/// RAC2 `-takeUntilReplacement:`: the source's values until the replacement sends any event;
/// from then on the replacement's events only. The replacement is subscribed first; the
/// source's completion is not sent (ROC `RACSignal+Operations.m` `-takeUntilReplacement:`:
/// `[self concat:[RACSignal never]]`), its error is.
///
/// ```
/// source:        -a-b-c|
/// replacement:   ----x--y|
/// result:        -a-bx--y|
/// ```
extension Source {
  public func takeUntilReplacement(_ replacement: any Source) -> any Source {
    OperatorSource(self) { TakeUntilReplacementObserver(downstream: $0, replacement: replacement) }
  }
}

private final class TakeUntilReplacementObserver: UnaryOperator {
  let downstream: any Observer
  let replacement: any Source
  let link = UpstreamLink()
  let replacementLink = UpstreamLink()
  var replaced = false

  init(downstream: any Observer, replacement: any Source) {
    self.downstream = downstream
    self.replacement = replacement
  }

  func start(_ upstream: any Source) {
    replacementLink.attach(replacement.subscribe(Replacement(owner: self)))
    guard !replaced else { return }
    link.attach(upstream.subscribe(self))
  }

  func receive(_ event: Event) {
    guard !link.isFinished, !replaced else { return }
    switch event {
    case .next: downstream.receive(event)
    case .error:
      link.finish()
      replacementLink.dispose()
      downstream.receive(event)
    case .completed: link.finish()
    }
  }

  func replacementReceived(_ event: Event) {
    guard !replacementLink.isFinished else { return }
    if !replaced {
      replaced = true
      link.dispose()
    }
    if event.isTerminal { replacementLink.finish() }
    downstream.receive(event)
  }

  func dispose() {
    link.dispose()
    replacementLink.dispose()
  }

  private final class Replacement: Observer {
    weak var owner: TakeUntilReplacementObserver?

    init(owner: TakeUntilReplacementObserver) {
      self.owner = owner
    }

    func receive(_ event: Event) {
      owner?.replacementReceived(event)
    }
  }
}
