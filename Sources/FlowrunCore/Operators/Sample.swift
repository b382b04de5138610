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
    sample(sampler, rule: repeatsValue ? .rac2 : .rxjs)
  }

  public func sample(_ sampler: any Source, rule: SampleRule) -> any Source {
    OperatorSource(self) { SampleSubscription(downstream: $0, sampler: sampler, rule: rule) }
  }
}

/// How a `sample` reads its sampler: the libraries differ on repeats and on completion.
public struct SampleRule: Sendable {
  /// A sample re-sends the latest value even when it was sent already (RAC2).
  public var repeatsValue = false
  /// The sampler's completion completes the result (RAC2).
  public var completesWithSampler = false
  /// The sampler's completion samples like a value, and the source's completion waits for the
  /// next sample (RxSwift `sample`: `atEnd`).
  public var rxSwiftCompletion = false
  /// What a sample sends when no new value came (RxSwift `sample(_:defaultValue:)`).
  public var defaultValue: Value?

  public init(
    repeatsValue: Bool = false, completesWithSampler: Bool = false, rxSwiftCompletion: Bool = false,
    defaultValue: Value? = nil
  ) {
    self.repeatsValue = repeatsValue
    self.completesWithSampler = completesWithSampler
    self.rxSwiftCompletion = rxSwiftCompletion
    self.defaultValue = defaultValue
  }

  /// RxJS 7 `sample`.
  public static let rxjs = SampleRule()
  /// RAC2 `-sample:`.
  public static let rac2 = SampleRule(repeatsValue: true, completesWithSampler: true)
  /// RxSwift `sample(_:defaultValue:)`.
  public static func rxSwift(defaultValue: Value?) -> SampleRule {
    SampleRule(rxSwiftCompletion: true, defaultValue: defaultValue)
  }
}

private final class SampleSubscription: OperatorSubscription, MultiInputSink {
  let downstream: any Observer
  let sampler: any Source
  let rule: SampleRule
  let links = InputLinks(count: 2)
  var latest: Value?
  /// The source completed; an RxSwift sample completes at the next sample.
  var sourceAtEnd = false
  var isDone = false

  init(downstream: any Observer, sampler: any Source, rule: SampleRule) {
    self.downstream = downstream
    self.sampler = sampler
    self.rule = rule
  }

  /// The source first, then the sampler.
  func start(_ upstream: any Source) {
    links.attach(upstream.subscribe(InputObserver(sink: self, index: 0)), to: 0)
    guard !isDone else { return }
    links.attach(sampler.subscribe(InputObserver(sink: self, index: 1)), to: 1)
  }

  func receive(_ event: Event, from input: Int) {
    guard !isDone else { return }
    switch (event, input) {
    case (.next(let value), 0):
      latest = value
    case (.completed, 0) where rule.rxSwiftCompletion:
      links.finish(0)
      sourceAtEnd = true
    case (.next, _):
      takeSample()
    case (.completed, 1) where rule.rxSwiftCompletion:
      links.finish(1)
      takeSample()
    case (.completed, 1) where !rule.completesWithSampler:
      links.finish(1)
    case (.error, _), (.completed, _):
      end(with: event, from: input)
    }
  }

  /// A sample: the latest value (or the default), then, for an RxSwift sample whose source
  /// ended, the completion.
  private func takeSample() {
    if let value = latest ?? rule.defaultValue {
      if !rule.repeatsValue { latest = nil }
      downstream.receive(.next(value))
    }
    if sourceAtEnd, !isDone { end(with: .completed, from: nil) }
  }

  private func end(with event: Event, from input: Int?) {
    isDone = true
    if let input { links.finish(input) }
    downstream.receive(event)
    links.disposeAll()
  }

  func dispose() {
    isDone = true
    links.disposeAll()
  }
}
