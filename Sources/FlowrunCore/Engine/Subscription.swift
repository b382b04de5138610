/// The link from an operator to its upstream subscription.
///
/// Upstream may deliver (even terminate) before `subscribe` returns its disposable; the link
/// remembers whether the operator already finished, and disposes a late-arriving upstream at
/// once. It is a class so that an operator can call out (deliver, dispose) while holding it
/// without overlapping accesses.
public final class UpstreamLink {
  private var disposable: (any Disposable)?
  /// Internal storage, so the optimiser sees every access and needs no dynamic exclusivity check.
  private var finished = false
  public var isFinished: Bool { finished }

  public init() {}

  /// Stores the disposable `subscribe` returned, disposing it if the operator already finished.
  public func attach(_ upstream: any Disposable) {
    if finished {
      upstream.dispose()
    } else {
      disposable = upstream
    }
  }

  /// Marks the operator finished because upstream terminated; upstream needs no disposal.
  public func finish() {
    finished = true
    disposable = nil
  }

  /// Marks the operator finished and hands back upstream for disposal after the terminal event
  /// was forwarded (RxJS order: downstream hears the end first, then upstream is unsubscribed).
  public func detach() -> (any Disposable)? {
    finished = true
    let upstream = disposable
    disposable = nil
    return upstream
  }

  /// Marks the operator finished and disposes upstream.
  public func dispose() {
    detach()?.dispose()
  }

  /// Forwards `event` downstream unless the operator finished; a terminal event finishes it
  /// (the pass-through of `startWith`, `delaySubscription`, a fallback …).
  @inline(__always)
  public func forward(_ event: Event, to downstream: any Observer) {
    guard !finished else { return }
    if event.isTerminal { finish() }
    downstream.receive(event)
  }

  /// Ends the operator with `event`: forwards it downstream, then disposes upstream.
  ///
  /// Upstream stays held while the event is delivered, so that a downstream that disposes this
  /// subscription when it hears the end (`concat` before it subscribes its next input, `retry`
  /// before it subscribes again) tears down the whole chain first, as RxJS's `Subscriber`
  /// does: a `share` upstream then sees its last subscriber leave before the next one arrives.
  public func end(with event: Event, to downstream: any Observer) {
    finished = true
    downstream.receive(event)
    dispose()
  }
}

/// A disposable that runs a closure once.
public final class ActionDisposable: Disposable {
  private var action: (() -> Void)?

  public init(_ action: @escaping () -> Void) {
    self.action = action
  }

  public func dispose() {
    let action = self.action
    self.action = nil
    action?()
  }
}

/// A disposable that does nothing, for sources that finish inside `subscribe`.
public final class NoDisposable: Disposable, Sendable {
  public static let shared = NoDisposable()
  public func dispose() {}
}

/// Disposes several disposables together.
public final class CompositeDisposable: Disposable {
  private var items: [any Disposable] = []
  public var isDisposed: Bool { disposed }
  private var disposed = false

  public init() {}

  public func add(_ item: any Disposable) {
    if disposed {
      item.dispose()
    } else {
      var list = items.take()  // changed moved out (Exclusivity.swift)
      list.append(item)
      swap(&list, &items)
    }
  }

  public func dispose() {
    guard !disposed else { return }
    disposed = true
    for item in items.take() { item.dispose() }
  }
}

/// The subscription log of a `hot`/`cold` source or a subject: one entry per subscription.
public final class SubscriptionLog {
  public struct Entry: Equatable, Sendable {
    public var subscribed: Int
    public var unsubscribed: Int?

    public init(subscribed: Int, unsubscribed: Int?) {
      self.subscribed = subscribed
      self.unsubscribed = unsubscribed
    }
  }

  /// The subscriptions so far, in order.
  public var entries: [Entry] { storage }
  // Changed moved out of the property (Exclusivity.swift).
  private var storage: [Entry] = []

  public init() {}

  /// Records a subscription at `frame` and returns its index.
  public func subscribe(at frame: Int) -> Int {
    var entries = storage.take()
    entries.append(Entry(subscribed: frame, unsubscribed: nil))
    swap(&entries, &storage)
    return storage.count - 1
  }

  /// Records the end of subscription `index` at `frame`, once.
  public func unsubscribe(_ index: Int, at frame: Int) {
    guard storage[index].unsubscribed == nil else { return }
    var entries = storage.take()
    entries[index].unsubscribed = frame
    swap(&entries, &storage)
  }
}

/// The error value an operator step fails with: a thrown expression error, `throw(v)`, or a
/// predicate that did not return a Bool.
public struct StepFailure: Error {
  public var value: Value

  public init(_ value: Value) {
    self.value = value
  }
}

/// A per-value transform: the value and its zero-based index in this subscription.
public typealias Transform = (Value, Int) throws(StepFailure) -> Value
/// A per-value test; returns a Bool or fails.
public typealias Predicate = (Value, Int) throws(StepFailure) -> Bool
/// Combines the accumulator with a value and its index (`scan`, `reduce`).
public typealias Accumulate = (Value, Value, Int) throws(StepFailure) -> Value
