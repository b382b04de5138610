import OrderedCollections

/// `zip`: pairs the inputs' values by index.
///
/// Emits when every input has an unpaired value; completes as soon as an input that completed
/// has no buffered value left (RxJS 7), and fails on the first error.
///
/// `rule: .rxSwift` (RxSwift `Observables/Zip+Collection.swift`, `ZipCollectionTypeSink`;
/// `Zip.swift` `ZipSink.done(_:)`): it completes when every input has completed, or when a value
/// arrives that cannot be paired while every other input has completed; an input that completes
/// with an empty buffer does not end it by itself.
///
/// `rule: .async` (swift-async-algorithms `Zip/ZipStateMachine.swift`): the zip pulls one value
/// from each base per pull of its consumer (`AsyncZipSubscription`).
public final class ZipSource: Source {
  let inputs: [any Source]
  let keys: [String]?
  let rule: CombiningRule

  public init(_ inputs: [any Source], keys: [String]? = nil, rule: CombiningRule = .standard) {
    self.inputs = inputs
    self.keys = keys
    self.rule = rule
  }

  public func subscribe(_ observer: any Observer) -> any Disposable {
    if rule == .async, !inputs.isEmpty {
      let pulled = AsyncZipSubscription(source: self, observer: observer)
      pulled.start()
      return pulled
    }
    let subscription = ZipSubscription(source: self, observer: observer)
    subscription.start()
    return subscription
  }
}

private final class ZipSubscription: MultiInputSink, Disposable {
  private let source: ZipSource
  private let observer: any Observer
  private let links: InputLinks
  private var buffers: [[Value]]
  private var heads: [Int]
  private var completed: [Bool]
  private var isDone = false

  init(source: ZipSource, observer: any Observer) {
    self.source = source
    self.observer = observer
    let count = source.inputs.count
    links = InputLinks(count: count)
    buffers = Array(repeating: [], count: count)
    heads = Array(repeating: 0, count: count)
    completed = Array(repeating: false, count: count)
  }

  func start() {
    if source.inputs.isEmpty {
      isDone = true
      observer.receive(.completed)
      return
    }
    for (index, input) in source.inputs.enumerated() {
      guard !isDone else { break }
      links.attach(input.subscribe(InputObserver(sink: self, index: index)), to: index)
    }
  }

  private func buffered(_ input: Int) -> Int { buffers[input].count - heads[input] }

  func receive(_ event: Event, from input: Int) {
    guard !isDone else { return }
    switch event {
    case .next(let value):
      // The queues are changed moved out of the properties (Exclusivity.swift).
      var queues = buffers.take()
      var positions = heads.take()
      queues[input].append(value)
      let row = Self.takeRow(&queues, &positions)
      swap(&queues, &buffers)
      swap(&positions, &heads)
      guard let row else {
        if source.rule == .rxSwift, links.othersFinished(besides: input) { finish(with: .completed) }
        return
      }
      if let keys = source.keys {
        observer.receive(.next(.map(OrderedDictionary(uniqueKeys: keys, values: row))))
      } else {
        observer.receive(.next(.list(row)))
      }
      if !isDone, source.rule != .rxSwift,
        buffers.indices.contains(where: { completed[$0] && buffered($0) == 0 })
      {
        finish(with: .completed)
      }
    case .error:
      links.finish(input)
      finish(with: event)
    case .completed:
      links.finish(input)
      var flags = completed.take()  // changed moved out (Exclusivity.swift)
      flags[input] = true
      swap(&flags, &completed)
      switch source.rule {
      case .standard, .async: if buffered(input) == 0 { finish(with: .completed) }
      case .rxSwift: if !completed.contains(false) { finish(with: .completed) }
      }
    }
  }

  /// Takes the oldest value of every queue, or nothing when one of them is empty.
  private static func takeRow(_ queues: inout [[Value]], _ heads: inout [Int]) -> [Value]? {
    guard queues.indices.allSatisfy({ queues[$0].count - heads[$0] > 0 }) else { return nil }
    var values: [Value] = []
    values.reserveCapacity(queues.count)
    for index in queues.indices {
      values.append(queues[index][heads[index]])
      heads[index] += 1
      if heads[index] == queues[index].count {
        queues[index].removeAll(keepingCapacity: true)
        heads[index] = 0
      }
    }
    return values
  }

  private func finish(with event: Event) {
    isDone = true
    links.disposeAll()
    observer.receive(event)
  }

  func dispose() {
    isDone = true
    links.disposeAll()
  }
}
