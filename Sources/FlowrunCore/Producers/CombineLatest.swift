import OrderedCollections

/// When a combination (`combineLatest`, `zip`) completes: RxJS 7's rule, RxSwift's, or
/// swift-async-algorithms' (`combineLatest` only; its `zip` is RxJS's with pulled inputs).
public enum CombiningRule: Sendable {
  case standard, rxSwift, async
}

/// `combineLatest`: once every input has sent, each value of any input emits the latest of all.
///
/// The list form emits lists, the keyed form maps (keys in written order). Inputs are subscribed
/// left to right. It completes when every input has completed (RxJS 7), and fails on the first
/// error.
///
/// `rule: .rxSwift` (RxSwift `Observables/CombineLatest.swift`, `CombineLatestSink.next(_:)`
/// and `CombineLatest+Collection.swift`): a value that cannot be combined because every other
/// input has finished (one of them without a value) completes it at once, and `combineLatest`
/// of no input sends the empty combination, then completes.
///
/// `rule: .async` (swift-async-algorithms `CombineLatest/CombineLatestStateMachine.swift`,
/// `upstreamFinished(baseIndex:)` in the `combining` state): an input that finishes before its
/// first value ends it at once; after that it ends when every input has finished. Its bases
/// are pulled when its consumer pulls (`AsyncCombineLatestSubscription`).
public final class CombineLatestSource: Source {
  let inputs: [any Source]
  let keys: [String]?
  let rule: CombiningRule
  /// The runtime whose tie-breaker orders the bases resumed together (`rule: .async`).
  weak var runtime: Runtime?

  /// `keys`, when given, name the inputs in order and make the values maps. `runtime`, under
  /// `rule: .async`, lets `explore --orders` vary which resumed base runs first.
  public init(_ inputs: [any Source], keys: [String]? = nil, rule: CombiningRule = .standard, runtime: Runtime? = nil) {
    self.inputs = inputs
    self.keys = keys
    self.rule = rule
    self.runtime = runtime
  }

  public func subscribe(_ observer: any Observer) -> any Disposable {
    if rule == .async, !inputs.isEmpty {
      let pulled = AsyncCombineLatestSubscription(source: self, observer: observer)
      pulled.start()
      return pulled
    }
    let subscription = CombineLatestSubscription(source: self, observer: observer)
    subscription.start()
    return subscription
  }
}

private final class CombineLatestSubscription: MultiInputSink, Disposable {
  private let source: CombineLatestSource
  private let observer: any Observer
  private let links: InputLinks
  private var latest: [Value]
  private var hasValue: [Bool]
  private var missing: Int
  private var active: Int
  private var isDone = false

  init(source: CombineLatestSource, observer: any Observer) {
    self.source = source
    self.observer = observer
    let count = source.inputs.count
    links = InputLinks(count: count)
    latest = Array(repeating: .null, count: count)
    hasValue = Array(repeating: false, count: count)
    missing = count
    active = count
  }

  func start() {
    if source.inputs.isEmpty {
      isDone = true
      if source.rule == .rxSwift { observer.receive(.next(combined())) }
      observer.receive(.completed)
      return
    }
    for (index, input) in source.inputs.enumerated() {
      guard !isDone else { break }
      links.attach(input.subscribe(InputObserver(sink: self, index: index)), to: index)
    }
  }

  func receive(_ event: Event, from input: Int) {
    guard !isDone else { return }
    switch event {
    case .next(let value):
      // Changed moved out of the properties (Exclusivity.swift).
      var values = latest.take()
      values[input] = value
      swap(&values, &latest)
      if missing > 0 {
        var flags = hasValue.take()
        if !flags[input] {
          flags[input] = true
          missing -= 1
        }
        swap(&flags, &hasValue)
      }
      if missing == 0 {
        observer.receive(.next(combined()))
      } else if source.rule == .rxSwift, links.othersFinished(besides: input) {
        isDone = true
        links.disposeAll()
        observer.receive(.completed)
      }
    case .error:
      isDone = true
      links.finish(input)
      links.disposeAll()
      observer.receive(event)
    case .completed:
      links.finish(input)
      active -= 1
      if source.rule == .async, !hasValue[input] {
        isDone = true
        links.disposeAll()
        observer.receive(.completed)
      } else if active == 0 {
        isDone = true
        observer.receive(.completed)
      }
    }
  }

  private func combined() -> Value {
    guard let keys = source.keys else { return .list(latest) }
    return .map(OrderedDictionary(uniqueKeys: keys, values: latest))
  }

  func dispose() {
    isDone = true
    links.disposeAll()
  }
}
