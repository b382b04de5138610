import OrderedCollections

/// `zip`: pairs the inputs' values by index.
///
/// Emits when every input has an unpaired value; completes as soon as an input that completed
/// has no buffered value left (RxJS 7), and fails on the first error.
public final class ZipSource: Source {
  fileprivate let inputs: [any Source]
  fileprivate let keys: [String]?

  public init(_ inputs: [any Source], keys: [String]? = nil) {
    self.inputs = inputs
    self.keys = keys
  }

  public func subscribe(_ observer: any Observer) -> any Disposable {
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
      buffers[input].append(value)
      guard buffers.indices.allSatisfy({ buffered($0) > 0 }) else { return }
      var values: [Value] = []
      values.reserveCapacity(buffers.count)
      for index in buffers.indices {
        values.append(buffers[index][heads[index]])
        heads[index] += 1
        if heads[index] == buffers[index].count {
          buffers[index].removeAll(keepingCapacity: true)
          heads[index] = 0
        }
      }
      if let keys = source.keys {
        observer.receive(.next(.map(OrderedDictionary(uniqueKeys: keys, values: values))))
      } else {
        observer.receive(.next(.list(values)))
      }
      if !isDone, buffers.indices.contains(where: { completed[$0] && buffered($0) == 0 }) {
        finish(with: .completed)
      }
    case .error:
      links.finish(input)
      finish(with: event)
    case .completed:
      links.finish(input)
      completed[input] = true
      if buffered(input) == 0 { finish(with: .completed) }
    }
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
