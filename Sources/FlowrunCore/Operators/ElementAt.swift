/// `elementAt: n`: the value at zero-based index n, then completed; a source that completes
/// sooner sends the `default:` value, else fails with `"argument out of range"` (RxJS 7).
///
/// ```
/// source:        -a-b-c-|
/// elementAt: 1   ---(b|)
/// ```
extension Source {
  /// `index` counts from zero; past the end, `defaultValue` or an error.
  public func elementAt(_ index: Int, default defaultValue: Value?) -> any Source {
    OperatorSource(self) { ElementAtObserver(downstream: $0, remaining: index, defaultValue: defaultValue) }
  }
}

extension Value {
  /// The error of `elementAt` past the end with no default.
  public static let outOfRangeError = Value.string("argument out of range")
}

private final class ElementAtObserver: UnaryOperator {
  let downstream: any Observer
  let defaultValue: Value?
  let link = UpstreamLink()
  var remaining: Int

  init(downstream: any Observer, remaining: Int, defaultValue: Value?) {
    self.downstream = downstream
    self.remaining = remaining
    self.defaultValue = defaultValue
  }

  func receive(_ event: Event) {
    guard !link.isFinished else { return }
    switch event {
    case .next:
      guard remaining == 0 else {
        remaining -= 1
        return
      }
      let upstream = link.detach()
      downstream.receive(event)
      downstream.receive(.completed)
      upstream?.dispose()
    case .error:
      link.finish()
      downstream.receive(event)
    case .completed:
      link.finish()
      guard let defaultValue else { return downstream.receive(.error(.outOfRangeError)) }
      downstream.receive(.next(defaultValue))
      downstream.receive(.completed)
    }
  }

  func dispose() {
    link.dispose()
  }
}
