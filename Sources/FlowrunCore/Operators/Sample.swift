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
public final class SampleSource: Source {
  private let upstream: any Source
  private let sampler: any Source
  private let repeatsValue: Bool

  public init(_ upstream: any Source, sampler: any Source, repeatsValue: Bool = false) {
    self.upstream = upstream
    self.sampler = sampler
    self.repeatsValue = repeatsValue
  }

  public func subscribe(_ observer: any Observer) -> any Disposable {
    let sample = SampleSubscription(downstream: observer, isRAC: repeatsValue)
    sample.links.attach(upstream.subscribe(InputObserver(sink: sample, index: 0)), to: 0)
    guard !sample.isDone else { return sample }
    sample.links.attach(sampler.subscribe(InputObserver(sink: sample, index: 1)), to: 1)
    return sample
  }
}

private final class SampleSubscription: MultiInputSink, Disposable {
  let downstream: any Observer
  let isRAC: Bool
  let links = InputLinks(count: 2)
  var latest: Value?
  var isDone = false

  init(downstream: any Observer, isRAC: Bool) {
    self.downstream = downstream
    self.isRAC = isRAC
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
