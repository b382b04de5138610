/// A source made anew for each subscriber (Combine's `Deferred`, OpenCombine
/// `Publishers/Deferred.swift` `receive(subscriber:)` calls `createPublisher()` per subscriber;
/// also `measureInterval`, which starts measuring at each subscription).
///
/// ```
/// Deferred: [{ Future: [{ call: load }] }]   # the call runs at each subscription, not at setup
/// ```
public final class DeferredSource: Source {
  private let make: () -> any Source

  public init(_ make: @escaping () -> any Source) {
    self.make = make
  }

  public func subscribe(_ observer: any Observer) -> any Disposable {
    make().subscribe(observer)
  }
}
