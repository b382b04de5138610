/// `bufferTime: d` (+ `every: e`, `max: n`): the values of each period of `d` frames as a list,
/// empty lists included (RxJS 7 `bufferTime(d, e, n)`).
///
/// Without `every` a new buffer opens when the previous one is sent; with it a buffer opens every
/// `e` frames (so buffers may overlap or leave gaps). A buffer reaching `max` values is sent at
/// once. On completion the open buffers are sent, partial ones included, then completed; an error
/// drops them.
///
/// ```
/// source:         -a-b---c-|
/// bufferTime: 3   ---x--y--(z|)   (x = [a, b], y = [], z = [c]: b at frame 3 comes before the
///                                  timer scheduled at subscription, by the FIFO rule)
/// ```
public final class BufferTimeSource: Source {
  private let upstream: any Source
  fileprivate let span: Int
  fileprivate let every: Int?
  fileprivate let max: Int
  fileprivate let owner: NodeLabel
  fileprivate unowned let runtime: Runtime

  public init(
    _ upstream: any Source, span: Int, every: Int?, max: Int?, owner: NodeLabel, runtime: Runtime
  ) {
    self.upstream = upstream
    self.span = span
    self.every = every
    self.max = max ?? .max
    self.owner = owner
    self.runtime = runtime
  }

  public func subscribe(_ observer: any Observer) -> any Disposable {
    let buffer = BufferTimeObserver(downstream: observer, source: self)
    if let every {
      buffer.creation.schedule(after: every, argument: -1, on: runtime, owner: owner, target: buffer)
    }
    buffer.open()
    buffer.link.attach(upstream.subscribe(buffer))
    return buffer
  }
}

private final class BufferTimeObserver: Observer, Disposable, TimerTarget {
  let downstream: any Observer
  let source: BufferTimeSource
  let link = UpstreamLink()
  let creation = TimerSlot()
  let closing = TimerSlot()
  /// Open buffers, oldest first, each with the id its closing timer carries.
  var buffers: [(id: Int, values: [Value])] = []
  var nextID = 0
  var isDone = false

  init(downstream: any Observer, source: BufferTimeSource) {
    self.downstream = downstream
    self.source = source
  }

  func open() {
    guard !isDone else { return }
    var list = buffers.take()  // changed moved out (Exclusivity.swift)
    list.append((nextID, []))
    swap(&list, &buffers)
    closing.schedule(after: source.span, argument: nextID, on: source.runtime, owner: source.owner, target: self)
    nextID += 1
  }

  /// Sends buffer `index` and, without `every`, opens the next one.
  private func emit(_ index: Int) {
    var list = buffers.take()  // changed moved out (Exclusivity.swift)
    let values = list.remove(at: index).values
    swap(&list, &buffers)
    downstream.receive(.next(.list(values)))
    if source.every == nil { open() }
  }

  func timerFired(_ argument: Int) {
    guard !isDone, !source.runtime.isFailed else { return }
    if argument < 0 {
      open()
      if !isDone, let every = source.every {
        creation.schedule(after: every, argument: -1, on: source.runtime, owner: source.owner, target: self)
      }
    } else if let index = buffers.firstIndex(where: { $0.id == argument }) {
      emit(index)
    }
  }

  func receive(_ event: Event) {
    guard !link.isFinished else { return }
    switch event {
    case .next(let value):
      let ids = buffers.map(\.id)
      for id in ids {
        guard !isDone, let index = buffers.firstIndex(where: { $0.id == id }) else { continue }
        var list = buffers.take()  // changed moved out (Exclusivity.swift)
        list[index].values.append(value)
        let isFull = list[index].values.count >= source.max
        swap(&list, &buffers)
        if isFull { emit(index) }
      }
    case .error:
      stop()
      link.finish()
      downstream.receive(event)
    case .completed:
      let open = buffers
      stop()
      link.finish()
      for buffer in open { downstream.receive(.next(.list(buffer.values))) }
      downstream.receive(.completed)
    }
  }

  private func stop() {
    isDone = true
    creation.cancel()
    closing.cancel()
    _ = buffers.take()
  }

  func dispose() {
    stop()
    link.dispose()
  }
}
