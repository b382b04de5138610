/// `just`, `of`, `empty`, `never` and `fail`: events delivered synchronously at subscription.
public final class ImmediateSource: Source {
  private let events: [Event]

  public init(events: [Event]) {
    self.events = events
  }

  public static func just(_ value: Value) -> ImmediateSource { .init(events: [.next(value), .completed]) }
  public static func of(_ values: [Value]) -> ImmediateSource {
    .init(events: values.map(Event.next) + [.completed])
  }
  public static var empty: ImmediateSource { .init(events: [.completed]) }
  public static var never: ImmediateSource { .init(events: []) }
  public static func fail(_ error: Value) -> ImmediateSource { .init(events: [.error(error)]) }

  public func subscribe(_ observer: any Observer) -> any Disposable {
    let subscription = Flag()
    for event in events {
      guard !subscription.isDisposed else { break }
      observer.receive(event)
    }
    return subscription
  }

  private final class Flag: Disposable {
    var isDisposed = false
    func dispose() { isDisposed = true }
  }
}
