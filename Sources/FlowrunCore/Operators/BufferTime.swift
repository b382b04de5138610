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
extension Source {
  /// Buffers of `span` frames (the timing's duration), a new one every `every` frames when
  /// given, sent early at `max` values.
  /// Without `sendsEmpty` (Combine's `collect(.byTime)` / `.byTimeOrCount`) an empty buffer
  /// is not sent.
  public func bufferTime(_ span: Timing, every: Int?, max: Int?, sendsEmpty: Bool = true) -> any Source {
    OperatorSource(self) {
      BufferTimeObserver(downstream: $0, timing: span, every: every, max: max ?? .max, sendsEmpty: sendsEmpty)
    }
  }
}

private final class BufferTimeObserver: UnaryOperator, TimerTarget {
  let downstream: any Observer
  let every: Int?
  let max: Int
  let sendsEmpty: Bool
  let link = UpstreamLink()
  /// Opens a buffer every `every` frames (with `every`).
  let creation: TimerSlot
  /// Sends each buffer `span` frames after it opened.
  let closing: TimerSlot
  /// Open buffers, oldest first, each with the id its closing timer carries.
  var buffers: [(id: Int, values: [Value])] = []
  var nextID = 0
  var isDone = false

  init(downstream: any Observer, timing: Timing, every: Int?, max: Int, sendsEmpty: Bool) {
    self.downstream = downstream
    self.every = every
    self.max = max
    self.sendsEmpty = sendsEmpty
    creation = TimerSlot(Timing(every ?? 0, owner: timing.owner, runtime: timing.runtime))
    closing = TimerSlot(timing)
  }

  func start(_ upstream: any Source) {
    if every != nil { creation.schedule(argument: -1, target: self) }
    open()
    link.attach(upstream.subscribe(self))
  }

  func open() {
    guard !isDone else { return }
    var list = buffers.take()  // changed moved out (Exclusivity.swift)
    list.append((nextID, []))
    swap(&list, &buffers)
    closing.schedule(argument: nextID, target: self)
    nextID += 1
  }

  /// Sends buffer `index` and, without `every`, opens the next one.
  private func emit(_ index: Int) {
    var list = buffers.take()  // changed moved out (Exclusivity.swift)
    let values = list.remove(at: index).values
    swap(&list, &buffers)
    if sendsEmpty || !values.isEmpty { downstream.receive(.next(.list(values))) }
    if every == nil { open() }
  }

  func timerFired(_ argument: Int) {
    guard !isDone else { return }
    if argument < 0 {
      open()
      if !isDone, every != nil { creation.schedule(argument: -1, target: self) }
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
        let isFull = list[index].values.count >= max
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
      for buffer in open where sendsEmpty || !buffer.values.isEmpty {
        downstream.receive(.next(.list(buffer.values)))
      }
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
