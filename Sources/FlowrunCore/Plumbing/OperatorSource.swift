/// One subscription of an operator: made for each subscriber by an ``OperatorSource``, it
/// receives upstream's events, sends its own downstream, and is the subscriber's disposable.
///
/// An operator file declares its subscription (a small final class, as ReactiveSwift's
/// observers are) and a method on ``Source`` that lifts it over upstream:
///
/// ```swift
/// extension Source {
///   public func map(_ transform: @escaping Transform) -> any Source {
///     OperatorSource(self) { MapObserver(downstream: $0, transform: transform) }
///   }
/// }
/// ```
public protocol OperatorSubscription: Disposable {
  /// Subscribes to `upstream` (and to the operator's other inputs, in the operator's order).
  func start(_ upstream: any Source)
}

/// The subscription of an operator with one input, which it observes itself through `link`.
public protocol UnaryOperator: OperatorSubscription, Observer {
  var link: UpstreamLink { get }
}

extension UnaryOperator {
  public func start(_ upstream: any Source) {
    link.attach(upstream.subscribe(self))
  }
}

/// An operator applied to `upstream` (ReactiveSwift's `lift`): every subscription makes a new
/// `Subscription` for its subscriber and starts it.
///
/// The class is generic over the subscription's type, so that subscribing calls it directly; the
/// events themselves go from upstream to the subscription and on downstream without passing
/// through here.
public final class OperatorSource<Subscription: OperatorSubscription>: Source {
  private let upstream: any Source
  private let make: (_ downstream: any Observer) -> Subscription

  public init(_ upstream: any Source, _ make: @escaping (_ downstream: any Observer) -> Subscription) {
    self.upstream = upstream
    self.make = make
  }

  public func subscribe(_ observer: any Observer) -> any Disposable {
    let subscription = make(observer)
    subscription.start(upstream)
    return subscription
  }
}
