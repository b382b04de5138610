#if !canImport(Combine)
  import OpenCombineShim

  // OpenCombine 0.14 has no `combineLatest` (nor `merge`): this is a minimal one for Linux
  // only, following Apple's documented behaviour — nothing until every upstream has sent, then
  // the latest of each on every value; finished when all upstreams have finished, failed at the
  // first failure. On Apple platforms the view models use Combine's own, so the Linux run checks
  // this implementation, not Apple's.

  extension Publisher {
    /// The latest values of `self` and `other`, each time either sends once both have sent.
    public func combineLatest<Other: Publisher>(_ other: Other) -> CombineLatestPublisher<Self, Other>
    where Other.Failure == Failure {
      CombineLatestPublisher(a: self, b: other)
    }

    /// Three publishers combined, as Combine's `combineLatest(_:_:)`.
    public func combineLatest<B: Publisher, C: Publisher>(_ b: B, _ c: C) -> AnyPublisher<
      (Output, B.Output, C.Output), Failure
    > where B.Failure == Failure, C.Failure == Failure {
      combineLatest(b).combineLatest(c).map { ($0.0, $0.1, $1) }.eraseToAnyPublisher()
    }
  }

  public struct CombineLatestPublisher<A: Publisher, B: Publisher>: Publisher where A.Failure == B.Failure {
    public typealias Output = (A.Output, B.Output)
    public typealias Failure = A.Failure

    let a: A
    let b: B

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let state = CombineLatestState<A.Output, B.Output, S>(downstream: subscriber)
      subscriber.receive(subscription: state)
      a.subscribe(
        AnySubscriber(
          receiveSubscription: { state.attach($0, side: 0) },
          receiveValue: { state.receiveA($0) },
          receiveCompletion: { state.complete($0) }))
      b.subscribe(
        AnySubscriber(
          receiveSubscription: { state.attach($0, side: 1) },
          receiveValue: { state.receiveB($0) },
          receiveCompletion: { state.complete($0) }))
    }
  }

  final class CombineLatestState<AOutput, BOutput, S: Subscriber>: Subscription
  where S.Input == (AOutput, BOutput) {
    private var downstream: S?
    private var upstreams: [(any Subscription)?] = [nil, nil]
    private var a: AOutput?
    private var b: BOutput?
    private var demand = Subscribers.Demand.none
    private var pending = false
    private var finished = 0

    init(downstream: S) {
      self.downstream = downstream
    }

    func attach(_ subscription: any Subscription, side: Int) {
      guard downstream != nil else { return subscription.cancel() }
      upstreams[side] = subscription
      subscription.request(.unlimited)
    }

    func receiveA(_ value: AOutput) -> Subscribers.Demand {
      a = value
      send()
      return .none
    }

    func receiveB(_ value: BOutput) -> Subscribers.Demand {
      b = value
      send()
      return .none
    }

    private func send() {
      guard let a, let b, let downstream else { return }
      guard demand > 0 else {
        pending = true
        return
      }
      pending = false
      demand -= 1
      demand += downstream.receive((a, b))
    }

    func complete(_ completion: Subscribers.Completion<S.Failure>) {
      guard let downstream else { return }
      switch completion {
      case .failure:
        cancel()
        downstream.receive(completion: completion)
      case .finished:
        finished += 1
        guard finished == 2 else { return }
        self.downstream = nil
        downstream.receive(completion: .finished)
      }
    }

    func request(_ more: Subscribers.Demand) {
      demand += more
      if pending { send() }
    }

    func cancel() {
      downstream = nil
      for upstream in upstreams { upstream?.cancel() }
      upstreams = [nil, nil]
    }
  }
#endif
