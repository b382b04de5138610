/// `buffer: n` (+ `every: m`): lists of n values, a new one started every m values (default n),
/// RxJS 7 `bufferCount(n, m)`. On completion the unfinished buffers are sent, then completed.
///
/// ```
/// source:             -a-b-c-d-e-|
/// buffer: 2           ---x---y---(z|)   (x = [a, b], y = [c, d], z = [e])
/// buffer: 2, every: 1 ---p-q-r-s-(t|)   (p = [a, b], q = [b, c] … t = [e])
/// ```
extension Source {
  /// Lists of `size` values, a new one started every `every` values (default `size`).
  public func buffer(_ size: Int, every: Int?) -> any Source {
    let size = Swift.max(size, 1)
    let every = Swift.max(every ?? size, 1)
    return OperatorSource(self) { BufferCountObserver(downstream: $0, size: size, every: every) }
  }
}

private final class BufferCountObserver: UnaryOperator {
  let downstream: any Observer
  let size: Int
  let every: Int
  let link = UpstreamLink()
  var buffers: [[Value]] = []
  var count = 0

  init(downstream: any Observer, size: Int, every: Int) {
    self.downstream = downstream
    self.size = size
    self.every = every
  }

  func receive(_ event: Event) {
    guard !link.isFinished else { return }
    switch event {
    case .next(let value):
      var open = buffers.take()  // changed moved out (Exclusivity.swift)
      if count % every == 0 { open.append([]) }
      count += 1
      for index in open.indices { open[index].append(value) }
      let full = open.prefix { $0.count >= size }
      open.removeFirst(full.count)
      swap(&open, &buffers)
      for buffer in full where !link.isFinished { downstream.receive(.next(.list(buffer))) }
    case .error:
      link.finish()
      _ = buffers.take()
      downstream.receive(event)
    case .completed:
      link.finish()
      let open = buffers.take()
      for buffer in open { downstream.receive(.next(.list(buffer))) }
      downstream.receive(.completed)
    }
  }

  func dispose() {
    _ = buffers.take()
    link.dispose()
  }
}
