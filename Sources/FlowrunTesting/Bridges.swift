import FlowrunCore
import FlowrunScenario
public import OpenCombineShim

/// A Combine publisher as a flowrun source: each subscription subscribes to the publisher and
/// hands its events, converted, to the observer.
final class PublisherSource<P: Publisher>: Source where P.Output: Encodable {
  let publisher: P
  let name: String
  let bound: BoundRun
  private let write = FlowValues.writer(of: P.Output.self)

  init(publisher: P, name: String, bound: BoundRun) {
    self.publisher = publisher
    self.name = name
    self.bound = bound
  }

  func subscribe(_ observer: any Observer) -> any Disposable {
    let subscription = CancellableSubscription()
    let name = self.name
    let bound = self.bound
    let write = self.write
    subscription.cancellable = publisher.sink(
      receiveCompletion: { completion in
        switch completion {
        case .finished: observer.receive(.completed)
        case .failure(let error): observer.receive(.error(errorValue(error)))
        }
      },
      receiveValue: { value in
        do throws(ConversionError) {
          observer.receive(.next(try write(value)))
        } catch {
          bound.fail(
            "'\(name)': the code sent a Swift \(P.Output.self) that does not convert: \(error.reason)", at: name)
        }
      })
    return subscription
  }
}

/// Ends a Combine subscription.
final class CancellableSubscription: Disposable {
  var cancellable: AnyCancellable?

  func dispose() {
    cancellable?.cancel()
    cancellable = nil
  }
}

/// What the code sends by hand: what it sends before anything subscribed is kept, and given
/// to every subscriber that comes before the next event (the bound property, the expectation
/// and an invariant, all at setup); then events are delivered live to every subscriber.
final class BufferedSource: Source {
  private var early: [Event] = []
  /// Whether an event was delivered live (the early events are no longer given out).
  private var isLive = false
  private var observers: [ObjectIdentifier: any Observer] = [:]
  private var order: [ObjectIdentifier] = []
  private var terminal: Event?

  func subscribe(_ observer: any Observer) -> any Disposable {
    let id = ObjectIdentifier(observer)
    if !isLive {
      for event in early { observer.receive(event) }
      if early.last?.isTerminal == true { return NoDisposable.shared }
    } else if let terminal {
      observer.receive(terminal)
      return NoDisposable.shared
    }
    observers[id] = observer
    order.append(id)
    return BufferedSubscription(source: self, id: id)
  }

  func receive(_ event: Event) {
    guard terminal == nil else { return }
    if event.isTerminal { terminal = event }
    if order.isEmpty, !isLive {
      early.append(event)
      return
    }
    isLive = true
    early = []
    for id in order {
      observers[id]?.receive(event)
    }
  }

  fileprivate func remove(_ id: ObjectIdentifier) {
    observers[id] = nil
    order.removeAll { $0 == id }
  }
}

private final class BufferedSubscription: Disposable {
  weak var source: BufferedSource?
  let id: ObjectIdentifier

  init(source: BufferedSource, id: ObjectIdentifier) {
    self.source = source
    self.id = id
  }

  func dispose() {
    source?.remove(id)
  }
}

/// The answer to one call of a scenario's service: a cold publisher that calls the service
/// when subscribed and delivers its response in virtual time, honouring demand.
public struct ServicePublisher<Output: Decodable>: Publisher {
  public typealias Failure = ServiceError

  let service: FlowService<Output>
  let input: () throws(ConversionError) -> Value

  /// Calls the service when `subscriber` subscribes; the answer comes at the frames the
  /// scenario's responder gives, as much as the subscriber demands.
  public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == ServiceError {
    let subscription = ServiceSubscription(
      subscriber: subscriber, name: service.name, bound: service.bound, read: service.read)
    subscriber.receive(subscription: subscription)
    guard service.isDeclared else { return }
    do throws(ConversionError) {
      let request = try input()
      guard let response = service.bound.call(service.name, with: request) else { return }
      subscription.onEnd = service.inFlight()
      subscription.start(response)
    } catch {
      service.bound.fail(
        "'\(service.name)' was called with a request that does not convert: \(error.reason)", at: service.name)
    }
  }
}

/// Relays a service response to a Combine subscriber, keeping what arrives before it is asked
/// for.
final class ServiceSubscription<S: Subscriber>: Subscription, Observer, @unchecked Sendable
where S.Input: Decodable, S.Failure == ServiceError {
  private var subscriber: S?
  private let name: String
  private let bound: BoundRun
  private var demand = Subscribers.Demand.none
  private var buffer: [Event] = []
  private var upstream: (any Disposable)?
  private let read: (Value) throws(ConversionError) -> S.Input
  /// Notes the end of the call (``PendingWork``).
  var onEnd: (() -> Void)?

  init(subscriber: S, name: String, bound: BoundRun, read: @escaping (Value) throws(ConversionError) -> S.Input) {
    self.subscriber = subscriber
    self.name = name
    self.bound = bound
    self.read = read
  }

  func start(_ response: any Source) {
    guard subscriber != nil else { return ended() }
    let disposable = response.subscribe(self)
    if subscriber == nil { disposable.dispose() } else { upstream = disposable }
  }

  func request(_ more: Subscribers.Demand) {
    demand += more
    drain()
  }

  func cancel() {
    subscriber = nil
    buffer = []
    upstream?.dispose()
    upstream = nil
    ended()
  }

  private func ended() {
    onEnd?()
    onEnd = nil
  }

  func receive(_ event: Event) {
    guard subscriber != nil else { return }
    buffer.append(event)
    drain()
  }

  private func drain() {
    while let subscriber, let event = buffer.first {
      switch event {
      case .next(let value):
        guard demand > 0 else { return }
        buffer.removeFirst()
        demand -= 1
        do throws(ConversionError) {
          demand += subscriber.receive(try read(value))
        } catch {
          bound.fail(
            "'\(name)' answered \(value), which does not convert to Swift type \(S.Input.self): \(error.reason)",
            at: name)
          return
        }
      case .error(let value):
        finish()
        subscriber.receive(completion: .failure(ServiceError(value)))
      case .completed:
        finish()
        subscriber.receive(completion: .finished)
      }
    }
  }

  private func finish() {
    subscriber = nil
    buffer = []
    upstream = nil
    ended()
  }
}
