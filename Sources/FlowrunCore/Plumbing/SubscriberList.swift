/// The subscribers of a shared node (a hot marble, a subject, a property), in subscription
/// order.
///
/// Read on every event, changed only when someone subscribes or leaves: the list is changed
/// moved out of its property (Exclusivity.swift), so that reading it needs no dynamic
/// exclusivity check.
final class SubscriberList<Subscriber: AnyObject> {
  private var items: [Subscriber] = []

  /// The subscribers now. A snapshot: one added while an event is delivered to it does not get
  /// that event, and one removed meanwhile is still in it (subscribers say whether they are
  /// still active).
  var snapshot: [Subscriber] { items }

  func append(_ subscriber: Subscriber) {
    var list = items.take()
    list.append(subscriber)
    swap(&list, &items)
  }

  /// Removes `subscriber` (by identity).
  func remove(_ subscriber: Subscriber) {
    var list = items.take()
    list.removeAll { $0 === subscriber }
    swap(&list, &items)
  }

  /// Removes every subscriber and returns them, in order.
  func removeAll() -> [Subscriber] {
    items.take()
  }
}
