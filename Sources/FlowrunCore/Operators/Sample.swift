/// `sample: signal` (RxJS 7): when the sampler emits, the source's latest value, once per new
/// value; `sampleRAC: signal` (RAC2 `-sample:`) re-emits the latest value at every sample.
///
/// The source is subscribed first, then the sampler. `sample` completes when the source
/// completes and ignores the sampler's completion; `sampleRAC` completes when either completes.
/// An error of either fails the result.
///
/// ```
/// source:    -a-b-----c-|
/// sampler:   ----x-x-x---
/// sample:    ----b---c--|
/// sampleRAC: ----b-b-c--|
/// ```
extension Source {
  /// With `repeatsValue` (`sampleRAC`) every sample re-sends the latest value.
  public func sample(_ sampler: any Source, repeatsValue: Bool = false) -> any Source {
    OperatorSource(self) { SampleSubscription(downstream: $0, sampler: sampler, isRAC: repeatsValue) }
  }
}

private final class SampleSubscription: OperatorSubscription, MultiInputSink {
  let downstream: any Observer
  let sampler: any Source
  let isRAC: Bool
  let links = InputLinks(count: 2)
  var latest: Value?
  var isDone = false

  init(downstream: any Observer, sampler: any Source, isRAC: Bool) {
    self.downstream = downstream
    self.sampler = sampler
    self.isRAC = isRAC
  }

  /// The source first, then the sampler.
  func start(_ upstream: any Source) {
    links.attach(upstream.subscribe(InputObserver(sink: self, index: 0)), to: 0)
    guard !isDone else { return }
    links.attach(sampler.subscribe(InputObserver(sink: self, index: 1)), to: 1)
  }

  func receive(_ event: Event, from input: Int) {
    guard !isDone else { return }
    switch event {
    case .next(let value) where input == 0:
      latest = value
    case .next:
      guard let value = latest else { return }
      if !isRAC { latest = nil }
      downstream.receive(.next(value))
    case .completed where input == 1 && !isRAC:
      links.finish(1)
    case .error, .completed:
      isDone = true
      links.finish(input)
      downstream.receive(event)
      links.disposeAll()
    }
  }

  func dispose() {
    isDone = true
    links.disposeAll()
  }
}
