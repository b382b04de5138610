/// `buffer: n` (+ `every: m`): lists of n values, a new one started every m values (default n),
/// RxJS 7 `bufferCount(n, m)`. On completion the unfinished buffers are sent, then completed.
///
/// ```
/// source:             -a-b-c-d-e-|
/// buffer: 2           ---x---y---(z|)   (x = [a, b], y = [c, d], z = [e])
/// buffer: 2, every: 1 ---p-q-r-s-(t|)   (p = [a, b], q = [b, c] … t = [e])
/// ```
public final class BufferCountSource: Source {
  private let upstream: any Source
  fileprivate let size: Int
  fileprivate let every: Int

  public init(_ upstream: any Source, size: Int, every: Int?) {
    self.upstream = upstream
    self.size = Swift.max(size, 1)
    self.every = Swift.max(every ?? size, 1)
  }

  public func subscribe(_ observer: any Observer) -> any Disposable {
    let buffer = BufferCountObserver(downstream: observer, source: self)
    buffer.link.attach(upstream.subscribe(buffer))
    return buffer
  }
}

private final class BufferCountObserver: Observer, Disposable {
  let downstream: any Observer
  let source: BufferCountSource
  let link = UpstreamLink()
  var buffers: [[Value]] = []
  var count = 0

  init(downstream: any Observer, source: BufferCountSource) {
    self.downstream = downstream
    self.source = source
  }

  func receive(_ event: Event) {
    guard !link.isFinished else { return }
    switch event {
    case .next(let value):
      var open = buffers.take()  // changed moved out (Exclusivity.swift)
      if count % source.every == 0 { open.append([]) }
      count += 1
      for index in open.indices { open[index].append(value) }
      let full = open.prefix { $0.count >= source.size }
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
