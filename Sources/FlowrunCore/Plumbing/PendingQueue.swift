/// Items waiting for their turn, oldest first (`delay`'s values, `observeOn`'s events):
/// appended at the back, taken from the front.
///
/// The buffer is changed moved out of the property (Exclusivity.swift) and reused once drained,
/// so a steady stream through the queue allocates nothing.
final class PendingQueue<Element> {
  private var items: [Element] = []
  /// The oldest item's index in `items`.
  private var head = 0

  var isEmpty: Bool { head == items.count }

  func append(_ item: Element) {
    var list = items.take()
    list.append(item)
    swap(&list, &items)
  }

  /// The oldest item, left in place; nil when the queue is empty.
  var first: Element? { head < items.count ? items[head] : nil }

  /// The oldest item, removed; nil when the queue is empty.
  func removeFirst() -> Element? {
    guard head < items.count else { return nil }
    let item = items[head]
    head += 1
    if head == items.count {
      var list = items.take()
      list.removeAll(keepingCapacity: true)
      swap(&list, &items)
      head = 0
    }
    return item
  }

  /// Drops every item.
  func removeAll() {
    _ = items.take()
    head = 0
  }
}
