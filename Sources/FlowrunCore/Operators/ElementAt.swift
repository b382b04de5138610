/// `elementAt: n`: the value at zero-based index n, then completed; a source that completes
/// sooner sends the `default:` value, else fails with `"argument out of range"` (RxJS 7).
///
/// ```
/// source:        -a-b-c-|
/// elementAt: 1   ---(b|)
/// ```
public final class ElementAtSource: Source {
  private let upstream: any Source
  private let index: Int
  private let defaultValue: Value?

  public init(_ upstream: any Source, index: Int, default defaultValue: Value?) {
    self.upstream = upstream
    self.index = index
    self.defaultValue = defaultValue
  }

  public func subscribe(_ observer: any Observer) -> any Disposable {
    let elementAt = ElementAtObserver(downstream: observer, remaining: index, defaultValue: defaultValue)
    elementAt.link.attach(upstream.subscribe(elementAt))
    return elementAt
  }

  /// The error of `elementAt` past the end with no default.
  public static let outOfRangeError = Value.string("argument out of range")
}

private final class ElementAtObserver: Observer, Disposable {
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
      guard let defaultValue else { return downstream.receive(.error(ElementAtSource.outOfRangeError)) }
      downstream.receive(.next(defaultValue))
      downstream.receive(.completed)
    }
  }

  func dispose() {
    link.dispose()
  }
}
