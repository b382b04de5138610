/// swift-async-algorithms' `chunks(ofCount:or:)` and `chunked(by:)` with a signal
/// (`AsyncChunksOfCountOrSignalSequence.swift`, `Iterator.next()`): values are collected into a
/// list, sent when it holds `count` values or when the signal sends while it is not empty (an
/// empty chunk is never sent); when the base finishes, the partial chunk is sent, then the
/// completion; a failure of the base drops it. The signal's end changes nothing. In the same
/// frame the base comes before the signal (the package's inputs, top to bottom).
///
/// ```
/// base:     AB-A-ABCDEFGH-|
/// signal:   --X-X--------X|
/// chunks    --x-y--------z|   (x = [A, B], y = [A], z = [A … H])
/// ```
public final class AsyncChunksSource: Source {
  fileprivate let base: any Source
  fileprivate let signal: (any Source)?
  fileprivate let count: Int?

  /// `count`: the chunk's size (nil: only the signal ends a chunk); `signal`: nil for
  /// `chunks(ofCount:)` alone.
  public init(_ base: any Source, count: Int?, signal: (any Source)?) {
    self.base = base
    self.signal = signal
    self.count = count
  }

  public func subscribe(_ observer: any Observer) -> any Disposable {
    let subscription = AsyncChunksSubscription(source: self, observer: observer)
    subscription.start()
    return subscription
  }
}

private final class AsyncChunksSubscription: MultiInputSink, Disposable {
  private let source: AsyncChunksSource
  private let observer: any Observer
  private let links = InputLinks(count: 2)
  private var chunk: [Value] = []
  private var isDone = false

  init(source: AsyncChunksSource, observer: any Observer) {
    self.source = source
    self.observer = observer
  }

  func start() {
    links.attach(source.base.subscribe(InputObserver(sink: self, index: 0)), to: 0)
    guard !isDone, let signal = source.signal else { return }
    links.attach(signal.subscribe(InputObserver(sink: self, index: 1)), to: 1)
  }

  func receive(_ event: Event, from input: Int) {
    guard !isDone else { return }
    switch (input, event) {
    case (0, .next(let value)):
      chunk.append(value)
      if chunk.count == source.count { send() }
    case (0, .error):
      finish(with: event)
    case (0, .completed):
      if !chunk.isEmpty { send() }
      finish(with: event)
    case (_, .next):
      if !chunk.isEmpty { send() }
    default:
      // The signal's end or failure: the chunks go on by count (the package's signal is a
      // non-throwing sequence whose end is not a terminal event of the merge).
      links.finish(input)
    }
  }

  private func send() {
    let values = chunk.take()
    observer.receive(.next(.list(values)))
  }

  private func finish(with event: Event) {
    isDone = true
    links.finish(0)
    links.disposeAll()
    observer.receive(event)
  }

  func dispose() {
    isDone = true
    links.disposeAll()
  }
}
