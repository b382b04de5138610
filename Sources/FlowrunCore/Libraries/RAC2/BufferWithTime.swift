/// `bufferWithTime: d` (RAC2 `-bufferWithTime:onScheduler:`): a buffer's first value starts a
/// `d`-frame timer; when it fires the buffer is sent as a list. No empty buffers; on completion
/// the partial buffer is sent, then the completion; an error drops it.
///
/// ```
/// source:              -1-2------3---4|
/// bufferWithTime: 3    ----p--------q-(r|)     (p = [1, 2], q = [3], r = [4])
/// ```
extension Source {
  public func bufferWithTime(_ timing: Timing) -> any Source {
    timed(timing) { BufferWithTimeObserver(downstream: $0, timer: $1) }
  }
}

private final class BufferWithTimeObserver: UnaryOperator, TimerTarget {
  let downstream: any Observer
  let timer: TimerSlot
  let link = UpstreamLink()
  var buffer: [Value] = []

  init(downstream: any Observer, timer: TimerSlot) {
    self.downstream = downstream
    self.timer = timer
  }

  func receive(_ event: Event) {
    guard !link.isFinished else { return }
    switch event {
    case .next(let value):
      if buffer.isEmpty { timer.schedule(target: self) }
      buffer.append(value)
    case .error:
      timer.cancel()
      buffer = []
      link.end(with: event, to: downstream)
    case .completed:
      timer.cancel()
      link.finish()
      flush()
      downstream.receive(.completed)
    }
  }

  func timerFired(_ argument: Int) {
    timer.cancel()
    guard !link.isFinished else { return }
    flush()
  }

  private func flush() {
    guard !buffer.isEmpty else { return }
    let values = buffer
    buffer = []
    downstream.receive(.next(.list(values)))
  }

  func dispose() {
    timer.cancel()
    buffer = []
    link.dispose()
  }
}
